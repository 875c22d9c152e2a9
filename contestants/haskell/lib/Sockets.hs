-- | What the socket scenarios' tasks do once they run (docs/PROTOCOL.md §4, echo and
-- connections), the same whichever way the Haskell contestants spawn them: GHC's @network@
-- package ('Network.Socket', and 'recv' / 'sendAll' of 'Network.Socket.ByteString'), whose
-- sockets are non-blocking and park a thread that would block on the RTS's I/O manager
-- (epoll), so a thread per connection is how a Haskell server is written.
{-# LANGUAGE BangPatterns #-}

module Sockets
  ( Socket
  , SockAddr
  , listenLocal
  , acceptEach
  , acceptConnection
  , close
  , echoServer
  , echoClient
  , holdServer
  , holdClient
  ) where

import Control.Monad (foldM, replicateM, unless)
import qualified Data.ByteString as ByteString
import Data.Word (Word8)
import Network.Socket
  ( Family (AF_INET)
  , SockAddr (SockAddrInet)
  , Socket
  , SocketOption (NoDelay)
  , SocketType (Stream)
  , accept
  , bind
  , close
  , connect
  , defaultProtocol
  , getSocketName
  , listen
  , setSocketOption
  , socket
  , tupleToHostAddress
  )
import Network.Socket.ByteString (recv, sendAll)

-- | A listener on 127.0.0.1, port 0 (an ephemeral port), with a backlog of @backlog@ (the
-- kernel caps it at net.core.somaxconn); and the address it got, for the clients.
listenLocal :: Int -> IO (Socket, SockAddr)
listenLocal backlog = do
  listener <- socket AF_INET Stream defaultProtocol
  bind listener (SockAddrInet 0 (tupleToHostAddress (127, 0, 0, 1)))
  listen listener backlog
  address <- getSocketName listener
  pure (listener, address)

-- | The acceptor: accepts @n@ connections one after another, hands each to @serve@ as it
-- arrives (which starts the connection's own task and returns its handle), then closes the
-- listener; returns the handles.
acceptEach :: Socket -> Int -> (Socket -> IO a) -> IO [a]
acceptEach listener n serve = do
  handles <- replicateM n (acceptConnection listener >>= serve)
  close listener
  pure handles

-- | Accepts one connection, TCP_NODELAY set.
acceptConnection :: Socket -> IO Socket
acceptConnection listener = do
  (connection, _) <- accept listener
  setSocketOption connection NoDelay 1
  pure connection

-- | A client's socket, connected to @address@, TCP_NODELAY set.
connectTo :: SockAddr -> IO Socket
connectTo address = do
  connection <- socket AF_INET Stream defaultProtocol
  setSocketOption connection NoDelay 1
  connect connection address
  pure connection

-- | echo's server task: reads what has arrived (up to 64 KiB), writes it all back, until the
-- read says end of stream; then closes.
echoServer :: Socket -> IO ()
echoServer connection = loop
  where
    loop = do
      chunk <- recv connection 65536
      if ByteString.null chunk
        then close connection
        else sendAll connection chunk >> loop

-- | echo's client @c@: connects, then for each round r writes @bytes@ bytes of value
-- b(c, r) in one write and reads until exactly @bytes@ bytes have come back, adding every byte
-- received; then closes and returns its sum.
echoClient :: SockAddr -> Int -> Int -> Int -> IO Int
echoClient address rounds bytes c = do
  connection <- connectTo address
  let oneRound !total r = do
        sendAll connection (ByteString.replicate bytes (byteOf c r))
        receive connection bytes total
  total <- foldM oneRound 0 [0 .. rounds - 1]
  close connection
  pure total

-- | Reads until exactly @remaining@ bytes have come, adding each to @total@.
receive :: Socket -> Int -> Int -> IO Int
receive connection = go
  where
    go 0 !total = pure total
    go remaining !total = do
      chunk <- recv connection (min remaining 65536)
      if ByteString.null chunk
        then ioError (userError "echo: the server closed the connection early")
        else
          go (remaining - ByteString.length chunk) $!
            ByteString.foldl' (\ !s byte -> s + fromIntegral byte) total chunk

-- | connections' server task: waits in a read for one byte (where the connection is held),
-- writes it back, waits for end of stream and closes.
holdServer :: Socket -> IO ()
holdServer connection = do
  byte <- recv connection 1
  unless (ByteString.null byte) $ do
    sendAll connection byte
    let awaitEnd = recv connection 1 >>= \rest -> unless (ByteString.null rest) awaitEnd
    awaitEnd
  close connection

-- | connections' client @c@: connects, runs @connected@ (tells the main task), runs
-- @awaitGo@ (waits for its "go"), writes the one byte b(c, 0), reads the one byte echoed,
-- closes and returns that byte.
holdClient :: SockAddr -> IO () -> IO () -> Int -> IO Int
holdClient address connected awaitGo c = do
  connection <- connectTo address
  connected
  awaitGo
  sendAll connection (ByteString.singleton (byteOf c 0))
  echoed <- recv connection 1
  close connection
  case ByteString.unpack echoed of
    [byte] -> pure (fromIntegral byte)
    _ -> ioError (userError "connections: the server closed the connection early")

-- | b(c, r) = (c + r) mod 255 + 1: every byte client @c@ sends in round @r@.
byteOf :: Int -> Int -> Word8
byteOf c r = fromIntegral ((c + r) `mod` 255 + 1)
