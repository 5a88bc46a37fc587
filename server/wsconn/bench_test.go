package wsconn

import (
	"bytes"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWriteLoopback is the floor under a move's messages on this
// machine: one 1 KiB text message written to each of four sockets (a
// Papayoo table's four states), each read at once by a client on
// loopback, as the load tool's clients do. cpu-µs/round is the CPU of
// the writing side: the process's CPU less the CPU of the readers'
// threads (each reader is locked to its own thread and reports its own
// usage), so it holds the system calls, the writer's wake-ups and the
// loopback's delivery, which the kernel charges to the sender. The room
// spends this on every move before any of its own work (docs/server.md,
// "The floor under a move").
func BenchmarkWriteLoopback(b *testing.B) {
	const socks = 4
	conns := make(chan *Conn, socks)
	ts := serve(b, nil, func(c *Conn) { conns <- c })
	msg := bytes.Repeat([]byte("x"), 1024)
	frameLen := 4 + len(msg) // 126-length header
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
			buf := make([]byte, 64<<10)
			have := 0
			for {
				n, err := rc.br.Read(buf)
				if err != nil {
					var ru syscall.Rusage
					if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) == nil {
						r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
					}
					return
				}
				for have += n; have >= frameLen; have -= frameLen {
					r.got <- struct{}{}
				}
			}
		}()
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
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
		readCPU += r.cpu // since the thread started: includes the warm-up, so the figure errs low
	}
	b.ReportMetric(float64((total-readCPU).Microseconds())/float64(b.N), "cpu-µs/round")
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "cpu-µs/round-with-readers")
}
