// The `node-streamline-generators` contestant: bluebird's streamline-generators, the eleven
// scenarios written once in streamline's `_` style (doxbee and parallel in
// lib/streamline/requests._js, echo and connections in lib/streamline/sockets._js, the
// other seven in lib/streamline/tasks._js) and compiled at build time in the generators mode
// into compiled/ (lib/streamline/build.sh).

import { runCompiled } from "../lib/streamline/contestant.js";

runCompiled(import.meta.url);
