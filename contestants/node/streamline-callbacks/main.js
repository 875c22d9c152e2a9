// The `node-streamline-callbacks` contestant: bluebird's streamline-callbacks, doxbee and
// parallel written once in streamline's `_` style (lib/streamline/requests._js) and
// compiled at build time in the callbacks mode into compiled/ (lib/streamline/build.sh).

import { runCompiled } from "../lib/streamline/contestant.js";

runCompiled(import.meta.url);
