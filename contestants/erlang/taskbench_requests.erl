%% The bluebird request scenarios' work (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md
%% §4): a request's transaction, its fake I/O ops, and one doxbee "upload" request. Fake I/O
%% is `timer:sleep/1', the BEAM's timer, in the calling process.
-module(taskbench_requests).
-export([begin_tx/1, io/3, ops/1, upload/2]).

%% What a doxbee request builds in its synchronous steps; it rides along in the request
%% until it ends, as it stays alive in the original's closures.
-record(upload, {blob, tx, version, file, uuid}).
-record(version, {user_id, created, blob_id, creator, previous_id, hash}).

%% Begins request `Id''s transaction: no ops done yet.
begin_tx(Id) -> #{id => Id, ops => 0}.

%% Runs op `Index' of the transaction and returns the transaction with the op counted. As
%% bluebird's fake database call, the op makes a new query, a map holding a new params map
%% (the op's index within its request) and the transaction, and makes the call with it; the
%% call reads the transaction, and the query is garbage from then on, as the seed's is.
%% The sleeping process is the op's completion.
io(Tx, Index, IoMs) -> call(#{params => #{index => Index}, tx => Tx}, IoMs).

call(#{tx := #{ops := Ops} = Tx}, IoMs) ->
    timer:sleep(IoMs),
    Tx#{ops := Ops + 1}.

%% The number of the transaction's ops that have completed.
ops(#{ops := Ops}) -> Ops.

%% Runs doxbee request `I' in the calling process; returns its fake I/O count. Each op's
%% params are its step number.
upload(I, IoMs) ->
    % 1. Create the blob and begin the transaction.
    Blob = #upload{blob = <<"blob-", (integer_to_binary(I))/binary>>, tx = begin_tx(I)},
    % 2. Put the blob; 3. look the file up: it never exists.
    Looked = step(step(Blob, 2, IoMs), 3, IoMs),
    % 4. The version record; 5. insert the version.
    Versioned = step(Looked#upload{version = version(I)}, 5, IoMs),
    % 6. Name the file and make its uuid, then execute the "create file" query;
    % 7. insert the file–version link; 8. update the file's current version; 9. commit.
    Named = Versioned#upload{file = file_name(I), uuid = uuid(I)},
    Done = lists:foldl(fun(Step, Upload) -> step(Upload, Step, IoMs) end, Named, [6, 7, 8, 9]),
    ops(Done#upload.tx).

step(#upload{tx = Tx} = Upload, Step, IoMs) -> Upload#upload{tx = io(Tx, Step, IoMs)}.

%% The time is the wall clock as a number, as the other contestants keep it.
version(I) ->
    #version{user_id = I, created = erlang:system_time(), blob_id = I,
             creator = <<"user-", (integer_to_binary(I))/binary>>, previous_id = undefined,
             hash = <<"hash">>}.

%% The path's last segment.
file_name(I) ->
    Path = <<"/files/", (integer_to_binary(I))/binary, "/upload.bin">>,
    lists:last(binary:split(Path, <<"/">>, [global])).

%% I in 32 lower-case hex digits.
uuid(I) -> iolist_to_binary(io_lib:format("~32.16.0b", [I])).
