// The `node-streamline-generators` contestant: bluebird's streamline-generators, doxbee and
// parallel written once in streamline's `_` style (lib/streamline/requests._js) and
// compiled at build time in the generators mode into compiled/ (lib/streamline/build.sh).

import { runCompiled } from "../lib/streamline/contestant.js";

runCompiled(import.meta.url);
