// The main of both streamline contestants: loads the scenarios that build.sh compiled
// from requests._js into the contestant's compiled/ folder, in that contestant's mode
// (callbacks or generators), and runs them under the protocol. Only doxbee and parallel
// are written in streamline; the rest exit 69 (n/a), as their manifests say.

import { createRequire } from "node:module";
import { run } from "../protocol.js";
import { Transaction, Upload, fakeIo } from "../requests.js";

/** Runs the scenarios compiled next to `mainUrl` (the contestant's main.js). */
export function runCompiled(mainUrl) {
  const streamlineScenarios = createRequire(mainUrl)("./compiled/requests.js");
  run(streamlineScenarios(Upload, Transaction, fakeIo));
}
