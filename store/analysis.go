package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Analysis statuses.
const (
	AnalysisDone   = "done"
	AnalysisFailed = "failed"
)

// MaxAnalysisBytes bounds one stored analysis: the longest 500 Rum game
// analysed at the full candidate count is a few hundred kilobytes.
const MaxAnalysisBytes = 4 << 20

// Analysis is the stored post-game analysis of one seat of a finished
// table (docs/bots.md, "Post-game analysis").
type Analysis struct {
	Table   string
	Seat    int
	Status  string // AnalysisDone or AnalysisFailed
	Data    []byte // the analysis's JSON when done; the error's text when failed
	Created time.Time
}

// Analyses is the persistence of post-game analyses, beside Store: a store
// without it still runs a room, which then computes no analyses.
type Analyses interface {
	// SaveAnalysis stores a seat's analysis, replacing any earlier one.
	// Data over MaxAnalysisBytes or an unknown status is an error and
	// stores nothing.
	SaveAnalysis(ctx context.Context, a Analysis) error
	// Analysis returns a seat's analysis; ErrNotFound if none is stored.
	Analysis(ctx context.Context, table string, seat int) (Analysis, error)
}

func checkAnalysis(a Analysis) error {
	if a.Status != AnalysisDone && a.Status != AnalysisFailed {
		return fmt.Errorf("store: analysis status %q, want %q or %q", a.Status, AnalysisDone, AnalysisFailed)
	}
	if len(a.Data) > MaxAnalysisBytes {
		return fmt.Errorf("store: an analysis of %d bytes, over %d", len(a.Data), MaxAnalysisBytes)
	}
	if a.Table == "" || a.Seat < 0 {
		return fmt.Errorf("store: an analysis needs a table and a seat")
	}
	return nil
}

var (
	_ Analyses = (*Memory)(nil)
	_ Analyses = (*SQLite)(nil)
)

type analysisKey struct {
	table string
	seat  int
}

// memAnalyses holds the Memory stores' analyses, one map per store, beside
// the Memory struct rather than in it (the struct is shared with other
// work in progress; the map can move into it). A Memory store is for tests
// and tools, so the few entries of stores no longer used are no concern.
var memAnalyses sync.Map // *Memory -> *memAnalysisSet

type memAnalysisSet struct {
	mu sync.Mutex
	m  map[analysisKey]Analysis
}

func (m *Memory) analyses() *memAnalysisSet {
	v, _ := memAnalyses.LoadOrStore(m, &memAnalysisSet{m: map[analysisKey]Analysis{}})
	return v.(*memAnalysisSet)
}

// SaveAnalysis implements Analyses.
func (m *Memory) SaveAnalysis(_ context.Context, a Analysis) error {
	if err := checkAnalysis(a); err != nil {
		return err
	}
	a.Data = append([]byte(nil), a.Data...)
	s := m.analyses()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[analysisKey{a.Table, a.Seat}] = a
	return nil
}

// Analysis implements Analyses.
func (m *Memory) Analysis(_ context.Context, table string, seat int) (Analysis, error) {
	s := m.analyses()
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.m[analysisKey{table, seat}]
	if !ok {
		return Analysis{}, ErrNotFound
	}
	a.Data = append([]byte(nil), a.Data...)
	return a, nil
}
