// The `node-async-lib` contestant: the scenarios of lib/caolan-async.js on caolan's async.

import async from "async";
import { asyncLibScenarios } from "../lib/caolan-async.js";
import { run } from "../lib/protocol.js";

run(asyncLibScenarios(async));
