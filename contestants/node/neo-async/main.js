// The `node-neo-async` contestant: the scenarios of lib/caolan-async.js on neo-async, a
// faster drop-in replacement for caolan's async with the same API.

import async from "neo-async";
import { asyncLibScenarios } from "../lib/caolan-async.js";
import { run } from "../lib/protocol.js";

run(asyncLibScenarios(async));
