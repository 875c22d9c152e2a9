// The bluebird request scenarios (docs/SEEDS.md#bluebird): doxbee, seven fake I/O steps in
// sequence per request, and parallel, a fan-out of fake I/O ops per request. Fake I/O is
// time.Sleep, Go's timer, in the request's goroutine.

package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// upload is what one doxbee request builds in its synchronous steps; it lives until the
// request ends, as in the original's closures.
type upload struct {
	blob    string
	tx      int
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
func doxbeeRequest(i int, io time.Duration) int {
	ios := 0
	fakeIO := func() {
		time.Sleep(io)
		ios++
	}
	// 1. Create the blob and begin the transaction.
	u := upload{blob: fmt.Sprintf("blob-%d", i), tx: i}
	fakeIO() // 2. put the blob
	fakeIO() // 3. look the file up: it never exists
	// 4. Build the version record.
	u.version = version{
		userID:     i,
		created:    time.Now(),
		blobID:     i,
		creator:    fmt.Sprintf("user-%d", i),
		previousID: nil, // the file is new
		hash:       "hash",
	}
	fakeIO() // 5. insert the version
	// 6. Name the file after the path's last segment, make its uuid, run the query.
	segments := strings.Split(fmt.Sprintf("/files/%d/upload.bin", i), "/")
	u.file, u.uuid = segments[len(segments)-1], fmt.Sprintf("%032x", i)
	fakeIO()
	fakeIO() // 7. insert the file–version link
	fakeIO() // 8. update the file's current version
	fakeIO() // 9. commit
	// What the steps built lives until the request ends.
	runtime.KeepAlive(&u)
	return ios
}

func parallel(requests, fanout int, io time.Duration) int {
	return spawnSum(requests, func(int) int { return parallelRequest(fanout, io) })
}

// parallelRequest starts fanout fake I/O ops at once, joins them, then commits; it returns
// the ops done.
func parallelRequest(fanout int, io time.Duration) int {
	done := spawnSum(fanout, func(int) int {
		time.Sleep(io)
		return 1
	})
	time.Sleep(io) // commit
	return done + 1
}
