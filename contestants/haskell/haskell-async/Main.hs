-- | haskell-async: the async package, the usual way to run and join GHC threads with
-- exceptions propagated: 'mapConcurrently' and 'replicateConcurrently' spawn and join tasks
-- (mapConcurrently is what composewell/concurrency-benchmarks measured), 'concurrently' runs a
-- pingpong pair, 'async' starts a chain link; 'threadDelay' for sleeps and fake I/O, 'MVar's
-- as channels, 'yield'; the @network@ package's sockets, an 'async' per connection, for echo
-- and connections, whose signals are STM 'TVar's (async's own machinery is STM).
{-# LANGUAGE LambdaCase #-}

module Main (main) where

import Control.Concurrent.Async (async, concurrently, mapConcurrently, mapConcurrently_, wait)
import Control.Concurrent.MVar (newEmptyMVar, putMVar, takeMVar)
import Control.Concurrent.STM (atomically, check, modifyTVar', newTVarIO, readTVar, writeTVar)
import Control.Monad (void)
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

-- | Task @i@ for i = 0 … n − 1, all run concurrently and joined; the checksum is the sum of
-- their results.
forEach :: Int -> (Int -> IO Int) -> IO Outcome
forEach n task = checksum . sum <$> mapConcurrently task [0 .. n - 1]

-- | A parallel request: @fanout@ fake I/O ops at once (ops 0 … fanout − 1), joined, then the
-- commit (op fanout); returns the ops its transaction completed.
request :: Int -> Int -> IO Int
request fanout ioMs = do
  tx <- begin fanout
  mapConcurrently_ (fakeIO ioMs tx) [0 .. fanout - 1]
  fakeIO ioMs tx fanout
  completed tx

-- | A node of the tree: a leaf returns its number; an inner node runs its 10 children
-- concurrently, joins them and sums their results.
skynet :: Int -> Int -> IO Int
skynet num 1 = pure num
skynet num size = do
  let child = size `quot` 10
  sums <- mapConcurrently (\k -> skynet (num + k * child) child) [0 .. 9]
  pure $! sum sums

-- | A pingpong pair, pinger and ponger run concurrently; returns the pinger's round trips.
pair :: Int -> IO Int
pair rounds = do
  ping <- newEmptyMVar
  pong <- newEmptyMVar
  fst <$> concurrently (pinger ping pong rounds) (ponger ping pong rounds)

-- | Task 1 is started with the sum 0; task i adds i to the sum it was handed, starts task
-- i + 1 with the new sum and ends, and so on; the last puts the sum in the 'MVar' the calling
-- task waits on. A link does not wait for the next (the scenario's shape), so its 'Async'
-- handle is let go.
chain :: Int -> IO Int
chain len = do
  done <- newEmptyMVar
  let link i handed
        | i == len = putMVar done $! sum'
        | otherwise = void (async (link (i + 1) $! sum'))
        where
          sum' = handed + i
  void (async (link 1 0))
  takeMVar done

-- | echo: the clients ('mapConcurrently') and the acceptor run concurrently; the acceptor
-- starts an 'async' per connection it accepts and then waits for them all.
echo :: Int -> Int -> Int -> IO Outcome
echo conns rounds bytes = do
  (listener, address) <- listenLocal conns
  (sums, ()) <-
    concurrently
      (mapConcurrently (echoClient address rounds bytes) [0 .. conns - 1])
      (mapM_ wait =<< acceptEach listener conns (async . echoServer))
  pure (checksum (sum sums))

-- | connections: as echo; every client adds one to the @connected@ 'TVar' once it is
-- connected. This thread waits until that counts every client and until the acceptor has
-- returned every server's 'Async'; then it sets @go@, which every client waits for in an STM
-- transaction ('check' retries until it is set), and waits for the clients and the servers.
connections :: Int -> IO Outcome
connections conns = do
  (listener, address) <- listenLocal conns
  connected <- newTVarIO (0 :: Int)
  go <- newTVarIO False
  let client =
        holdClient address
          (atomically (modifyTVar' connected (+ 1)))
          (atomically (readTVar go >>= check))
  acceptor <- async (acceptEach listener conns (async . holdServer))
  clients <- async (mapConcurrently client [0 .. conns - 1])
  atomically (readTVar connected >>= check . (== conns))
  servers <- wait acceptor
  atomically (writeTVar go True)
  sums <- wait clients
  mapM_ wait servers
  pure (checksum (sum sums))
