package wsconn

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"cardroom/cputime"
)

// BenchmarkWriteLoopback is the floor under a move's messages on this
// machine: one text message written to each of four sockets (a
// Papayoo table's four states), each read at once by a client on
// loopback, as the load tool's clients do. cpu-µs/round is the CPU of
// the writing side: the process's CPU less the CPU of the readers'
// threads (each reader is locked to its own thread and reports its own
// usage), so it holds the system calls, the writer's wake-ups and the
// loopback's delivery, which the kernel charges to the sender. The room
// spends this on every move before any of its own work (docs/server.md,
// "The floor under a move").
//
// The sizes show what a smaller message would save: a state of 256 bytes
// (what a delta might be) against 1 and 4 KiB (full views).
func BenchmarkWriteLoopback(b *testing.B) {
	for _, size := range []int{256, 1024, 4096} {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) { writeLoopback(b, size) })
	}
}

func writeLoopback(b *testing.B, size int) {
	const socks = 4
	conns := make(chan *Conn, socks)
	ts := serve(b, nil, func(c *Conn) { conns <- c })
	msg := bytes.Repeat([]byte("x"), size)
	frameLen := 4 + len(msg) // 126-length header (126 to 65,535 bytes)
	type reader struct {
		got chan struct{}
		cpu time.Duration
	}
	readers := make([]*reader, socks)
	var wg sync.WaitGroup
	var servers []*Conn
	for i := range readers {
		rc := rawDial(b, ts)
		rc.SetDeadline(time.Time{})
		servers = append(servers, <-conns)
		r := &reader{got: make(chan struct{}, 1)}
		readers[i] = r
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := cputime.Thread() // the thread may have run other goroutines before
			buf := make([]byte, 64<<10)
			have := 0
			for {
				n, err := rc.br.Read(buf)
				if err != nil {
					r.cpu = cputime.Thread() - start
					return
				}
				for have += n; have >= frameLen; have -= frameLen {
					r.got <- struct{}{}
				}
			}
		}()
	}
	cpu := cputime.Process
	round := func() {
		for _, c := range servers {
			if err := c.WriteText(msg); err != nil {
				b.Fatal(err)
			}
		}
		for _, r := range readers {
			<-r.got
		}
	}
	for range 100 {
		round()
	}
	c0 := cpu()
	b.ResetTimer()
	for range b.N {
		round()
	}
	b.StopTimer()
	total := cpu() - c0
	for _, c := range servers {
		c.CloseNow()
	}
	wg.Wait()
	var readCPU time.Duration
	for _, r := range readers {
		readCPU += r.cpu // since the reader started: with the warm-up, so the figure errs low
	}
	b.ReportMetric(float64((total-readCPU).Microseconds())/float64(b.N), "cpu-µs/round")
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "cpu-µs/round-with-readers")
}
