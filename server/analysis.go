package server

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot/analysis"
	"cardroom/bot/pool"
	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// Post-game analysis (docs/bots.md, "Post-game analysis"; the endpoint in
// docs/protocol.md). When a game finishes, every human seat's decisions are
// rated by bot/analysis in the background and the result is stored with
// the game (store.Analyses). The work runs on the bot pool, the one bound
// on the CPU that bots take, but only when the pool has nothing else to do:
// one seat at a time, in chunks of analysis.ChunkSamples determinizations
// (tens of milliseconds), each submitted only while no bot move or hint
// waits and a worker is free, and dropped unrun (to be submitted again) if
// one started waiting meanwhile. So a table never waits for an analysis for
// more than one chunk, on one worker.

// AnalysisConfig is the post-game analysis's switch and bounds.
type AnalysisConfig struct {
	// Off switches the analysis off (-analysis=false): nothing is computed
	// and GET …/analysis answers 404.
	Off bool
	// Budget is the determinizations per decision (-analysis-budget;
	// default analysis.DefaultBudget, at most analysis.MaxBudget).
	Budget int
	// Queue bounds the seats waiting for their analysis (-analysis-queue;
	// default 256). A seat refused because the queue is full is analysed
	// when someone asks for it later. Seats asked for (GET …/analysis of
	// a seat nobody queued) may hold half of it at most, so the games that
	// finish always find room.
	Queue int
	// PerIPPerHour bounds the analyses one address asks for (a seat queued
	// by its request; -analyses-per-ip, default 60; negative: no bound;
	// an IPv6 /48: 16 times as many). Anyone may ask for any public
	// finished game's analysis, each one a bot's search of every decision.
	PerIPPerHour int
}

// DefaultAnalysesPerIPPerHour is AnalysisConfig.PerIPPerHour's default.
const DefaultAnalysesPerIPPerHour = 60

// DefaultAnalysisQueue is AnalysisConfig.Queue's default.
const DefaultAnalysisQueue = 256

// analysisPoll is how often the analyser looks whether the bot pool is
// idle while it is not.
const analysisPoll = 20 * time.Millisecond

type seatKey struct {
	table string
	seat  int
}

// queued is a seat waiting for its analysis, with the stand-in marks of
// its game's steps (table.StandIns): which moves a bot made for a player.
// Only the running table knows them, so they are taken when the game
// finishes (or when someone asks while the table is still in memory); a
// seat queued without them has its stand-in's moves rated as its own, and
// its analysis says that it may (stand_in_unknown).
type queued struct {
	k     seatKey
	marks standInMarks
	asked bool // queued by a request (GET …/analysis), not by the game's end
}

// standInMarks are a game's stand-in marks as its table knew them: known
// says the table was in memory; the steps up to since were made before it
// ran (a restored table), so their marks are unknown.
type standInMarks struct {
	known bool
	steps map[int]game.By
	since int
}

// analyser queues the seats to analyse and runs them one at a time.
type analyser struct {
	s       *Server
	cfg     AnalysisConfig
	mu      sync.Mutex
	queue   []queued
	pending map[seatKey]bool // queued or running
	asked   int              // entries of queue that a request queued
	wake    chan struct{}
	// perIP is the analyses an address may ask for (nil: no bound).
	perIP *addrLimiter

	done    atomic.Int64
	failed  atomic.Int64
	refused atomic.Int64
	skipped atomic.Int64 // games ended unfinished, not queued
	limited atomic.Int64 // requests refused by PerIPPerHour
	// skippedIDs are the tables skipped lately, under mu.
	skippedIDs map[string]bool
	nanos      atomic.Int64 // time spent in analysis chunks
}

// newAnalyser checks the configuration, fills in its defaults and starts
// the analyser's goroutine (it ends with the server).
func newAnalyser(s *Server, cfg AnalysisConfig) (*analyser, error) {
	if cfg.Budget == 0 {
		cfg.Budget = analysis.DefaultBudget
	}
	if err := (analysis.Config{Budget: cfg.Budget}).Check(); err != nil {
		return nil, err
	}
	if cfg.Queue == 0 {
		cfg.Queue = DefaultAnalysisQueue
	}
	cfg.Queue = min(max(cfg.Queue, 1), 1<<16)
	if cfg.PerIPPerHour == 0 {
		cfg.PerIPPerHour = DefaultAnalysesPerIPPerHour
	}
	a := &analyser{s: s, cfg: cfg, pending: map[seatKey]bool{}, skippedIDs: map[string]bool{}, wake: make(chan struct{}, 1)}
	if n := float64(cfg.PerIPPerHour); n > 0 {
		a.perIP = newAddrLimiter("analyses", n/3600, n)
	}
	if !cfg.Off && s.analysesStore() != nil {
		go a.run()
	}
	return a, nil
}

// analysesStore is the store's Analyses, or nil when it keeps none.
func (s *Server) analysesStore() store.Analyses {
	as, _ := s.store.(store.Analyses)
	return as
}

func (a *analyser) on() bool { return a != nil && !a.cfg.Off && a.s.analysesStore() != nil }

// enqueue queues one seat with its game's stand-in marks; false when the
// queue is full, or for a seat asked for (asked), when the asked seats
// hold half of it. A seat already queued or running is not queued twice.
func (a *analyser) enqueue(k seatKey, marks standInMarks, asked bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pending[k] {
		return true
	}
	if len(a.queue) >= a.cfg.Queue || asked && a.asked >= max(a.cfg.Queue/2, 1) {
		a.refused.Add(1)
		return false
	}
	a.queue = append(a.queue, queued{k, marks, asked})
	if asked {
		a.asked++
	}
	a.pending[k] = true
	select {
	case a.wake <- struct{}{}:
	default:
	}
	return true
}

func (a *analyser) isPending(k seatKey) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending[k]
}

// finished queues the human seats of a game that has just finished, with
// the stand-in marks its table holds. A game ended unfinished because its
// humans had gone is not queued (anyone can make such games by the dozen,
// and the queue is the room's): its analysis is made when asked for.
func (a *analyser) finished(sum *table.Summary) {
	if !a.on() || sum.Status != store.StatusFinished {
		return
	}
	if t := a.s.table(sum.ID); t != nil && t.EndedUnfinished() {
		// A finished table's summary may be published again (a player
		// leaves it): the game is counted once.
		a.mu.Lock()
		if !a.skippedIDs[sum.ID] {
			if len(a.skippedIDs) >= 4096 {
				clear(a.skippedIDs) // a bound: a game seen again is counted again
			}
			a.skippedIDs[sum.ID] = true
			a.skipped.Add(1)
		}
		a.mu.Unlock()
		return
	}
	marks := a.s.standInMarks(sum.ID)
	for i, si := range sum.Seats {
		if si.Player != "" {
			a.enqueue(seatKey{sum.ID, i}, marks, false)
		}
	}
}

// standInMarks are the stand-in marks of table id's steps while the table
// is in memory (a finished table lingers a while), else none known.
func (s *Server) standInMarks(id string) standInMarks {
	if t := s.table(id); t != nil {
		steps, since := t.StandIns()
		return standInMarks{known: true, steps: steps, since: since}
	}
	return standInMarks{}
}

func (a *analyser) run() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-a.s.quit
		cancel()
	}()
	for {
		a.mu.Lock()
		var q queued
		ok := len(a.queue) > 0
		if ok {
			q = a.queue[0]
			a.queue[0] = queued{} // drop the marks with the entry
			a.queue = a.queue[1:]
			if q.asked {
				a.asked--
			}
		}
		a.mu.Unlock()
		k := q.k
		if !ok {
			select {
			case <-a.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		err := a.analyseSafely(ctx, k, q.marks)
		a.mu.Lock()
		delete(a.pending, k)
		a.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			a.s.log.Warn("analysis", "table", k.table, "seat", k.seat, "err", err)
		}
	}
}

// analyseSafely is analyse with a panic (a bug) recovered as its error:
// the analyser goes on with the next seat.
func (a *analyser) analyseSafely(ctx context.Context, k seatKey, marks standInMarks) (err error) {
	defer func() {
		if a.s.recovered(recover(), "analysis", "table", k.table, "seat", k.seat) {
			err = errors.New("the analysis panicked")
		}
	}()
	return a.analyse(ctx, k, marks)
}

// analyse computes and stores one seat's analysis. A failure of the
// analysis itself is stored (so it is not retried on every request);
// trouble reading or writing the store is only logged.
func (a *analyser) analyse(ctx context.Context, k seatKey, marks standInMarks) error {
	as := a.s.analysesStore()
	if _, err := as.Analysis(ctx, k.table, k.seat); err == nil {
		return nil // stored already
	}
	var f *finished
	for try := 0; ; try++ {
		var err error
		f, err = a.s.records.get(ctx, a.s.store, k.table)
		if err != nil {
			return err
		}
		if f.meta.Status == store.StatusFinished {
			break
		}
		// The table tells its end before the row is stored: wait for it.
		if try == 25 {
			return fmt.Errorf("the table is not finished in the store")
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	data, aerr := a.compute(ctx, f, k.seat, marks)
	if ctx.Err() != nil || errors.Is(aerr, pool.ErrClosed) {
		return aerr // the room is stopping: nothing failed, nothing is stored
	}
	row := store.Analysis{Table: k.table, Seat: k.seat, Status: store.AnalysisDone, Data: data, Created: time.Now().UTC()}
	if aerr == nil && len(data) > store.MaxAnalysisBytes {
		aerr = fmt.Errorf("the analysis has %d bytes, over %d", len(data), store.MaxAnalysisBytes)
	}
	if aerr != nil {
		row.Status, row.Data = store.AnalysisFailed, []byte(aerr.Error())
		a.failed.Add(1)
	} else {
		a.done.Add(1)
	}
	if err := as.SaveAnalysis(ctx, row); err != nil {
		return err
	}
	return aerr
}

// compute runs the analysis chunk by chunk on the bot pool, each chunk
// only when the pool is idle. marks are the game's stand-in marks; a seat
// the store lists as stood in for (store.Table.StandIn) is flagged
// StandInUnknown when the marks do not cover the whole game: the table was
// not in memory any more, or it was restored after a restart and a bot may
// have played for the seat before.
func (a *analyser) compute(ctx context.Context, f *finished, seat int, marks standInMarks) ([]byte, error) {
	e, err := games.Lookup(f.meta.Game)
	if err != nil {
		return nil, err
	}
	mine := map[int]game.By{}
	for step, by := range marks.steps {
		if step >= 1 && step <= len(f.events) && f.events[step-1].Seat == game.Seat(seat) && !f.events[step-1].Chance && !f.events[step-1].Comment {
			mine[step] = by
		}
	}
	job, err := analysis.Prepare(e, table.Record(f.meta, f.events), game.Seat(seat), analysis.Config{Seed: analysisSeed(f.meta.ID), Budget: a.cfg.Budget, StandIn: mine})
	if err != nil {
		return nil, err
	}
	res := make(chan error, 1)
	for !job.Done() {
		if err := a.waitIdle(ctx); err != nil {
			return nil, err
		}
		err := a.s.pool.Submit(ctx, func(context.Context) {
			if a.s.pool.Stats().Queued > 0 {
				res <- errYield // a bot move or hint came in meanwhile: it goes first
				return
			}
			start := time.Now()
			err := nextSafely(a.s, job)
			a.nanos.Add(int64(time.Since(start)))
			res <- err
		})
		if errors.Is(err, pool.ErrFull) {
			continue // waitIdle again
		}
		if err != nil {
			return nil, err
		}
		select {
		case err := <-res:
			if err != nil && !errors.Is(err, errYield) {
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	out := job.Result()
	out.StandInUnknown = (!marks.known || marks.since > 0) && slices.Contains(f.meta.StandIn, game.Seat(seat))
	return json.Marshal(out)
}

var errYield = errors.New("yielded to a bot move")

// nextSafely is job.Next with a panic (a bug) recovered as its error: the
// chunk runs on a pool worker, and compute waits for its answer.
func nextSafely(s *Server, job *analysis.Job) (err error) {
	defer func() {
		if s.recovered(recover(), "analysis chunk") {
			err = errors.New("the analysis panicked")
		}
	}()
	return job.Next()
}

// analysisSeed is the sampling seed of a table's analyses: from the table's
// id, not its seed, which the analysis's JSON shows and which must stay
// the room's (it deals the table's games).
func analysisSeed(id string) uint64 {
	h := sha256.Sum256([]byte("cardroom analysis " + id))
	return binary.BigEndian.Uint64(h[:8])
}

// waitIdle returns once the bot pool has a free worker and nothing queued.
func (a *analyser) waitIdle(ctx context.Context) error {
	for {
		st := a.s.pool.Stats()
		if st.Queued == 0 && st.Running < int64(st.Workers) {
			return nil
		}
		select {
		case <-time.After(analysisPoll):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (s *Server) analysisRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/records/{id}/analysis", s.handleAnalysis)
}

// handleAnalysis serves a finished game's analysis of one seat: 200 with
// the analysis, 202 while it is being computed (also when nobody asked for
// it before: a game that finished before a restart), 404 when there is
// none (a bot's seat, a failed analysis, the analysis switched off). The
// access rules are the record's (finishedRecord).
func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	f, ok := s.finishedRecord(w, r)
	if !ok {
		return
	}
	meta := f.meta
	seat, err := strconv.Atoi(r.URL.Query().Get("seat"))
	if err != nil || seat < 0 || seat >= len(meta.Seats) {
		writeErr(w, http.StatusBadRequest, protocol.BadSeat, fmt.Sprintf("seat must be 0 to %d", len(meta.Seats)-1))
		return
	}
	if !s.an.on() {
		writeErr(w, http.StatusNotFound, protocol.NoAnalysis, "post-game analysis is switched off in this room")
		return
	}
	k := seatKey{meta.ID, seat}
	row, err := s.analysesStore().Analysis(r.Context(), meta.ID, seat)
	switch {
	case err == nil && row.Status == store.AnalysisDone:
		w.Header().Set("Content-Type", "application/json")
		w.Write(row.Data)
		return
	case err == nil:
		writeErr(w, http.StatusNotFound, protocol.NoAnalysis, "the analysis of seat "+strconv.Itoa(seat)+" failed: "+string(row.Data))
		return
	case !errors.Is(err, store.ErrNotFound):
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the analysis cannot be read now; retry")
		return
	}
	if !s.an.isPending(k) {
		if meta.Seats[seat].Player == "" {
			writeErr(w, http.StatusNotFound, protocol.NoAnalysis, "seat "+strconv.Itoa(seat)+" was a bot's: only the players' seats are analysed")
			return
		}
		addr := s.guard.clientAddr(r)
		if l := s.an.perIP; l != nil {
			if ok, retry, wide := l.allow(addr); !ok {
				s.an.limited.Add(1)
				s.guard.rateLimited(w, r, retry, widen(protocol.Limit{Name: protocol.LimitAnalyses, Max: float64(s.an.cfg.PerIPPerHour)}, wide),
					"too many analyses asked for from your address: try again later")
				return
			}
		}
		if !s.an.enqueue(k, s.standInMarks(meta.ID), true) {
			if l := s.an.perIP; l != nil {
				l.refund(addr)
			}
			w.Header().Set("Retry-After", "30")
			writeErr(w, http.StatusServiceUnavailable, protocol.Busy, "too many analyses are waiting; retry later")
			return
		}
	}
	w.Header().Set("Retry-After", "2")
	writeJSON(w, http.StatusAccepted, map[string]any{"status": "pending", "seat": seat})
}

// analysisMetrics writes the analyser's metrics.
func (s *Server) analysisMetrics(metric func(name, typ, help string, v any)) {
	a := s.an
	if a == nil {
		return
	}
	a.mu.Lock()
	pending := len(a.pending)
	a.mu.Unlock()
	metric("cardroom_analysis_queued", "gauge", "Seats of finished games waiting for their post-game analysis, or being analysed.", pending)
	metric("cardroom_analysis_done_total", "counter", "Post-game analyses computed and stored.", a.done.Load())
	metric("cardroom_analysis_limited_total", "counter", "Analyses asked for and refused by the per-address quota (-analyses-per-ip).", a.limited.Load())
	metric("cardroom_analysis_failed_total", "counter", "Post-game analyses that failed (stored as failed).", a.failed.Load())
	metric("cardroom_analysis_skipped_total", "counter", "Finished games not queued for analysis because they were ended unfinished, their humans gone (analysed when asked for).", a.skipped.Load())
	metric("cardroom_analysis_refused_total", "counter", "Seats not queued for analysis because the queue was full (-analysis-queue).", a.refused.Load())
	metric("cardroom_analysis_seconds_total", "counter", "Seconds spent computing post-game analyses on the bot pool.", math.Round(float64(a.nanos.Load())/1e6)/1e3)
}
