// The `node-co` contestant: the scenarios of lib/generators.js run by TJ's co, which
// drives generators over the native Promise: co.wrap turns each generator function into a
// function returning a promise. co has no promise helpers of its own, so the rest is
// node-async-await's: fake I/O in a `new Promise`, Node's promise timers.

import co from "co";
import { setImmediate, setTimeout } from "node:timers/promises";
import { generatorScenarios } from "../lib/generators.js";
import { run } from "../lib/protocol.js";
import { nativePromiseIo } from "../lib/requests.js";

run(
  generatorScenarios({
    coroutine: co.wrap,
    Promise,
    promiseIo: nativePromiseIo,
    sleep: (ms) => setTimeout(ms),
    nextTurn: () => setImmediate(),
  }),
);
