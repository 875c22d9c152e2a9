-- | haskell-streamly: streamly's declarative concurrency on GHC threads. Every task is an
-- action of a stream that a concurrent combinator ('Stream.parMapM', 'Stream.parConcatIterate')
-- evaluates with unlimited threads and buffer, as composewell/concurrency-benchmarks ran its
-- async and ahead streams; 'threadDelay' for sleeps and fake I/O, 'yield'.
--
-- UNVERIFIED: written from the documented API of streamly 0.10 (Streamly.Data.Stream.Prelude)
-- and streamly-core 0.2 (Streamly.Data.Fold), and never compiled: Debian has no streamly
-- package and Hackage is out of reach where this was written.
{-# LANGUAGE LambdaCase #-}

module Main (main) where

import Data.Word (Word64)
import Doxbee (upload)
import Protocol
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
