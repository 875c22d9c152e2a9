-- | haskell-streamly: streamly's declarative concurrency on GHC threads. Every task is an
-- action of a stream that a concurrent combinator ('Stream.parMapM', 'Stream.parConcatIterate')
-- evaluates with unlimited threads and buffer, as composewell/concurrency-benchmarks ran its
-- async and ahead streams; 'threadDelay' for sleeps and fake I/O, 'yield'; the @network@
-- package's sockets for echo and connections, a stream of accepted connections whose server
-- tasks 'Stream.parMapM' runs.
--
-- UNVERIFIED: written from the documented API of streamly 0.10 (Streamly.Data.Stream.Prelude)
-- and streamly-core 0.2 (Streamly.Data.Fold), and never compiled: Debian has no streamly
-- package and Hackage is out of reach where this was written. (It was type-checked and run,
-- with its sockets, against a stand-in for the streamly calls it uses, written from their
-- documented signatures: a forkIO per parMapM element, not streamly's channels.)
{-# LANGUAGE LambdaCase #-}

module Main (main) where

import Control.Concurrent.STM (atomically, check, modifyTVar', newTVarIO, readTVar, writeTVar)
import Data.Word (Word64)
import Doxbee (upload)
import Protocol
import Sockets
import qualified Streamly.Data.Fold as Fold
import Streamly.Data.Stream.Prelude (Config, Stream)
import qualified Streamly.Data.Stream.Prelude as Stream
import Timer (oversleep, sleepCount, timedSleep)
import Work (begin, completed, fakeIO, sleepMs, yieldTimes)

main :: IO ()
main = runContestant $ \case
  Spawn tasks -> forEach tasks pure
  Sleep tasks delayMs -> forEach tasks (<$ sleepMs delayMs)
  Timer stepUs totalMs -> oversleep stepUs <$> Stream.fold Fold.toList (sleeps stepUs totalMs)
  Doxbee requests ioMs -> forEach requests (upload (fakeIO ioMs))
  Parallel requests fanout ioMs -> forEach requests (const (request fanout ioMs))
  Skynet size -> checksum <$> skynet 0 size
  Pingpong _ _ ->
    notImplemented
      "streamly has no channel between running tasks: its channels only carry a stream's \
      \results to its consumer, so a pair would be forkIO and MVar, i.e. haskell-forkio"
  Chain len -> checksum <$> chain len
  Yield tasks yields -> forEach tasks (const (yieldTimes yields))
  Echo conns rounds bytes -> echo conns rounds bytes
  Connections conns -> connections conns

-- | Task @i@ for i = 0 … n − 1, all run concurrently; the checksum is the sum of their
-- results.
forEach :: Int -> (Int -> IO Int) -> IO Outcome
forEach n task = checksum <$> concurrentSum task (upTo n)

-- | The timer scenario's sleeps, timed, one after another in a serial stream.
sleeps :: Int -> Int -> Stream IO Word64
sleeps stepUs totalMs = Stream.replicateM (sleepCount stepUs totalMs) (timedSleep stepUs)

-- | Runs @task@ on every element of the stream concurrently and sums the results.
concurrentSum :: (Int -> IO Int) -> Stream IO Int -> IO Int
concurrentSum task = Stream.fold Fold.sum . Stream.parMapM unlimited task

-- | No limit on threads or buffered results (as in the seed benchmark), and workers started
-- as fast as there are actions ('Stream.eager') rather than paced by the consumer, so that
-- every task is under way at once, as the scenarios require.
unlimited :: Config -> Config
unlimited = Stream.maxThreads (-1) . Stream.maxBuffer (-1) . Stream.eager True

-- | 0, 1 … n − 1
upTo :: Int -> Stream IO Int
upTo n = Stream.enumerateFromTo 0 (n - 1)

-- | A parallel request: @fanout@ fake I/O ops at once (ops 0 … fanout − 1), joined, then the
-- commit (op fanout); returns the ops its transaction completed.
request :: Int -> Int -> IO Int
request fanout ioMs = do
  tx <- begin fanout
  Stream.fold Fold.drain (Stream.parMapM unlimited (fakeIO ioMs tx) (upTo fanout))
  fakeIO ioMs tx fanout
  completed tx

-- | A node of the tree: a leaf returns its number; an inner node evaluates its 10 children
-- concurrently and sums their results.
skynet :: Int -> Int -> IO Int
skynet num 1 = pure num
skynet num size = concurrentSum (\k -> skynet (num + k * child) child) (upTo 10)
  where
    child = size `quot` 10

-- | Link @i@ is its number and the sum it was handed plus that number (link 1 is handed 0);
-- it yields link @i + 1@, handed its sum, for the same channel to run, up to the last. The
-- consumer (the calling task) sees every link and keeps the largest, the last one, whose sum
-- it returns.
chain :: Int -> IO Int
chain len = maybe 0 snd <$> Stream.fold Fold.maximum links
  where
    links = Stream.parConcatIterate unlimited next (Stream.fromPure (link 1 0))
    link i handed = (,) i $! handed + i
    next (i, sum')
      | i < len = Stream.fromPure (link (i + 1) sum')
      | otherwise = Stream.nil

-- | echo: the server side is the stream of accepted connections, each served by its own task
-- ('Stream.parMapM'), the client side a task per client; 'Stream.parList' runs both sides at
-- once and the sum folds the clients' sums (a server task yields 0). The fold ends when every
-- task has.
echo :: Int -> Int -> Int -> IO Outcome
echo conns rounds bytes = do
  (listener, address) <- listenLocal conns
  let servers = Stream.parMapM unlimited (serve echoServer) (accepted listener conns (pure ()))
      clients = Stream.parMapM unlimited (echoClient address rounds bytes) (upTo conns)
  checksum <$> Stream.fold Fold.sum (Stream.parList unlimited [servers, clients])

-- | connections: as echo, with a third stream, the one action that says go. streamly has no
-- latch of its own (its channels carry a stream's results to its consumer), so the signals
-- are STM 'TVar's, as in haskell-async: @ready@ counts the connected clients and, once, the
-- acceptor's end (every connection accepted and handed to 'Stream.parMapM'); @go@ is set when
-- it reaches connections + 1, and every client waits for it ('check' retries until it is
-- set).
connections :: Int -> IO Outcome
connections conns = do
  (listener, address) <- listenLocal conns
  ready <- newTVarIO (0 :: Int)
  go <- newTVarIO False
  let count = atomically (modifyTVar' ready (+ 1))
      servers = Stream.parMapM unlimited (serve holdServer) (accepted listener conns count)
      clients =
        Stream.parMapM unlimited
          (holdClient address count (atomically (readTVar go >>= check)))
          (upTo conns)
      sayGo = Stream.fromEffect $ do
        atomically (readTVar ready >>= check . (== conns + 1))
        atomically (writeTVar go True)
        pure 0
  checksum <$> Stream.fold Fold.sum (Stream.parList unlimited [sayGo, servers, clients])

-- | The acceptor: a serial stream of @n@ connections accepted one after another; once it has
-- them all it closes the listener and runs @done@.
accepted :: Socket -> Int -> IO () -> Stream IO Socket
accepted listener n done = Stream.unfoldrM next n
  where
    next 0 = Nothing <$ (close listener >> done)
    next k = (\connection -> Just (connection, k - 1)) <$> acceptConnection listener

-- | A server task, which yields 0 to the sum.
serve :: (Socket -> IO ()) -> Socket -> IO Int
serve server connection = 0 <$ server connection
