// The socket scenarios (docs/PROTOCOL.md §4): echo, request/response rounds over TCP on
// 127.0.0.1, and connections, every pair held open at once. Go's net package: a listener,
// an acceptor goroutine that serves each connection on a goroutine of its own, and a
// goroutine per client; every read and write blocks its goroutine and parks it on the
// runtime's netpoller (epoll), as a Go server is written. Connections keep Go's defaults:
// TCP_NODELAY on (what the protocol asks for both ends) and TCP keep-alive every 15 s.

package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
)

// echoBuffer is what a server reads at most at once: 64 KiB.
const echoBuffer = 64 << 10

// fail ends the process on a socket error: a failed run, never a wrong checksum.
func fail(what string, err error) {
	fmt.Fprintf(os.Stderr, "go-contestant: %s: %v\n", what, err)
	os.Exit(1)
}

// patternByte is the byte client c sends in round r: (c + r) mod 255 + 1, never 0.
func patternByte(c, r int) byte {
	return byte((c+r)%255 + 1)
}

// listen opens the listener on 127.0.0.1, an ephemeral port. net.Listen takes no backlog:
// Go passes the kernel's net.core.somaxconn, the cap that a backlog of `connections` gets.
func listen() *net.TCPListener {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		fail("listen", err)
	}
	return ln
}

// acceptAll accepts n connections on its own goroutine and serves each with serve on a
// goroutine of its own; the listener is closed once all are accepted. accepted is done
// when the last server goroutine is started, served when every server has returned.
func acceptAll(ln *net.TCPListener, n int, serve func(*net.TCPConn)) (accepted, served *sync.WaitGroup) {
	accepted, served = &sync.WaitGroup{}, &sync.WaitGroup{}
	accepted.Add(1)
	go func() {
		defer accepted.Done()
		for i := 0; i < n; i++ {
			// TCP_NODELAY is already set: Go sets it on every TCP connection it accepts or
			// dials (net.TCPConn.SetNoDelay's default), so a Go server never sets it itself.
			conn, err := ln.AcceptTCP()
			if err != nil {
				fail("accept", err)
			}
			served.Add(1)
			go func() {
				defer served.Done()
				serve(conn)
			}()
		}
		ln.Close()
	}()
	return accepted, served
}

// dial connects a client to the listener; TCP_NODELAY is set, Go's default.
func dial(addr *net.TCPAddr) *net.TCPConn {
	conn, err := net.DialTCP("tcp", nil, addr)
	if err != nil {
		fail("connect", err)
	}
	return conn
}

// echoServer writes back what each read brings until the client closes its end.
func echoServer(conn *net.TCPConn) {
	defer conn.Close()
	buf := make([]byte, echoBuffer)
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			if _, werr := conn.Write(buf[:n]); werr != nil {
				fail("server write", werr)
			}
		}
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			fail("server read", err)
		}
	}
}

// echoClient plays client c's rounds: one write of `bytes` bytes of b(c, r), then reads
// until all of them are back, adding up every byte received. It returns that sum.
func echoClient(addr *net.TCPAddr, c, rounds, bytes int) int {
	conn := dial(addr)
	defer conn.Close()
	out, in := make([]byte, bytes), make([]byte, bytes)
	sum := 0
	for r := 0; r < rounds; r++ {
		b := patternByte(c, r)
		for k := range out {
			out[k] = b
		}
		if _, err := conn.Write(out); err != nil {
			fail("client write", err)
		}
		if _, err := io.ReadFull(conn, in); err != nil {
			fail("client read", err)
		}
		for _, v := range in {
			sum += int(v)
		}
	}
	return sum
}

func echo(connections, rounds, bytes int) int {
	ln := listen()
	addr := ln.Addr().(*net.TCPAddr)
	accepted, served := acceptAll(ln, connections, echoServer)
	sum := spawnSum(connections, func(c int) int { return echoClient(addr, c, rounds, bytes) })
	accepted.Wait()
	served.Wait()
	return sum
}

// holdServer waits in a read for the client's one byte, writes it back, then waits for
// the end of the stream and closes.
func holdServer(conn *net.TCPConn) {
	defer conn.Close()
	one := make([]byte, 1)
	if _, err := io.ReadFull(conn, one); err != nil {
		fail("server read", err)
	}
	if _, err := conn.Write(one); err != nil {
		fail("server write", err)
	}
	if n, err := conn.Read(one); n != 0 || !errors.Is(err, io.EOF) {
		fail("server read", fmt.Errorf("expected the end of the stream, got %d bytes, %v", n, err))
	}
}

// connectionsHeld opens every pair; each client tells the main goroutine it is connected
// (a WaitGroup) and waits for the one "go" (a channel closed: a broadcast), then sends its
// byte b(c, 0), reads it back, closes and returns it.
func connectionsHeld(connections int) int {
	ln := listen()
	addr := ln.Addr().(*net.TCPAddr)
	accepted, served := acceptAll(ln, connections, holdServer)
	var connected sync.WaitGroup
	connected.Add(connections)
	start := make(chan struct{})
	total := make(chan int)
	go func() {
		total <- spawnSum(connections, func(c int) int {
			conn := dial(addr)
			defer conn.Close()
			connected.Done()
			<-start
			one := []byte{patternByte(c, 0)}
			if _, err := conn.Write(one); err != nil {
				fail("client write", err)
			}
			if _, err := io.ReadFull(conn, one); err != nil {
				fail("client read", err)
			}
			return int(one[0])
		})
	}()
	connected.Wait()
	accepted.Wait()
	close(start)
	sum := <-total
	served.Wait()
	return sum
}
