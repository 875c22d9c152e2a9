#!/bin/sh
# Runs a BEAM program ("$@": its command, ending with the protocol's invocation of
# docs/PROTOCOL.md §1, passed on unchanged) with the process limit (+P) raised only when the
# case needs more processes than the default 262,144, as in the seed runs (async_bench and
# the 2023 benchmark ran with the default; skynet's 1,111,111 processes need more). The
# process table is allocated whole at start, so a larger limit costs idle memory: +P 2000000
# adds about 21 MiB of RSS to every run. The limit goes through ERL_FLAGS, which erl reads
# whether started directly or by the elixir script.
#
# Ports need no flag: each socket of echo and connections is a port (the inet driver's),
# and the port limit (+Q) is 65,536 or, where the open-file limit is higher, at least that
# limit (erl(1), +Q) — which the harness raises to 2 × connections + headroom for those
# scenarios, so the BEAM's limit follows it and the open-file limit is the one that binds.
set -eu

scenario=
tasks=0 requests=0 fanout=0 size=0 pairs=0 length=0 connections=0
# The scenario is the first word naming one; each parameter the process count depends on
# takes the largest value given, measured or warm-up (--<param> V or --warmup-<param> V).
flag=
for word in "$@"; do
    case "$scenario:$word" in
    :spawn | :sleep | :timer | :doxbee | :parallel | :skynet | :pingpong | :chain | :yield | \
    :echo | :connections)
        scenario=$word ;;
    esac
    param="${flag#--}"
    param="${param#warmup-}"
    case "$param:$word" in
    *:*[!0-9]* | *:) ;;
    tasks:* | requests:* | fanout:* | size:* | pairs:* | length:* | connections:*)
        eval "[ \"\$word\" -le \"\$$param\" ] || $param=\$word" ;;
    esac
    flag=$word
done

# Processes alive at once at most: one per task, request, fan-out op, skynet node, pingpong
# player and chain link; a client and a server per connection and the acceptor.
case "$scenario" in
spawn | sleep | yield) processes=$tasks ;;
doxbee) processes=$requests ;;
parallel) processes=$((requests * (fanout + 1))) ;;
skynet) processes=$((size * 10 / 9 + 1)) ;;
pingpong) processes=$((2 * pairs)) ;;
chain) processes=$length ;;
echo | connections) processes=$((2 * connections + 1)) ;;
*) processes=0 ;;
esac
# Headroom for the VM's own processes (about 60 at start).
limit=$((processes + 1024))

if [ "$limit" -gt 262144 ]; then
    export ERL_FLAGS="${ERL_FLAGS:+$ERL_FLAGS }+P $limit"
fi
exec "$@"
