-- | What a task does once it runs, the same whichever way the Haskell contestants spawn it:
-- sleeps and fake I/O on GHC's timer, yielding, and the two sides of a pingpong pair
-- (docs/PROTOCOL.md §4).
{-# LANGUAGE BangPatterns #-}

module Work
  ( sleepMs
  , fakeIO
  , yieldTimes
  , pinger
  , ponger
  ) where

import Control.Concurrent (threadDelay, yield)
import Control.Concurrent.MVar (MVar, putMVar, takeMVar)
import Control.Monad (replicateM_)

-- | A sleep of @ms@ milliseconds on GHC's timer (the I/O manager's timeouts).
sleepMs :: Int -> IO ()
sleepMs ms = threadDelay (ms * 1000)

-- | One fake I/O op of @ms@ milliseconds, a sleep; yields 1, the op that completed, so that
-- a request's checksum counts the ops it really waited for.
fakeIO :: Int -> IO Int
fakeIO ms = 1 <$ sleepMs ms

-- | Yields to the scheduler @n@ times; returns how many times it did.
yieldTimes :: Int -> IO Int
yieldTimes n = go 0
  where
    go !done
      | done == n = pure done
      | otherwise = yield >> go (done + 1)

-- | One side of a pair: sends the ball on @ping@ and waits for it on @pong@, @rounds@ times;
-- returns the round trips completed. An 'MVar' is GHC's one-place channel.
pinger :: MVar Int -> MVar Int -> Int -> IO Int
pinger ping pong rounds = go 0
  where
    go !trips
      | trips == rounds = pure trips
      | otherwise = putMVar ping trips >> takeMVar pong >> go (trips + 1)

-- | The other side: returns every ball it receives, @rounds@ times.
ponger :: MVar Int -> MVar Int -> Int -> IO ()
ponger ping pong rounds = replicateM_ rounds (takeMVar ping >>= putMVar pong)
