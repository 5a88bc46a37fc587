package store

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestAnalyses: an analysis round-trips per (table, seat), a second save
// replaces the first, a missing one is ErrNotFound, and a bad one (unknown
// status, over MaxAnalysisBytes, no table, negative seat) is refused and
// changes nothing; in the Memory store and in SQLite.
func TestAnalyses(t *testing.T) {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	all := map[string]Analyses{"memory": NewMemory(), "sqlite": sq}
	if p := pgStore(t); p != nil {
		all["postgres"] = p
	}
	for name, st := range all {
		t.Run(name, func(t *testing.T) { testAnalyses(t, st) })
	}
}

func testAnalyses(t *testing.T, st Analyses) {
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	first := Analysis{Table: "t_a", Seat: 1, Status: AnalysisDone, Data: []byte(`{"version":1}`), Created: at}
	if err := st.SaveAnalysis(ctx, first); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveAnalysis(ctx, Analysis{Table: "t_a", Seat: 2, Status: AnalysisFailed, Data: []byte("boom"), Created: at}); err != nil {
		t.Fatal(err)
	}
	second := first
	second.Data = []byte(`{"version":1,"seat":1}`)
	if err := st.SaveAnalysis(ctx, second); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		table  string
		seat   int
		status string
		data   string
	}{
		{"t_a", 1, AnalysisDone, `{"version":1,"seat":1}`},
		{"t_a", 2, AnalysisFailed, "boom"},
		{"t_a", 0, "", ""},
		{"t_b", 1, "", ""},
	} {
		a, err := st.Analysis(ctx, tc.table, tc.seat)
		if tc.status == "" {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s/%d: %v, want ErrNotFound", tc.table, tc.seat, err)
			}
			continue
		}
		if err != nil || a.Status != tc.status || string(a.Data) != tc.data || !a.Created.Equal(at) || a.Table != tc.table || a.Seat != tc.seat {
			t.Errorf("%s/%d: %+v %v, want %s %q", tc.table, tc.seat, a, err, tc.status, tc.data)
		}
	}
	for _, bad := range []Analysis{
		{Table: "t_a", Seat: 1, Status: "pending", Created: at},
		{Table: "t_a", Seat: 1, Status: AnalysisDone, Data: bytes.Repeat([]byte("x"), MaxAnalysisBytes+1), Created: at},
		{Table: "", Seat: 1, Status: AnalysisDone, Created: at},
		{Table: "t_a", Seat: -1, Status: AnalysisDone, Created: at},
	} {
		if err := st.SaveAnalysis(ctx, bad); err == nil {
			t.Errorf("saved a bad analysis (status %q, %d bytes, table %q, seat %d)", bad.Status, len(bad.Data), bad.Table, bad.Seat)
		}
	}
	if a, err := st.Analysis(ctx, "t_a", 1); err != nil || string(a.Data) != `{"version":1,"seat":1}` {
		t.Errorf("a refused save changed the stored analysis: %+v %v", a, err)
	}
}
