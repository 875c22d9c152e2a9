-- | haskell-forkio: GHC's own lightweight threads with nothing on top, the baseline for the
-- libraries built on them: 'forkIO' per task, an 'MVar' per result, 'threadDelay' for sleeps
-- and fake I/O, 'MVar's as channels, 'yield'; the @network@ package's sockets, a thread per
-- connection, for echo and connections.
{-# LANGUAGE BangPatterns #-}
{-# LANGUAGE LambdaCase #-}

module Main (main) where

import Control.Concurrent (forkIO)
import Control.Concurrent.MVar (MVar, newEmptyMVar, putMVar, readMVar, takeMVar)
import Control.Monad (foldM, forM_, replicateM, replicateM_, void)
import Doxbee (upload)
import Protocol
import Sockets
import Timer (sleepInSequence)
import Work

main :: IO ()
main = runContestant $ \case
  Spawn tasks -> forEach tasks pure
  Sleep tasks delayMs -> forEach tasks (<$ sleepMs delayMs)
  Timer stepUs totalMs -> sleepInSequence stepUs totalMs
  Doxbee requests ioMs -> forEach requests (upload (fakeIO ioMs))
  Parallel requests fanout ioMs -> forEach requests (const (request fanout ioMs))
  Skynet size -> checksum <$> skynet 0 size
  Pingpong pairs rounds -> forEach pairs (const (pair rounds))
  Chain len -> checksum <$> chain len
  Yield tasks yields -> forEach tasks (const (yieldTimes yields))
  Echo conns rounds bytes -> echo conns rounds bytes
  Connections conns -> connections conns

-- | Task @i@ for i = 0 … n − 1, each in a thread of its own; the checksum is the sum of
-- their results.
forEach :: Int -> (Int -> IO Int) -> IO Outcome
forEach n task = checksum <$> joinAll [spawn (task i) | i <- [0 .. n - 1]]

-- | Forks a thread for @task@; its result arrives in the returned 'MVar'.
spawn :: IO a -> IO (MVar a)
spawn task = do
  result <- newEmptyMVar
  _ <- forkIO (task >>= (putMVar result $!))
  pure result

-- | Starts every task, then waits for each in turn and sums their results.
joinAll :: [IO (MVar Int)] -> IO Int
joinAll starts = sumAll =<< sequence starts

-- | Waits for each task in turn and sums their results.
sumAll :: [MVar Int] -> IO Int
sumAll = foldM (\ !total result -> (total +) <$> takeMVar result) 0

-- | A parallel request: @fanout@ fake I/O ops at once (ops 0 … fanout − 1), each in a thread
-- of its own, joined, then the commit (op fanout); returns the ops its transaction completed.
request :: Int -> Int -> IO Int
request fanout ioMs = do
  tx <- begin fanout
  mapM_ takeMVar =<< mapM (spawn . fakeIO ioMs tx) [0 .. fanout - 1]
  fakeIO ioMs tx fanout
  completed tx

-- | A node of the tree: a leaf returns its number; an inner node forks its 10 children, which
-- all report to the node's one 'MVar', and sums what it receives.
skynet :: Int -> Int -> IO Int
skynet num 1 = pure num
skynet num size = do
  results <- newEmptyMVar
  let child = size `quot` 10
  forM_ [0 .. 9] $ \k -> forkIO (skynet (num + k * child) child >>= (putMVar results $!))
  sum <$> replicateM 10 (takeMVar results)

-- | A pingpong pair: the ponger in a thread of its own, the pinger in this one; returns the
-- pinger's round trips.
pair :: Int -> IO Int
pair rounds = do
  ping <- newEmptyMVar
  pong <- newEmptyMVar
  _ <- forkIO (ponger ping pong rounds)
  pinger ping pong rounds

-- | Task 1 is started with the sum 0; task i adds i to the sum it was handed, forks task
-- i + 1 with the new sum and ends, and so on; the last puts the sum in the 'MVar' the calling
-- task waits on.
chain :: Int -> IO Int
chain len = do
  done <- newEmptyMVar
  let link i handed
        | i == len = putMVar done $! sum'
        | otherwise = void (forkIO (link (i + 1) $! sum'))
        where
          sum' = handed + i
  void (forkIO (link 1 0))
  takeMVar done

-- | echo: the acceptor in a thread of its own forks a thread per connection it accepts; the
-- clients, a thread each, are joined, then every server thread.
echo :: Int -> Int -> Int -> IO Outcome
echo conns rounds bytes = do
  (listener, address) <- listenLocal conns
  acceptor <- spawn (acceptEach listener conns (spawn . echoServer))
  total <- joinAll [spawn (echoClient address rounds bytes c) | c <- [0 .. conns - 1]]
  mapM_ takeMVar =<< takeMVar acceptor
  pure (checksum total)

-- | connections: as echo, and every client puts () in the one @connected@ 'MVar' once it is
-- connected, which this thread takes once per client; once the acceptor has also accepted
-- every connection (a thread forked for each), it fills @go@, which every client waits on
-- with 'readMVar' (one 'putMVar' wakes all its readers).
connections :: Int -> IO Outcome
connections conns = do
  (listener, address) <- listenLocal conns
  connected <- newEmptyMVar
  go <- newEmptyMVar
  acceptor <- spawn (acceptEach listener conns (spawn . holdServer))
  clients <-
    mapM (spawn . holdClient address (putMVar connected ()) (readMVar go)) [0 .. conns - 1]
  replicateM_ conns (takeMVar connected)
  servers <- takeMVar acceptor
  putMVar go ()
  total <- sumAll clients
  mapM_ takeMVar servers
  pure (checksum total)
