// The version line of a Node contestant's manifest: node's version and, for each library
// named on the command line, the version package-lock.json pins, which `npm ci` installs.
// Read from the lock, so the line is right before the first build too.

import { readFileSync } from "node:fs";

const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const libraries = process.argv
  .slice(2)
  .map((name) => `${name} ${lock.packages[`node_modules/${name}`].version}`);
console.log([`node ${process.version}`, ...libraries].join(", "));
