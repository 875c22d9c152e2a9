#!/bin/sh
# The build of a streamline contestant, run in its folder with the mode as its argument
# (callbacks or generators): the Node contestants' one `npm ci` (skipped while
# node_modules is newer than the lock file), then streamline's own compiler turns
# ../lib/streamline/requests._js, tasks._js and sockets._js into compiled/requests.js,
# tasks.js and sockets.js for that mode. compiled/ gets a package.json of its own, since the compiler writes CommonJS
# and contestants/node's package.json says "module". The compiler's cache stays in
# compiled/ too.
set -eu
mode=$1
[ ../node_modules/.package-lock.json -nt ../package-lock.json ] ||
  npm ci --prefix .. --no-audit --no-fund --loglevel=error
mkdir -p compiled
printf '{ "type": "commonjs" }\n' > compiled/package.json
../node_modules/.bin/_node --compile --quiet --force --runtime "$mode" \
  --cache-dir compiled/cache --out-dir compiled ../lib/streamline/requests._js \
  ../lib/streamline/tasks._js ../lib/streamline/sockets._js
