-- | One doxbee "upload" request (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md §4),
-- shared by the Haskell contestants so that each one only says how requests are started and
-- joined: the synchronous work between the fake I/O steps, which is the same whatever runs
-- the request.
{-# LANGUAGE MagicHash #-}
{-# LANGUAGE UnboxedTuples #-}

module Doxbee (upload) where

import Control.Exception (evaluate)
import Data.Text (Text)
import qualified Data.Text as Text
import Data.Time.Clock.POSIX (POSIXTime, getPOSIXTime)
import GHC.Exts (touch#)
import GHC.IO (IO (..))
import Numeric (showHex)

-- | Step 1: the blob and the transaction.
data Begun = Begun !Text !Int

-- | Step 4: the version record (the lookup of step 3 never finds the file): user id,
-- creation time, blob id, creator, previous version (none) and hash.
data Version = Version !Int !POSIXTime !Int !Text !(Maybe Int) !Text

-- | Step 6: the file name (last path segment) and uuid of the "create file" query.
data FileQuery = FileQuery !Text !Text

-- | Request @i@, where @io@ is one fake I/O op of the runtime, finished before the next step
-- starts, that yields 1. Returns the sum, the I/O ops that really completed (7). Each value
-- is built in full at its step ('evaluate' and the strict fields), not left as a thunk.
upload :: IO Int -> Int -> IO Int
upload io i = do
  begun <- evaluate (Begun (Text.pack ("blob-" ++ show i)) i)
  put <- io -- put the blob
  lookUp <- io -- look the file up
  now <- getPOSIXTime
  version <- evaluate (Version i now i (Text.pack ("user-" ++ show i)) Nothing (Text.pack "hash"))
  insert <- io -- insert the version
  let path = Text.pack ("/files/" ++ show i ++ "/upload.bin")
  query <- evaluate (FileQuery (last (Text.splitOn (Text.pack "/") path)) (uuid i))
  create <- io -- execute the create-file query
  link <- io -- insert the file-version link
  update <- io -- update the file's current version
  commit <- io -- commit
  -- The values live until the request ends, as in the original's closures.
  keepAlive (begun, version, query)
  pure $! put + lookUp + insert + create + link + update + commit

-- | @i@ as 32 hex digits.
uuid :: Int -> Text
uuid i = Text.justifyRight 32 '0' (Text.pack (showHex i ""))

-- | Keeps a value reachable up to this point of the request.
keepAlive :: a -> IO ()
keepAlive x = IO (\s -> (# touch# x s, () #))
