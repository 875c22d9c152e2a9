// The `detect` of node-streamline: succeeds once the streamline package resolves from the
// Node contestants' node_modules, and otherwise says why it is not there.

import { createRequire } from "node:module";

try {
  createRequire(import.meta.url).resolve("streamline");
} catch {
  console.error(
    "streamline is not installed: `npm install streamline streamline-runtime` fails here " +
      "(npm error code 128, An unknown git error occurred: git ls-remote " +
      "ssh://git@github.com/Sage/node-source-map-support.git, Could not resolve hostname " +
      "github.com); streamline depends on source-map-support from that git URL",
  );
  process.exit(1);
}
