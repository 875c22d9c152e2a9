-- | One doxbee "upload" request (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md §4),
-- shared by the Haskell contestants so that each one only says how requests are started and
-- joined: the synchronous work between the fake I/O steps, which is the same whatever runs
-- the request.
module Doxbee (upload) where

import Control.Exception (evaluate)
import Data.Text (Text)
import qualified Data.Text as Text
import Data.Time.Clock.POSIX (POSIXTime, getPOSIXTime)
import Numeric (showHex)
import Work (Transaction, begin, completed, keepAlive)

-- | Step 1: the blob and the transaction.
data Begun = Begun !Text !Transaction

-- | Step 4: the version record (the lookup of step 3 never finds the file): user id,
-- creation time, blob id, creator, previous version (none) and hash.
data Version = Version !Int !POSIXTime !Int !Text !(Maybe Int) !Text

-- | Step 6: the file name (last path segment) and uuid of the "create file" query.
data FileQuery = FileQuery !Text !Text

-- | Request @i@, where @io tx step@ is one fake I/O op of the runtime in transaction @tx@
-- (its params: the step number), finished before the next step starts. Returns the I/O ops
-- that really completed (7). Each value is built in full at its step ('evaluate' and the
-- strict fields), not left as a thunk.
upload :: (Transaction -> Int -> IO ()) -> Int -> IO Int
upload io i = do
  tx <- begin i
  begun <- evaluate (Begun (Text.pack ("blob-" ++ show i)) tx)
  io tx 2 -- put the blob
  io tx 3 -- look the file up
  now <- getPOSIXTime
  version <- evaluate (Version i now i (Text.pack ("user-" ++ show i)) Nothing (Text.pack "hash"))
  io tx 5 -- insert the version
  let path = Text.pack ("/files/" ++ show i ++ "/upload.bin")
  query <- evaluate (FileQuery (last (Text.splitOn (Text.pack "/") path)) (uuid i))
  io tx 6 -- execute the create-file query
  io tx 7 -- insert the file-version link
  io tx 8 -- update the file's current version
  io tx 9 -- commit
  -- The values live until the request ends, as in the original's closures.
  keepAlive (begun, version, query)
  completed tx

-- | @i@ as 32 hex digits.
uuid :: Int -> Text
uuid i = Text.justifyRight 32 '0' (Text.pack (showHex i ""))
