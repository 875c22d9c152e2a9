-- | The timer scenario (GHC #1523, "Constant overhead of threadDelay"): one task sleeps
-- @step@ µs with 'threadDelay', again and again, timing every sleep; the outcome is the number
-- of sleeps and how much later than asked they woke (docs/PROTOCOL.md §2, §4).
module Timer
  ( sleepCount
  , timedSleep
  , sleepInSequence
  , oversleep
  ) where

import Control.Concurrent (threadDelay)
import Control.Monad (replicateM)
import Data.List (sort)
import Data.Word (Word64)
import GHC.Clock (getMonotonicTimeNSec)
import Protocol (Outcome (..))

-- | Sleeps in a run: total-ms · 1000 / step-us (integer division).
sleepCount :: Int -> Int -> Int
sleepCount stepUs totalMs = totalMs * 1000 `quot` stepUs

-- | One sleep of @stepUs@ µs on GHC's timer; returns how long it took, in ns.
timedSleep :: Int -> IO Word64
timedSleep stepUs = do
  start <- getMonotonicTimeNSec
  threadDelay stepUs
  end <- getMonotonicTimeNSec
  pure (end - start)

-- | The whole scenario in the calling thread.
sleepInSequence :: Int -> Int -> IO Outcome
sleepInSequence stepUs totalMs =
  oversleep stepUs <$> replicateM (sleepCount stepUs totalMs) (timedSleep stepUs)

-- | Checksum = number of sleeps; extras = nearest-rank p50, p99 and max of
-- (slept − step), clamped at 0, in ns.
oversleep :: Int -> [Word64] -> Outcome
oversleep stepUs slept =
  Outcome
    (length slept)
    [("oversleep_p50_ns", rank 0.50), ("oversleep_p99_ns", rank 0.99), ("oversleep_max_ns", rank 1)]
  where
    step = fromIntegral stepUs * 1000
    over = sort [if s > step then s - step else 0 | s <- slept]
    count = length over
    rank :: Double -> Word64
    rank q
      | count == 0 = 0
      | otherwise = over !! (max 1 (min count (ceiling (q * fromIntegral count))) - 1)
