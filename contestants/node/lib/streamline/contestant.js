// The main of both streamline contestants: loads the scenarios that build.sh compiled
// from requests._js (doxbee, parallel), tasks._js (the other seven task scenarios) and
// sockets._js (echo, connections) into the
// contestant's compiled/ folder, in that contestant's mode (callbacks or generators), and
// runs them under the protocol.

import { createRequire } from "node:module";
import { run } from "../protocol.js";
import { Transaction, Upload, fakeIo } from "../requests.js";
import * as sockets from "../sockets.js";
import { scheduledTasks } from "../tasks.js";
import * as timer from "../timer.js";

/** Runs the scenarios compiled next to `mainUrl` (the contestant's main.js). */
export function runCompiled(mainUrl) {
  const require = createRequire(mainUrl);
  const streamlineScenarios = require("./compiled/requests.js");
  const streamlineTasks = require("./compiled/tasks.js");
  const streamlineSockets = require("./compiled/sockets.js");
  run({
    ...streamlineScenarios(Upload, Transaction, fakeIo),
    ...streamlineTasks(timer, scheduledTasks),
    ...streamlineSockets(sockets),
  });
}
