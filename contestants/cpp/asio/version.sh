#!/bin/sh
# The asio contestant's version line, read from the headers and compiler its build uses:
# Boost (and the Asio inside it) and g++. It fails when either is missing (detect.sh says
# which, for `detect`).
set -eu
versions=$(printf '%s\n' '#include <boost/version.hpp>' '#include <boost/asio/version.hpp>' \
    'BOOST_VERSION BOOST_ASIO_VERSION' | g++ -std=c++20 -x c++ -E -P - | tail -n 1)
set -- $versions
dotted() { echo "$(($1 / 100000)).$(($1 / 100 % 1000)).$(($1 % 100))"; }
echo "Boost $(dotted "$1") (Asio $(dotted "$2")), $(g++ --version | head -n 1)"
