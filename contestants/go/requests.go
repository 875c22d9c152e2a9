// The bluebird request scenarios (docs/SEEDS.md#bluebird): doxbee, seven fake I/O steps in
// sequence per request, and parallel, a fan-out of fake I/O ops per request. Fake I/O is
// time.Sleep, Go's timer, in the request's goroutine.

package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
)

// transaction is a request's transaction: it counts the fake I/O ops completed in it.
type transaction struct {
	ops atomic.Int32
}

// query is one fake I/O op's query, as bluebird's fake database call makes one per call
// (docs/PROTOCOL.md §4 "One fake I/O op"): its params and the transaction it runs in.
type query struct {
	params *queryParams
	tx     *transaction
}

// queryParams are a query's parameters: the op's index within its request.
type queryParams struct {
	index int
}

// fakeIO is one fake I/O op of the transaction: the call is made with a new query for op
// index (a heap object as written; the compiler may keep it on the stack, as V8 may elide
// the seed's), which it reads and lets go at once; then time.Sleep in the calling
// goroutine, whose state is the op's completion, and the op counts in the transaction.
func (tx *transaction) fakeIO(index int, io time.Duration) {
	call(&query{params: &queryParams{index: index}, tx: tx}, io)
}

// call is the fake database call: nothing holds q once it has read its transaction.
func call(q *query, io time.Duration) {
	tx := q.tx
	time.Sleep(io)
	tx.ops.Add(1)
}

// done is the number of the transaction's ops that have completed.
func (tx *transaction) done() int {
	return int(tx.ops.Load())
}

// upload is what one doxbee request builds in its synchronous steps; it lives until the
// request ends, as in the original's closures.
type upload struct {
	blob    string
	tx      *transaction
	version version
	file    string
	uuid    string
}

// version is the version record of step 4.
type version struct {
	userID     int
	created    time.Time
	blobID     int
	creator    string
	previousID *int
	hash       string
}

func doxbee(requests int, io time.Duration) int {
	return spawnSum(requests, func(i int) int { return doxbeeRequest(i, io) })
}

// doxbeeRequest runs the steps of one upload in sequence and returns its fake I/O count.
// Each I/O op's params are its step number.
func doxbeeRequest(i int, io time.Duration) int {
	// 1. Create the blob and begin the transaction.
	u := upload{blob: fmt.Sprintf("blob-%d", i), tx: &transaction{}}
	u.tx.fakeIO(2, io) // put the blob
	u.tx.fakeIO(3, io) // look the file up: it never exists
	// 4. Build the version record.
	u.version = version{
		userID:     i,
		created:    time.Now(),
		blobID:     i,
		creator:    fmt.Sprintf("user-%d", i),
		previousID: nil, // the file is new
		hash:       "hash",
	}
	u.tx.fakeIO(5, io) // insert the version
	// 6. Name the file after the path's last segment, make its uuid, run the query.
	segments := strings.Split(fmt.Sprintf("/files/%d/upload.bin", i), "/")
	u.file, u.uuid = segments[len(segments)-1], fmt.Sprintf("%032x", i)
	u.tx.fakeIO(6, io)
	u.tx.fakeIO(7, io) // insert the file–version link
	u.tx.fakeIO(8, io) // update the file's current version
	u.tx.fakeIO(9, io) // commit
	// What the steps built lives until the request ends.
	runtime.KeepAlive(&u)
	return u.tx.done()
}

func parallel(requests, fanout int, io time.Duration) int {
	return spawnSum(requests, func(int) int { return parallelRequest(fanout, io) })
}

// parallelRequest starts fanout fake I/O ops at once (indexes 0 … fanout−1), each in a
// goroutine of its own, joins them, then commits (index fanout); it returns the ops done.
func parallelRequest(fanout int, io time.Duration) int {
	tx := &transaction{}
	spawnSum(fanout, func(k int) int {
		tx.fakeIO(k, io)
		return 0
	})
	tx.fakeIO(fanout, io) // commit
	return tx.done()
}
