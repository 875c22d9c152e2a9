// The `node-rsvp` contestant: the scenarios of lib/promise-chains.js on tildeio's RSVP.js:
// fake I/O through RSVP.denodeify, joins with RSVP.all (RSVP.Promise.all). RSVP has no
// timer of its own, so sleeps and yields wrap setTimeout and setImmediate in RSVP.Promise.

import RSVP from "rsvp";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

const { Promise } = RSVP;

run(
  promiseScenarios({
    Promise,
    promiseIo: (ioMs) => RSVP.denodeify(fakeIo(ioMs)),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
  }),
);
