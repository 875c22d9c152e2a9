#!/bin/sh
# Installs the Deno both deno contestants run, once for both: PyPI's deno (requirements.txt,
# pinned with hashes) into a venv here, made once, pip run again only when
# requirements.txt differs from the one last installed. Its binary is linked at
# node_modules/deno/deno, where npm's deno package puts it: that path is how taskbench
# knows the rows run Deno, and what a variant (`-c deno@2.1.0`) replaces with the binary of
# npm's release, installed into a folder of the variant's own.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
venv="$dir/venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! cmp -s "$dir/requirements.txt" "$venv/installed-requirements.txt"; then
    "$venv/bin/pip" install --quiet --require-hashes --requirement "$dir/requirements.txt"
    cp "$dir/requirements.txt" "$venv/installed-requirements.txt"
fi
# An earlier build's npm install (package.json, bin.cjs, the binary itself) goes.
if [ ! -L "$dir/node_modules/deno/deno" ]; then
    rm -rf "$dir/node_modules"
    mkdir -p "$dir/node_modules/deno"
    ln -s ../../venv/bin/deno "$dir/node_modules/deno/deno"
fi
