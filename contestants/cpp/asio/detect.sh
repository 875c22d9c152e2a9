#!/bin/sh
# The asio contestant's `detect`: g++ and the Boost headers its build needs, each missing
# one named in one line (the harness shows it beside the manifest's install command)
# instead of a compiler error. Preprocessing boost/asio.hpp finds every header it pulls in,
# at a fraction of a compile's cost: detect runs on every `taskbench list` and `run`.
if ! command -v g++ >/dev/null 2>&1; then
    echo "g++ is missing" >&2
    exit 1
fi
if ! printf '#include <boost/asio.hpp>\n' | g++ -std=c++20 -E -x c++ - >/dev/null 2>&1; then
    echo "the Boost headers are missing (boost/asio.hpp)" >&2
    exit 1
fi
