%% `erlang-processes': the nine scenarios (docs/PROTOCOL.md §4) with bare BEAM processes, as
%% Erlang programs write them: `spawn', results sent to the parent with `!' and collected
%% with `receive' (atemerev/skynet's Erlang entry), `timer:sleep/1', `erlang:yield/0'.
-module(taskbench_processes).
-export([main/0]).

main() -> taskbench_protocol:main(fun run/2).

run(spawn, #{tasks := Tasks}) ->
    join_sum(Tasks, fun(I) -> I end);
run(sleep, #{tasks := Tasks, delay_ms := Delay}) ->
    join_sum(Tasks, fun(I) -> timer:sleep(Delay), I end);
run(timer, #{step_us := StepUs, total_ms := TotalMs}) ->
    StepMs = step_ms(StepUs),
    Slept = [begin
                 Start = erlang:monotonic_time(nanosecond),
                 timer:sleep(StepMs),
                 erlang:monotonic_time(nanosecond) - Start
             end || _ <- lists:seq(1, TotalMs * 1000 div StepUs)],
    oversleep(Slept, StepUs * 1000);
run(doxbee, #{requests := Requests, io_ms := IoMs}) ->
    join_sum(Requests, fun(I) -> taskbench_requests:upload(I, IoMs) end);
run(parallel, #{requests := Requests, fanout := Fanout, io_ms := IoMs}) ->
    join_sum(Requests, fun(I) ->
        % Ops 0 … Fanout − 1 at once, each in a process of its own and counted in its copy
        % of the transaction, then the commit, op Fanout.
        Tx = taskbench_requests:begin_tx(I),
        Op = fun(K) -> taskbench_requests:ops(taskbench_requests:io(Tx, K, IoMs)) end,
        Done = join_sum(Fanout, Op),
        Done + Op(Fanout)
    end);
run(skynet, #{size := Size}) ->
    % The root runs in a process of its own, as in the original.
    join_sum(1, fun(_) -> skynet(0, Size) end);
run(pingpong, #{pairs := Pairs, rounds := Rounds}) ->
    join_sum(Pairs, fun(_) -> rally(spawn(fun ponger/0), Rounds, 0) end);
run(chain, #{length := Length}) ->
    Main = self(),
    spawn(fun() -> link(1, 0, Length, Main) end),
    receive
        {chain, Sum} -> Sum
    end;
run(yield, #{tasks := Tasks, yields := Yields}) ->
    join_sum(Tasks, fun(_) -> yield_times(Yields, 0) end).

%% Runs Fun(0) … Fun(Count − 1) each in a process of its own that sends its result to the
%% caller, and returns the sum of the results.
join_sum(Count, Fun) ->
    spawn_all(0, Count, Fun, self()),
    collect(Count, 0).

spawn_all(Count, Count, _Fun, _Parent) -> ok;
spawn_all(I, Count, Fun, Parent) ->
    spawn(fun() -> Parent ! {result, Fun(I)} end),
    spawn_all(I + 1, Count, Fun, Parent).

collect(0, Sum) -> Sum;
collect(Left, Sum) ->
    receive
        {result, Value} -> collect(Left - 1, Sum + Value)
    end.

%% A leaf returns its number, an inner node the sum of its ten children.
skynet(Num, 1) -> Num;
skynet(Num, Size) ->
    Part = Size div 10,
    join_sum(10, fun(K) -> skynet(Num + K * Part, Part) end).

%% The pinger's side of a pair: `Rounds' round trips, then the ponger is stopped.
rally(Ponger, Rounds, Rounds) ->
    Ponger ! stop,
    Rounds;
rally(Ponger, Rounds, Trips) ->
    Ponger ! {ping, self()},
    receive
        pong -> rally(Ponger, Rounds, Trips + 1)
    end.

ponger() ->
    receive
        {ping, Pinger} ->
            Pinger ! pong,
            ponger();
        stop ->
            ok
    end.

%% Link 1 is started with the sum 0; link N adds N to the sum it was handed, starts link
%% N + 1 with the new sum and ends; the last one sends the sum to the main process.
link(Length, Sum, Length, Main) -> Main ! {chain, Sum + Length};
link(N, Sum, Length, Main) -> spawn(fun() -> link(N + 1, Sum + N, Length, Main) end).

yield_times(0, Done) -> Done;
yield_times(Left, Done) ->
    erlang:yield(),
    yield_times(Left - 1, Done + 1).

%% The timer's step in whole milliseconds, the unit of every BEAM timer (`receive after',
%% `erlang:send_after/3', `timer:sleep/1'). Another step is declined (n/a) rather than
%% rounded up, which would measure the rounding as oversleep.
step_ms(StepUs) when StepUs rem 1000 =:= 0 ->
    StepUs div 1000;
step_ms(StepUs) ->
    throw({unsupported, io_lib:format(
        "the BEAM's timers count whole milliseconds: a step of ~b us would sleep ~b ms",
        [StepUs, (StepUs + 999) div 1000])}).

%% The number of sleeps and the nearest-rank percentiles of how much later than the step
%% each one ended, clamped at 0.
oversleep(Slept, StepNs) ->
    Over = list_to_tuple(lists:sort([max(Ns - StepNs, 0) || Ns <- Slept])),
    Count = tuple_size(Over),
    Rank = fun(_Q) when Count =:= 0 -> 0;
              (Q) -> element(min(max(ceil(Q * Count), 1), Count), Over)
           end,
    {Count, [{oversleep_p50_ns, Rank(0.50)}, {oversleep_p99_ns, Rank(0.99)},
             {oversleep_max_ns, Rank(1.0)}]}.
