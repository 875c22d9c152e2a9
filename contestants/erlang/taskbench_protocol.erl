%% The contestant protocol (docs/PROTOCOL.md, version 2) for the Erlang contestants, so that
%% a contestant's module holds only its scenarios: reads the command line, runs the
%% unmeasured warm-up iterations, then the M measured ones, timing each with the monotonic
%% clock and the VM's CPU time (`statistics(runtime)`: every thread, whole milliseconds, the
%% finest process CPU clock the BEAM offers without a NIF) and printing its JSON line, and
%% halts the VM (tearing it down is not the workload).
-module(taskbench_protocol).
-export([main/1]).

%% The parameters of every scenario, in catalogue order; `delay_ms' is `--delay-ms'.
-define(PARAMS, #{
    spawn => [tasks],
    sleep => [tasks, delay_ms],
    timer => [step_us, total_ms],
    doxbee => [requests, io_ms],
    parallel => [requests, fanout, io_ms],
    skynet => [size],
    pingpong => [pairs, rounds],
    chain => [length],
    yield => [tasks, yields],
    echo => [connections, rounds, bytes],
    connections => [connections]
}).

%% Runs the invocation after erl's `-extra' with `Run(Scenario, Params)', one iteration that
%% returns the checksum or `{Checksum, [{Figure, Value}]}', and halts: status 0 after the
%% last result line, 2 when the command line is not understood, 69 (n/a) when `Run' throws
%% `{unsupported, Why}' for a case the runtime cannot express (before any line).
main(Run) ->
    case parse(init:get_plain_arguments()) of
        {ok, Scenario, Params, WarmupParams, Warmup, Iterations} ->
            try
                repeat(Warmup, fun() -> Run(Scenario, WarmupParams) end),
                repeat(Iterations, fun() ->
                    CpuStart = cpu_ns(),
                    Start = erlang:monotonic_time(nanosecond),
                    Outcome = Run(Scenario, Params),
                    Elapsed = erlang:monotonic_time(nanosecond) - Start,
                    Cpu = cpu_ns() - CpuStart,
                    % Returns once the I/O server has taken the line, before the next one.
                    io:put_chars(result_line(Elapsed, Cpu, Outcome))
                end)
            catch
                throw:{unsupported, Why} ->
                    io:format(standard_error, "~s not implemented: ~s~n", [Scenario, Why]),
                    erlang:halt(69)
            end,
            erlang:halt(0);
        {error, Reason} ->
            io:format(standard_error, "taskbench_protocol: ~s~n", [Reason]),
            erlang:halt(2)
    end.

repeat(0, _Fun) -> ok;
repeat(Times, Fun) ->
    Fun(),
    repeat(Times - 1, Fun).

%% `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
%% --iterations M'; every parameter is required. A `--warmup-<param>' gives the parameter
%% another value in the warm-up iterations only.
parse([Name | Args]) ->
    case [S || S <- maps:keys(?PARAMS), atom_to_list(S) =:= Name] of
        [Scenario] -> parse(Scenario, Args);
        [] -> {error, "unknown scenario " ++ Name}
    end;
parse([]) ->
    {error, "missing scenario"}.

parse(Scenario, Args) ->
    Keys = maps:get(Scenario, ?PARAMS),
    Required = [inner_warmup, iterations | Keys],
    Flags = [{flag(K), K} || K <- Required] ++ [{flag("warmup-", K), {warmup, K}} || K <- Keys],
    case values(Args, Flags, #{}) of
        {error, _} = Error ->
            Error;
        #{iterations := 0} ->
            {error, "--iterations must be at least 1"};
        Values ->
            case [flag(K) || K <- Required, not is_map_key(K, Values)] of
                [] ->
                    Params = maps:with(Keys, Values),
                    Overrides = [{K, V} || {{warmup, K}, V} <- maps:to_list(Values)],
                    WarmupParams = maps:merge(Params, maps:from_list(Overrides)),
                    #{inner_warmup := Warmup, iterations := Iterations} = Values,
                    {ok, Scenario, Params, WarmupParams, Warmup, Iterations};
                Missing ->
                    {error, [atom_to_list(Scenario), " needs ", lists:join(", ", Missing)]}
            end
    end.

%% The flags' values, each a whole number.
values([], _Flags, Values) ->
    Values;
values([Flag, Value | Rest], Flags, Values) ->
    case {lists:keyfind(Flag, 1, Flags), string:to_integer(Value)} of
        {{_, Key}, {N, ""}} when N >= 0 -> values(Rest, Flags, Values#{Key => N});
        _ -> {error, ["not understood: ", Flag, " ", Value]}
    end;
values([Word], _Flags, _Values) ->
    {error, ["not understood: ", Word]}.

flag(Key) -> flag("", Key).

flag(Prefix, Key) ->
    lists:flatten(["--", Prefix, string:replace(atom_to_list(Key), "_", "-", all)]).

%% The CPU time of every thread of the VM so far, in nanoseconds (counted in milliseconds).
cpu_ns() ->
    {RuntimeMs, _SinceLastCall} = erlang:statistics(runtime),
    RuntimeMs * 1000000.

%% `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}', written by hand: every figure is
%% an integer.
result_line(Elapsed, Cpu, {Checksum, Extra}) ->
    Figures = lists:join(",", [io_lib:format("\"~s\":~b", [F, V]) || {F, V} <- Extra]),
    io_lib:format("{\"elapsed_ns\":~b,\"cpu_ns\":~b,\"checksum\":~b,\"extra\":{~s}}~n",
                  [Elapsed, Cpu, Checksum, Figures]);
result_line(Elapsed, Cpu, Checksum) ->
    result_line(Elapsed, Cpu, {Checksum, []}).
