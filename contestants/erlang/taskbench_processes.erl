%% `erlang-processes': the scenarios of docs/PROTOCOL.md §4 with bare BEAM processes, as
%% Erlang programs write them: `spawn', results sent to the parent with `!' and collected
%% with `receive' (atemerev/skynet's Erlang entry), `timer:sleep/1', `erlang:yield/0', and
%% for the socket scenarios `gen_tcp' (a port of the inet driver per socket, on epoll).
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
    join_sum(Tasks, fun(_) -> yield_times(Yields, 0) end);
run(echo, #{connections := Connections, rounds := Rounds, bytes := Bytes}) ->
    Main = self(),
    % The acceptor and the clients are joined together; the acceptor returns 0 once its
    % servers have ended.
    spawn(fun() ->
        Main ! {result, serve_all(Connections, fun echo/1, Main, fun() -> ok end)}
    end),
    Port = receive {listening, P} -> P end,
    spawn_all(0, Connections, fun(C) -> echo_client(Port, C, Rounds, Bytes) end, Main),
    collect(Connections + 1, 0);
run(connections, #{connections := Connections}) ->
    Main = self(),
    spawn(fun() ->
        Accepted = fun() -> Main ! accepted end,
        Main ! {result, serve_all(Connections, fun hold/1, Main, Accepted)}
    end),
    Port = receive {listening, P} -> P end,
    spawn_all(0, Connections, fun(C) -> held_client(Port, C, Main) end, Main),
    % Go once every client is connected and every connection accepted, its server started.
    Clients = [receive {connected, Client} -> Client end || _ <- lists:seq(1, Connections)],
    receive accepted -> ok end,
    [Client ! go || Client <- Clients],
    collect(Connections + 1, 0).

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

%% The acceptor: listens on 127.0.0.1, an ephemeral port it tells `Main', with a backlog of
%% one per connection, passive, TCP_NODELAY (inherited by every accepted socket, as are the
%% other options) and reads of up to 64 KiB (`recv(S, 0)' returns at most `buffer' bytes,
%% 1460 by default); accepts `Connections' connections, each handed to a server process of
%% its own (`controlling_process', then a message telling it so); closes the listener, calls
%% `Accepted', and returns 0 once every server has ended. The listener is its own, so that
%% closing it sends no exit signal to another process.
serve_all(Connections, Serve, Main, Accepted) ->
    {ok, Listen} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127, 0, 0, 1}},
                                      {backlog, Connections}, {nodelay, true},
                                      {reuseaddr, true}, {buffer, 65536}]),
    {ok, Port} = inet:port(Listen),
    Main ! {listening, Port},
    accept_all(Listen, Connections, Serve, self()),
    ok = gen_tcp:close(Listen),
    Accepted(),
    collect(Connections, 0).

accept_all(_Listen, 0, _Serve, _Acceptor) -> ok;
accept_all(Listen, Left, Serve, Acceptor) ->
    {ok, Socket} = gen_tcp:accept(Listen),
    Server = spawn(fun() ->
        receive
            {owner, Socket} -> Serve(Socket)
        end,
        Acceptor ! {result, 0}
    end),
    ok = gen_tcp:controlling_process(Socket, Server),
    Server ! {owner, Socket},
    accept_all(Listen, Left - 1, Serve, Acceptor).

connect(Port) ->
    {ok, Socket} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, false},
                                                          {nodelay, true}]),
    Socket.

%% An echo server: writes back whatever has arrived until the client closes.
echo(Socket) ->
    case gen_tcp:recv(Socket, 0) of
        {ok, Data} ->
            ok = gen_tcp:send(Socket, Data),
            echo(Socket);
        {error, closed} ->
            gen_tcp:close(Socket)
    end.

%% Client C: a round's `Bytes' bytes of (C + R) mod 255 + 1 in one write, read back whole
%% (`recv(S, Bytes)' returns exactly that many) and added up byte by byte.
echo_client(Port, C, Rounds, Bytes) ->
    Socket = connect(Port),
    Sum = rounds(Socket, C, 0, Rounds, Bytes, 0),
    ok = gen_tcp:close(Socket),
    Sum.

rounds(_Socket, _C, Rounds, Rounds, _Bytes, Sum) -> Sum;
rounds(Socket, C, R, Rounds, Bytes, Sum) ->
    ok = gen_tcp:send(Socket, binary:copy(<<((C + R) rem 255 + 1)>>, Bytes)),
    {ok, Echo} = gen_tcp:recv(Socket, Bytes),
    rounds(Socket, C, R + 1, Rounds, Bytes, sum_bytes(Echo, Sum)).

sum_bytes(<<Byte, Rest/binary>>, Sum) -> sum_bytes(Rest, Sum + Byte);
sum_bytes(<<>>, Sum) -> Sum.

%% A held connection's server: waits for its one byte, echoes it, waits for the end.
hold(Socket) ->
    {ok, Byte} = gen_tcp:recv(Socket, 1),
    ok = gen_tcp:send(Socket, Byte),
    {error, closed} = gen_tcp:recv(Socket, 0),
    gen_tcp:close(Socket).

%% Client C of `connections': connects, says so, waits for go, then one byte each way.
held_client(Port, C, Main) ->
    Socket = connect(Port),
    Main ! {connected, self()},
    receive
        go -> ok
    end,
    ok = gen_tcp:send(Socket, <<(C rem 255 + 1)>>),
    {ok, <<Byte>>} = gen_tcp:recv(Socket, 1),
    ok = gen_tcp:close(Socket),
    Byte.

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
