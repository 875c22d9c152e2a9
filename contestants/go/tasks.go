// The scenarios that are pure task work: spawn, sleep, timer, skynet, pingpong, chain and
// yield, each with the goroutine, timer, channel or yield that Go programs use.

package main

import (
	"math"
	"runtime"
	"sort"
	"sync"
	"time"
)

// spawnSum runs task(0) … task(n-1) each in its own goroutine, waits for them all and
// returns the sum of their results: Go's spawn-and-join. Add(1), go, defer Done() is what
// WaitGroup.Go (Go 1.25) does, spelt out so that every release a sweep compares builds it.
func spawnSum(n int, task func(i int) int) int {
	results := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = task(i)
		}(i)
	}
	wg.Wait()
	sum := 0
	for _, r := range results {
		sum += r
	}
	return sum
}

func spawn(tasks int) int {
	return spawnSum(tasks, func(i int) int { return i })
}

func sleep(tasks int, delay time.Duration) int {
	return spawnSum(tasks, func(i int) int {
		time.Sleep(delay)
		return i
	})
}

// timer sleeps step count times in sequence on the main goroutine, timing every sleep.
func timer(step time.Duration, count int) outcome {
	slept := make([]time.Duration, 0, count)
	for k := 0; k < count; k++ {
		start := time.Now()
		time.Sleep(step)
		slept = append(slept, time.Since(start))
	}
	return oversleep(slept, step)
}

// oversleep reports the nearest-rank percentiles of how much later than step each sleep
// ended, clamped at 0; the checksum is the number of sleeps.
func oversleep(slept []time.Duration, step time.Duration) outcome {
	over := make([]int64, len(slept))
	for i, d := range slept {
		if d > step {
			over[i] = int64(d - step)
		}
	}
	sort.Slice(over, func(a, b int) bool { return over[a] < over[b] })
	rank := func(q float64) int64 {
		if len(over) == 0 {
			return 0
		}
		index := int(math.Ceil(q * float64(len(over))))
		if index < 1 {
			index = 1
		}
		if index > len(over) {
			index = len(over)
		}
		return over[index-1]
	}
	return outcome{checksum: len(slept), extra: []figure{
		{"oversleep_p50_ns", rank(0.50)},
		{"oversleep_p99_ns", rank(0.99)},
		{"oversleep_max_ns", rank(1.0)},
	}}
}

// skynet starts the root node in its own goroutine, as the original does, and waits for
// the sum of the tree.
func skynet(size int) int {
	root := make(chan int)
	go skynetNode(root, 0, size)
	return <-root
}

// skynetNode sends its sum to parent: a leaf its own number, an inner node the sum of its
// ten children, which reply on one unbuffered channel per inner node as in the original.
func skynetNode(parent chan<- int, num, size int) {
	if size == 1 {
		parent <- num
		return
	}
	children := make(chan int)
	part := size / 10
	for k := 0; k < 10; k++ {
		go skynetNode(children, num+k*part, part)
	}
	sum := 0
	for k := 0; k < 10; k++ {
		sum += <-children
	}
	parent <- sum
}

func pingpong(pairs, rounds int) int {
	return spawnSum(pairs, func(int) int { return pinger(rounds) })
}

// pinger starts its ponger and plays rounds round trips with it over two unbuffered
// channels; it returns the round trips made.
func pinger(rounds int) int {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for ball := range ping {
			pong <- ball
		}
	}()
	trips := 0
	for trips < rounds {
		ping <- trips
		<-pong
		trips++
	}
	close(ping)
	return trips
}

// chain starts link 1 with the sum 0 and waits for the sum the last link sends.
func chain(length int) int {
	done := make(chan int)
	go link(1, length, 0, done)
	return <-done
}

// link n adds n to the sum it was handed, starts link n+1 with the new sum and ends; the
// last link sends the sum on done.
func link(n, length, sum int, done chan<- int) {
	sum += n
	if n == length {
		done <- sum
		return
	}
	go link(n+1, length, sum, done)
}

func yield(tasks, yields int) int {
	return spawnSum(tasks, func(int) int {
		n := 0
		for n < yields {
			runtime.Gosched()
			n++
		}
		return n
	})
}
