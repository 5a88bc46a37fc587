package server

import (
	"io"
	"math"
	"net/http"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"cardroom/table"
)

// foldHistogram: each runtime bucket counts under the first bound at or
// above its upper edge (cumulatively), the open-ended ones at their finite
// edge, and the sum takes each bucket at its midpoint.
func TestFoldHistogram(t *testing.T) {
	h := &metrics.Float64Histogram{
		Buckets: []float64{math.Inf(-1), 1e-6, 2e-6, 3e-3, 4e-3, 2, math.Inf(1)},
		Counts:  []uint64{1, 2, 0, 3, 4, 5},
	}
	bounds := []float64{10e-6, 5e-3, 1}
	cum, total, sum := foldHistogram(h, bounds)
	want := []uint64{3, 6, 6} // ≤10µs: the first two buckets; ≤5ms: and 2e-3..3e-3 (3); ≤1s: no more (4e-3..2 ends above 1)
	for i := range want {
		if cum[i] != want[i] {
			t.Errorf("bucket le=%g: %d, want %d (all %v)", bounds[i], cum[i], want[i], cum)
		}
	}
	if total != 15 {
		t.Errorf("total %d, want 15", total)
	}
	wantSum := 1*1e-6 + 2*1.5e-6 + 3*3.5e-3 + 4*(4e-3+2)/2 + 5*2.0
	if math.Abs(sum-wantSum) > 1e-12 {
		t.Errorf("sum %g, want %g", sum, wantSum)
	}
}

// /metrics carries the runtime's scheduling latencies and GC pauses as
// histograms whose +Inf bucket is the count.
func TestRuntimeLatencyMetrics(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	value := func(name string) uint64 {
		for l := range strings.SplitSeq(string(body), "\n") {
			if v, ok := strings.CutPrefix(l, name+" "); ok {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return n
			}
		}
		t.Fatalf("/metrics has no %s", name)
		return 0
	}
	for _, name := range []string{"go_sched_latencies_seconds", "go_gc_pauses_seconds"} {
		inf, count, ms := value(name+`_bucket{le="+Inf"}`), value(name+"_count"), value(name+`_bucket{le="0.001"}`)
		if inf != count || ms > count {
			t.Errorf("%s: +Inf bucket %d, le=0.001 %d, count %d", name, inf, ms, count)
		}
	}
	if value("go_sched_latencies_seconds_count") == 0 {
		t.Error("no goroutine has been scheduled, says go_sched_latencies_seconds")
	}
}
