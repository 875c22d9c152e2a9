#!/bin/sh
# Builds the environment a Python contestant runs in: a venv in the contestant's cache
# folder ($1) with the pinned, hashed requirements ($2, if given) installed. Safe to re-run
# and quick when nothing changed: the venv is made once, and pip runs again only when the
# requirements file differs from the one last installed.
set -eu
venv="$1/venv"
requirements="${2-}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if [ -n "$requirements" ] && ! cmp -s "$requirements" "$venv/installed-requirements.txt"; then
    "$venv/bin/pip" install --quiet --require-hashes --requirement "$requirements"
    cp "$requirements" "$venv/installed-requirements.txt"
fi
