-- | Protocol plumbing shared by the Haskell contestants (docs/PROTOCOL.md, version 2), so
-- that each contestant's Main is only its scenarios: reads the command line, runs the
-- unmeasured warm-up iterations, then the M measured ones, timing each with GHC's monotonic
-- clock and the process CPU clock ('getCPUTime': every thread, picoseconds, read from
-- CLOCK_PROCESS_CPUTIME_ID) and printing its JSON line, and turns 'notImplemented' into
-- exit status 69.
module Protocol
  ( Scenario (..)
  , Outcome (..)
  , checksum
  , notImplemented
  , runContestant
  ) where

import Control.Concurrent (runInUnboundThread)
import Control.Exception (Exception, evaluate, handle, throwIO)
import Control.Monad (replicateM_)
import Data.Char (isDigit)
import Data.List (intercalate, stripPrefix)
import Data.Maybe (fromMaybe)
import Data.Word (Word64)
import GHC.Clock (getMonotonicTimeNSec)
import System.CPUTime (getCPUTime)
import System.Environment (getArgs, getProgName)
import System.Exit (ExitCode (..), exitWith)
import System.IO (hFlush, hPutStrLn, stderr, stdout)

-- | A scenario with every parameter fixed (docs/PROTOCOL.md §4), in catalogue order.
data Scenario
  = Spawn Int -- ^ tasks
  | Sleep Int Int -- ^ tasks, delay in ms
  | Timer Int Int -- ^ step in µs, total in ms
  | Doxbee Int Int -- ^ requests, I/O in ms
  | Parallel Int Int Int -- ^ requests, fan-out, I/O in ms
  | Skynet Int -- ^ leaves of the tree (size)
  | Pingpong Int Int -- ^ pairs, rounds
  | Chain Int -- ^ length
  | Yield Int Int -- ^ tasks, yields per task
  | Echo Int Int Int -- ^ connections, rounds, bytes
  | Connections Int -- ^ connections

-- | What one iteration produced. 'runContestant' evaluates it before it stops the clock, so
-- a sum over the tasks' results is computed inside the measured time.
data Outcome = Outcome
  { outcomeChecksum :: !Int
  , outcomeExtra :: ![(String, Word64)]
  -- ^ Named figures for the @extra@ object (the timer's oversleep percentiles).
  }

-- | An outcome with no extra figures.
checksum :: Int -> Outcome
checksum sum' = Outcome sum' []

-- | Thrown by a contestant for a scenario its runtime cannot express.
newtype NotImplemented = NotImplemented String
  deriving (Show)

instance Exception NotImplemented

-- | Declines the scenario: the program says why on stderr and exits 69.
notImplemented :: String -> IO a
notImplemented = throwIO . NotImplemented

-- | Runs the protocol around one iteration of a scenario, then exits.
--
-- Every iteration runs in an unbound thread: @main@ is a bound (OS) thread in the threaded
-- RTS, and every wake-up of a bound thread is an OS context switch, which would be charged to
-- the runtime under test; the tasks of the scenarios are GHC's lightweight threads.
runContestant :: (Scenario -> IO Outcome) -> IO ()
runContestant iteration = do
  Invocation name scenario warmUp warmups iterations <-
    either (failWith 2) pure . parseInvocation =<< getArgs
  let once s = runInUnboundThread (iteration s >>= finish)
      measured = do
        cpuStart <- getCPUTime
        start <- getMonotonicTimeNSec
        outcome <- once scenario
        end <- getMonotonicTimeNSec
        cpuEnd <- getCPUTime
        putStrLn (resultLine (end - start) ((cpuEnd - cpuStart) `div` 1000) outcome)
        hFlush stdout -- before the next iteration starts
      decline (NotImplemented reason) = failWith 69 (name ++ " not implemented: " ++ reason)
  handle decline $ do
    replicateM_ warmups (once warmUp)
    replicateM_ iterations measured

-- | Evaluates an outcome, extras included, so that no work is left for after the clock stops.
finish :: Outcome -> IO Outcome
finish outcome = do
  done <- evaluate outcome
  mapM_ (evaluate . snd) (outcomeExtra done)
  pure done

failWith :: Int -> String -> IO a
failWith status message = do
  program <- getProgName
  hPutStrLn stderr (program ++ ": " ++ message)
  exitWith (ExitFailure status)

-- | @{"elapsed_ns":…,"checksum":…,"extra":{…}}@
resultLine :: Word64 -> Integer -> Outcome -> String
resultLine elapsed cpu (Outcome sum' extra) =
  "{\"elapsed_ns\":" ++ show elapsed ++ ",\"cpu_ns\":" ++ show cpu
    ++ ",\"checksum\":" ++ show sum'
    ++ ",\"extra\":{" ++ intercalate "," [show key ++ ":" ++ show value | (key, value) <- extra]
    ++ "}}"

-- | A command line understood.
data Invocation = Invocation
  { _name :: String
  , _measured :: Scenario -- ^ the measured iterations' scenario
  , _warmUp :: Scenario -- ^ the warm-up iterations': the same, but for @--warmup-<param>@s
  , _warmups :: Int -- ^ K
  , _iterations :: Int -- ^ M, at least 1
  }

-- | @<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
-- --iterations M@. The harness passes every parameter; a missing one is an error rather than
-- a default copied from the catalogue. The harness also checks the values' ranges.
parseInvocation :: [String] -> Either String Invocation
parseInvocation [] = Left "missing scenario (spawn, sleep, timer, ...)"
parseInvocation (name : rest) = do
  Params names build <- maybe (Left ("unknown scenario '" ++ name ++ "'")) Right (params name)
  flags <- pairs rest
  let known = "inner-warmup" : "iterations" : names ++ map (warmupPrefix ++) names
  case [flag | (flag, _) <- flags, flag `notElem` known] of
    flag : _ -> Left ("unknown parameter --" ++ flag ++ " for " ++ name)
    [] -> pure ()
  let missing = name ++ " needs " ++ unwords ["--" ++ n | n <- names]
      -- A warm-up value is the parameter's last occurrence, so it wins over the measured one.
      warmUpFlags = flags ++ [(n, v) | (flag, v) <- flags, Just n <- [stripPrefix warmupPrefix flag]]
  scenario <- maybe (Left missing) Right (build flags)
  warmUp <- maybe (Left missing) Right (build warmUpFlags)
  iterations <- case latest "iterations" flags of
    Nothing -> Left (name ++ " needs --iterations")
    Just 0 -> Left "--iterations must be at least 1"
    Just m -> Right m
  pure (Invocation name scenario warmUp (fromMaybe 0 (latest "inner-warmup" flags)) iterations)

-- | @--warmup-<param> V@ gives a parameter the value V in the warm-up iterations only.
warmupPrefix :: String
warmupPrefix = "warmup-"

-- | The value of a flag's last occurrence, as on most command lines.
latest :: String -> [(String, Int)] -> Maybe Int
latest flag = lookup flag . reverse

pairs :: [String] -> Either String [(String, Int)]
pairs (('-' : '-' : flag) : value : rest)
  | not (null value) && all isDigit value = ((flag, read value) :) <$> pairs rest
  | otherwise = Left ("--" ++ flag ++ ": '" ++ value ++ "' is not a whole number")
pairs [] = Right []
pairs ['-' : '-' : flag] = Left ("--" ++ flag ++ " needs a value")
pairs (word : _) = Left ("unexpected argument '" ++ word ++ "'")

-- | The parameters of a scenario, read by name; it knows the names it reads so that an
-- unknown flag is refused instead of ignored.
data Params a = Params [String] ([(String, Int)] -> Maybe a)

instance Functor Params where
  fmap f (Params names build) = Params names (fmap f . build)

instance Applicative Params where
  pure x = Params [] (const (Just x))
  Params names build <*> Params names' build' =
    Params (names ++ names') (\values -> build values <*> build' values)

param :: String -> Params Int
param name = Params [name] (latest name)

params :: String -> Maybe (Params Scenario)
params name = case name of
  "spawn" -> Just $ Spawn <$> param "tasks"
  "sleep" -> Just $ Sleep <$> param "tasks" <*> param "delay-ms"
  "timer" -> Just $ Timer <$> param "step-us" <*> param "total-ms"
  "doxbee" -> Just $ Doxbee <$> param "requests" <*> param "io-ms"
  "parallel" -> Just $ Parallel <$> param "requests" <*> param "fanout" <*> param "io-ms"
  "skynet" -> Just $ Skynet <$> param "size"
  "pingpong" -> Just $ Pingpong <$> param "pairs" <*> param "rounds"
  "chain" -> Just $ Chain <$> param "length"
  "yield" -> Just $ Yield <$> param "tasks" <*> param "yields"
  "echo" -> Just $ Echo <$> param "connections" <*> param "rounds" <*> param "bytes"
  "connections" -> Just $ Connections <$> param "connections"
  _ -> Nothing
