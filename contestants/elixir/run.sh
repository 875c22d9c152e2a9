#!/bin/sh
# Starts an Elixir contestant: $1 is the folder of its compiled modules, $2 its main module,
# the rest the protocol's invocation (docs/PROTOCOL.md §1), passed on unchanged.
#
# The BEAM's process limit (+P) is raised only when the case needs more processes than the
# default 262,144, as in the seed runs (async_bench and the 2023 benchmark ran with the
# default; skynet's 1,111,111 processes need more). The process table is allocated whole at
# start, so a larger limit costs idle memory: +P 2000000 adds about 21 MiB of RSS to every run.
set -eu
cache="$1"
module="$2"
shift 2
scenario="${1-}"

# The largest value given for each parameter the count depends on, measured or warm-up
# (--<param> V or --warmup-<param> V): p_tasks, p_requests, …
name=
for word in "$@"; do
    if [ -n "$name" ]; then
        case "$word" in
        '' | *[!0-9]*) ;;
        *) eval "[ \"\$word\" -le \"\${p_$name:-0}\" ] || p_$name=\$word" ;;
        esac
        name=
        continue
    fi
    name="${word#--}"
    name="${name#warmup-}"
    case "$name" in
    tasks | requests | fanout | size | pairs | length) ;;
    *) name= ;;
    esac
done

# Processes alive at once at most, one per task (Task.async and spawn alike).
case "$scenario" in
spawn | sleep | yield) processes=${p_tasks:-0} ;;
doxbee) processes=${p_requests:-0} ;;
parallel) processes=$((${p_requests:-0} * (${p_fanout:-0} + 1))) ;;
skynet) processes=$((${p_size:-0} * 10 / 9 + 1)) ;;
pingpong) processes=$((2 * ${p_pairs:-0})) ;;
chain) processes=${p_length:-0} ;;
*) processes=0 ;;
esac
# Headroom for the VM's own processes (about 60 at start).
limit=$((processes + 1024))

if [ "$limit" -gt 262144 ]; then
    exec elixir --erl "+P $limit" -pa "$cache" -e "$module.main()" -- "$@"
else
    exec elixir -pa "$cache" -e "$module.main()" -- "$@"
fi
