package metrics

import (
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

// A histogram's Prometheus text: cumulative buckets (a value on a bound
// counts in that bound's bucket), +Inf equal to the count, the sum.
func TestHistogramWrite(t *testing.T) {
	h := NewHistogram(0.001, 0.01, 1)
	for _, v := range []float64{0.0005, 0.001, 0.002, 0.5, 3} {
		h.Observe(v)
	}
	h.ObserveDuration(20 * time.Millisecond)
	var b strings.Builder
	h.Write(&b, "x_seconds")
	want := `x_seconds_bucket{le="0.001"} 2
x_seconds_bucket{le="0.01"} 3
x_seconds_bucket{le="1"} 5
x_seconds_bucket{le="+Inf"} 6
x_seconds_sum 3.5235
x_seconds_count 6
`
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
}

func TestHistogramQuantile(t *testing.T) {
	h := NewHistogram(1, 2, 3)
	if q := h.Quantile(0.5); q != 0 {
		t.Errorf("empty: quantile %g, want 0", q)
	}
	for _, v := range []float64{0.5, 1.5, 1.5, 2.5, 10} {
		h.Observe(v)
	}
	for _, c := range []struct{ q, want float64 }{{0.2, 1}, {0.5, 2}, {0.8, 3}, {0.99, math.Inf(1)}} {
		if got := h.Quantile(c.q); got != c.want {
			t.Errorf("quantile %g = %g, want %g", c.q, got, c.want)
		}
	}
}

// Concurrent observations are all counted, and their sum is exact for
// values a float64 adds exactly.
func TestHistogramConcurrent(t *testing.T) {
	h := NewHistogram(1)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				h.Observe(0.5)
			}
		}()
	}
	wg.Wait()
	var b strings.Builder
	h.Write(&b, "c")
	if !strings.Contains(b.String(), "c_count 8000\n") || !strings.Contains(b.String(), "c_sum 4000\n") {
		t.Errorf("got\n%s", b.String())
	}
}
