// The `node-streamline` contestant holds bluebird's streamline variant's place in the Node
// field, and no scenario yet: streamline does not install from npm here (its manifest says
// why), so its code could not be compiled or checked, and every scenario exits 69 (n/a)
// until it is written against an installed streamline.

import { run } from "../lib/protocol.js";

run({});
