-- | What a task does once it runs, the same whichever way the Haskell contestants spawn it:
-- sleeps and fake I/O on GHC's timer, yielding, and the two sides of a pingpong pair
-- (docs/PROTOCOL.md §4).
{-# LANGUAGE BangPatterns #-}
{-# LANGUAGE MagicHash #-}
{-# LANGUAGE UnboxedTuples #-}

module Work
  ( sleepMs
  , Transaction
  , begin
  , fakeIO
  , completed
  , keepAlive
  , yieldTimes
  , pinger
  , ponger
  ) where

import Control.Concurrent (threadDelay, yield)
import Control.Concurrent.MVar (MVar, putMVar, takeMVar)
import Control.Exception (evaluate)
import Control.Monad (replicateM_)
import Data.IORef (IORef, atomicModifyIORef', newIORef, readIORef)
import GHC.Exts (touch#)
import GHC.IO (IO (..))

-- | A sleep of @ms@ milliseconds on GHC's timer (the I/O manager's timeouts).
sleepMs :: Int -> IO ()
sleepMs ms = threadDelay (ms * 1000)

-- | A request's transaction: its request number and the count of its fake I/O ops that
-- have completed, which ops running at once update atomically.
data Transaction = Transaction !Int !(IORef Int)

-- | One fake I/O op's query, as bluebird's fake database call makes one per call
-- (docs/PROTOCOL.md §4 "One fake I/O op"): its params and the transaction it runs in. The
-- params stay an object of their own ('NOUNPACK': GHC would otherwise unbox a one-field
-- record into the query).
data Query = Query {-# NOUNPACK #-} !QueryParams !Transaction

-- | A query's parameters: the op's index within its request.
data QueryParams = QueryParams !Int

-- | Begins request @i@'s transaction.
begin :: Int -> IO Transaction
begin i = Transaction i <$> newIORef 0

-- | One fake I/O op of @ms@ milliseconds in the transaction, op @index@ of its request: the
-- call makes a new query, built in full, reads its transaction and lets it go (GHC may
-- elide it, as V8 may the seed's); then a sleep on GHC's timer in the calling thread
-- (whose state is the op's completion), and the op counts in the transaction.
fakeIO :: Int -> Transaction -> Int -> IO ()
fakeIO ms tx index = do
  Query _ (Transaction _ ops) <- evaluate (Query (QueryParams index) tx)
  sleepMs ms
  atomicModifyIORef' ops (\n -> (n + 1, ()))

-- | The transaction's ops that have completed, so that a request's checksum counts the ops
-- it really waited for.
completed :: Transaction -> IO Int
completed (Transaction _ ops) = readIORef ops

-- | Keeps a value reachable up to this point.
keepAlive :: a -> IO ()
keepAlive x = IO (\s -> (# touch# x s, () #))

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
