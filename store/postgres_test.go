package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/record"
	"cardroom/store/pgtest"
)

// TestMain stops the private PostgreSQL (store/pgtest) after the tests.
func TestMain(m *testing.M) { pgtest.Main(m) }

// pgStore opens a PostgreSQL store on a fresh schema, closed when t ends;
// nil when no PostgreSQL is available (pgtest logs why, and fails t in CI).
// The contract tests add it to their maps of stores with it.
func pgStore(t testing.TB) *Postgres {
	t.Helper()
	u, ok := pgtest.URL(t)
	if !ok {
		return nil
	}
	p, err := OpenPostgres(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// needPG is pgStore for a test of the PostgreSQL store alone: it skips
// when there is none (and fails in CI).
func needPG(t *testing.T) *Postgres {
	t.Helper()
	p := pgStore(t)
	if p == nil {
		t.Skip("no PostgreSQL")
	}
	return p
}

// leaseStores are the implementations of Leases, fresh.
func leaseStores(t *testing.T) map[string]interface {
	Store
	Leases
} {
	m := map[string]interface {
		Store
		Leases
	}{"memory": NewMemory()}
	if p := pgStore(t); p != nil {
		m["postgres"] = p
	}
	return m
}

// TestLeasesContract: two nodes claim one table and one wins; the loser
// cannot append; after the winner's lease expires a third node claims it
// with a larger epoch, and the old owner's fenced append is refused even
// though its seq is the next one, as is its renewal; a release keeps the
// epoch growing; bad arguments change nothing.
func TestLeasesContract(t *testing.T) {
	// Long enough that nothing expires by itself on a loaded machine; the
	// test shortens the lease with a renewal where it waits for expiry.
	const ttl, short = 20 * time.Second, 150 * time.Millisecond
	for name, st := range leaseStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			e1, err := st.Claim(ctx, "t1", "node-a", ttl)
			if err != nil || e1 < 1 {
				t.Fatalf("first claim: epoch %d, %v", e1, err)
			}
			_, err = st.Claim(ctx, "t1", "node-b", ttl)
			var held *LeaseHeldError
			if !errors.Is(err, ErrLeaseHeld) || !errors.As(err, &held) || held.Holder != "node-a" || !strings.Contains(err.Error(), "node-a") {
				t.Fatalf("second claim: %v; want ErrLeaseHeld naming node-a", err)
			}
			if _, err := st.Claim(ctx, "t1", "node-a", ttl); !errors.Is(err, ErrLeaseHeld) {
				t.Errorf("the holder's second claim: %v; want ErrLeaseHeld (a claim never steals a live lease)", err)
			}
			entry := func(s string) record.Entry { return record.Entry{Seat: 0, Text: s} }
			if err := st.AppendFenced(ctx, "t1", e1, 0, entry("a0")); err != nil {
				t.Fatalf("owner's fenced append: %v", err)
			}
			if err := st.AppendFenced(ctx, "t1", e1+1, 1, entry("b1")); !errors.Is(err, ErrFenced) {
				t.Errorf("loser's append with a made-up epoch: %v; want ErrFenced", err)
			}
			if err := st.Renew(ctx, "t1", "node-b", e1, ttl); !errors.Is(err, ErrFenced) {
				t.Errorf("renewal by a node that does not hold the lease: %v; want ErrFenced", err)
			}
			if err := st.Renew(ctx, "t1", "node-a", e1, ttl); err != nil {
				t.Errorf("owner's renewal: %v", err)
			}
			if err := st.Renew(ctx, "t1", "node-a", e1, short); err != nil {
				t.Errorf("owner's renewal to a short lease: %v", err)
			}
			time.Sleep(short + 100*time.Millisecond)
			if err := st.AppendFenced(ctx, "t1", e1, 1, entry("a1-late")); !errors.Is(err, ErrFenced) {
				t.Errorf("append after expiry: %v; want ErrFenced", err)
			}
			if err := st.Renew(ctx, "t1", "node-a", e1, ttl); !errors.Is(err, ErrFenced) {
				t.Errorf("renewal after expiry: %v; want ErrFenced", err)
			}
			e2, err := st.Claim(ctx, "t1", "node-c", ttl)
			if err != nil || e2 <= e1 {
				t.Fatalf("claim after expiry: epoch %d (old %d), %v; want a larger epoch", e2, e1, err)
			}
			if err := st.AppendFenced(ctx, "t1", e1, 1, entry("a1-stale")); !errors.Is(err, ErrFenced) {
				t.Errorf("old owner's append at the next seq: %v; want ErrFenced", err)
			}
			if err := st.AppendFenced(ctx, "t1", e2, 1, entry("c1")); err != nil {
				t.Errorf("new owner's append: %v", err)
			}
			if err := st.Release(ctx, "t1", "node-c", e2); err != nil {
				t.Errorf("release: %v", err)
			}
			if err := st.Release(ctx, "t1", "node-c", e2); !errors.Is(err, ErrFenced) {
				t.Errorf("second release: %v; want ErrFenced", err)
			}
			if err := st.AppendFenced(ctx, "t1", e2, 2, entry("c2-released")); !errors.Is(err, ErrFenced) {
				t.Errorf("append after release: %v; want ErrFenced", err)
			}
			e3, err := st.Claim(ctx, "t1", "node-a", ttl)
			if err != nil || e3 <= e2 {
				t.Errorf("claim after release: epoch %d (old %d), %v; want a larger epoch", e3, e2, err)
			}
			bad := []struct {
				name string
				err  error
			}{
				{"no table", func() error { _, err := st.Claim(ctx, "", "n", ttl); return err }()},
				{"no node", func() error { _, err := st.Claim(ctx, "t2", "", ttl); return err }()},
				{"long node", func() error { _, err := st.Claim(ctx, "t2", strings.Repeat("n", MaxNodeName+1), ttl); return err }()},
				{"zero ttl", func() error { _, err := st.Claim(ctx, "t2", "n", 0); return err }()},
				{"huge ttl", st.Renew(ctx, "t1", "node-a", e3, MaxLeaseTTL+time.Second)},
				{"negative epoch", st.Release(ctx, "t1", "node-a", -1)},
				{"epoch 0 append", st.AppendFenced(ctx, "t1", 0, 2, entry("zero"))},
			}
			for _, b := range bad {
				if !errors.Is(b.err, ErrLeaseInput) {
					t.Errorf("%s: %v; want ErrLeaseInput", b.name, b.err)
				}
			}
			if _, err := st.Claim(ctx, "t2", "n", ttl); err != nil {
				t.Errorf("t2 after refused claims: %v (a refused claim must leave it free)", err)
			}
			ev, err := st.Events(ctx, "t1")
			if err != nil || len(ev) != 2 || ev[0].Text != "a0" || ev[1].Text != "c1" {
				t.Errorf("log = %+v, %v; want a0, c1 (nothing fenced was written)", ev, err)
			}
		})
	}
}

// TestLeaseClaimRace: nodes claiming one table at once get one lease.
func TestLeaseClaimRace(t *testing.T) {
	for name, st := range leaseStores(t) {
		t.Run(name, func(t *testing.T) {
			const nodes = 12
			var wg sync.WaitGroup
			errs := make([]error, nodes)
			for i := range nodes {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = st.Claim(context.Background(), "race", fmt.Sprintf("node-%d", i), time.Minute)
				}()
			}
			wg.Wait()
			won := 0
			for i, err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, ErrLeaseHeld):
					t.Errorf("node %d: %v", i, err)
				}
			}
			if won != 1 {
				t.Errorf("%d nodes won the lease; want exactly 1", won)
			}
		})
	}
}

// TestFencedHandover: an owner appends as fast as it can while its lease
// runs out and another node claims the table and reads the log; every
// entry the old owner was told is committed is in the log the new owner
// read, and the new owner's first append (at that length) commits. This is
// the FOR SHARE lock of insertBatch: a claim waits for a fenced commit in
// flight, and the new owner never resumes without an acknowledged entry.
func TestFencedHandover(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	e1, err := p.Claim(ctx, "h", "old", 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	acked := make(chan int, 1)
	go func() {
		n := 0
		for ; ; n++ {
			if err := p.AppendFenced(ctx, "h", e1, n, record.Entry{Seat: 1, Text: fmt.Sprint("old ", n)}); err != nil {
				if !errors.Is(err, ErrFenced) {
					t.Errorf("old owner's append %d: %v", n, err)
				}
				break
			}
		}
		acked <- n
	}()
	var e2 int64
	for {
		e2, err = p.Claim(ctx, "h", "new", time.Minute)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrLeaseHeld) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	ev, err := p.Events(ctx, "h")
	if err != nil {
		t.Fatal(err)
	}
	n := <-acked
	if len(ev) != n {
		t.Errorf("the new owner read %d entries; the old owner had %d acknowledged", len(ev), n)
	}
	if err := p.AppendFenced(ctx, "h", e2, len(ev), record.Entry{Seat: 2, Text: "new"}); err != nil {
		t.Errorf("new owner's first append: %v", err)
	}
	if n == 0 {
		t.Log("the old owner appended nothing before it was fenced (a slow machine)")
	}
}

// TestPostgresGroupCommit: appends of many tables at once are batched,
// and a duplicate seq inside one batch fails alone with ErrConflict
// (SQLSTATE 23505), the others committed.
func TestPostgresGroupCommit(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	const tables, each = 20, 10
	var wg sync.WaitGroup
	errs := make(chan error, tables*each+2)
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range each {
				if err := p.Append(ctx, fmt.Sprint("g", i), seq, record.Entry{Seat: game.Seat(i % 4), Text: fmt.Sprint("play ", seq)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	var dupOK sync.WaitGroup
	results := make([]error, 2)
	for i := range 2 {
		dupOK.Add(1)
		go func() {
			defer dupOK.Done()
			results[i] = p.Append(ctx, "dup", 0, record.Entry{Seat: 0, Text: fmt.Sprint("writer ", i)})
		}()
	}
	wg.Wait()
	dupOK.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("append: %v", err)
	}
	if (results[0] == nil) == (results[1] == nil) || !(errors.Is(results[0], ErrConflict) || errors.Is(results[1], ErrConflict)) {
		t.Errorf("two writers of one seq: %v, %v; want one nil and one ErrConflict", results[0], results[1])
	}
	for i := range tables {
		if ev, err := p.Events(ctx, fmt.Sprint("g", i)); err != nil || len(ev) != each {
			t.Errorf("table g%d: %d entries, %v", i, len(ev), err)
		}
	}
	commits, entries, _ := p.CommitStats()
	if entries != tables*each+1 {
		t.Errorf("entries committed = %d; want %d", entries, tables*each+1)
	}
	t.Logf("%d entries in %d commits", entries, commits)
}

// TestPostgresCommitResolve: a commit whose connection breaks is looked
// up by transaction id, so Append's answer is the truth: a transaction
// killed before its COMMIT is not committed (an error, and the log lacks
// the entry); one committed whose answer is lost is (nil, and the log has
// it).
func TestPostgresCommitResolve(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	cases := []struct {
		name      string
		commit    func(tx *sql.Tx) error
		committed bool
	}{
		{"killed before commit", func(tx *sql.Tx) error {
			var pid int
			if err := tx.QueryRow(`SELECT pg_backend_pid()`).Scan(&pid); err != nil {
				return err
			}
			if _, err := p.db.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
				return err
			}
			// The signal is asynchronous: wait for the backend to be gone,
			// so the COMMIT surely meets a dead connection.
			for n := 1; n > 0; time.Sleep(5 * time.Millisecond) {
				if err := p.db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&n); err != nil {
					return err
				}
			}
			return tx.Commit()
		}, false},
		{"answer lost", func(tx *sql.Tx) error {
			if err := tx.Commit(); err != nil {
				return err
			}
			return errors.New("connection reset (simulated after the commit)")
		}, true},
	}
	for i, tc := range cases {
		p.testCommit = tc.commit
		table := fmt.Sprint("r", i)
		err := p.Append(ctx, table, 0, record.Entry{Seat: 0, Text: "x"})
		p.testCommit = nil
		ev, rerr := p.Events(ctx, table)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if (err == nil) != tc.committed || len(ev) != map[bool]int{true: 1}[tc.committed] {
			t.Errorf("%s: Append = %v with %d entries logged; want committed=%v", tc.name, err, len(ev), tc.committed)
		}
	}
	if _, _, resolved := p.CommitStats(); resolved != 2 {
		t.Errorf("resolved = %d; want 2", resolved)
	}
}

// TestPostgresMigrations: nodes opening one new database at once apply
// the migrations once; every down step undoes its up step; a database of
// a newer version, and a schema holding someone else's tables, are
// refused with a clear message.
func TestPostgresMigrations(t *testing.T) {
	u := pgtest.Require(t)
	ctx := context.Background()
	const nodes = 4
	opened := make([]*Postgres, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Add(1)
		go func() { defer wg.Done(); opened[i], errs[i] = OpenPostgres(ctx, u) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		defer opened[i].Close()
	}
	p := opened[0]
	ms, err := pgMigrations()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := p.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Fatalf("schema_migrations has %d rows, %v; want %d", n, err, len(ms))
	}
	if err := p.MigrateDown(ctx, 0); err != nil {
		t.Fatal(err)
	}
	var left []string
	rows, err := p.db.Query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		left = append(left, s)
	}
	rows.Close()
	if strings.Join(left, ",") != "schema_migrations" {
		t.Errorf("after every down step the schema holds %v; want only schema_migrations", left)
	}
	again, err := OpenPostgres(ctx, u)
	if err != nil {
		t.Fatalf("migrating up again: %v", err)
	}
	again.Close()
	if _, err := p.db.Exec(`INSERT INTO schema_migrations(version) VALUES ('099_future')`); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPostgres(ctx, u); err == nil || !strings.Contains(err.Error(), "newer version") || !strings.Contains(err.Error(), "099_future") {
		t.Errorf("a database of a newer version: %v; want a refusal naming 099_future", err)
	}

	other := pgtest.Require(t)
	q, err := sql.Open("pgx", other)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.Exec(`CREATE TABLE invoices (id int)`); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPostgres(ctx, other); !errors.Is(err, ErrNotCardroom) {
		t.Errorf("a schema with someone else's table: %v; want ErrNotCardroom", err)
	}
	if err := q.QueryRow(`SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the refused schema now has %d tables, %v; want it left as it was (1)", n, err)
	}
	if _, err := OpenPostgres(ctx, "postgres://u:secret@[bad"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("a bad URL: %v; want an error that does not show the password", err)
	}
}

// TestPostgresBatchOrder: a batch's entries go in only where they extend
// their table's log without a hole, as in the SQLite store
// (TestBatchConflictFailsAlone): a seq already logged and a seq that skips
// ahead are ErrConflict, alone, and the rest commits in the same
// transaction, including a table's entries sent out of order; an entry
// whose lease is not live is ErrFenced. Before, the batch inserted a
// skipping entry, and Events then refused the table's log for good.
func TestPostgresBatchOrder(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	if err := p.Append(ctx, "c", 0, record.Entry{Text: "play 1S"}); err != nil {
		t.Fatal(err)
	}
	req := func(table string, seq int, epoch int64, text string) *pgAppend {
		r := &pgAppend{appendReq: appendReq{table: table, seq: seq, e: record.Entry{Text: text}, reply: make(chan error, 1)}, epoch: epoch}
		r.state.Store(reqTaken)
		return r
	}
	batch := []*pgAppend{
		req("c", 1, 0, "play 2S"),
		req("c", 0, 0, "dup"),
		req("d", 0, 0, "play 3S"),
		req("d", 2, 0, "gap"),
		req("c", 2, 0, "play 4S"),
		req("e", 1, 0, "gap from the start"),
		req("w", 1, 0, "second"),
		req("w", 0, 0, "first"),
		req("f", 0, 99, "no lease"),
	}
	commits, _, _ := p.CommitStats()
	p.commit(batch)
	if n, _, _ := p.CommitStats(); n != commits+1 {
		t.Errorf("batch with conflicts: %d commits, want 1", n-commits)
	}
	for i, want := range []error{nil, ErrConflict, nil, ErrConflict, nil, ErrConflict, nil, nil, ErrFenced} {
		if err := <-batch[i].reply; !errors.Is(err, want) || (want == nil && err != nil) {
			t.Errorf("entry %d (%s %d): %v, want %v", i, batch[i].table, batch[i].seq, err, want)
		}
	}
	for table, want := range map[string]string{"c": "play 1S,play 2S,play 4S", "d": "play 3S", "e": "", "w": "first,second", "f": ""} {
		ev, err := p.Events(ctx, table)
		var got []string
		for _, e := range ev {
			got = append(got, e.Text)
		}
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("events of %s = %q, %v; want %q", table, got, err, want)
		}
	}
	// A gap through Append, alone in its batch: refused, and the next
	// entry is still welcome.
	if err := p.Append(ctx, "d", 5, record.Entry{Text: "gap"}); !errors.Is(err, ErrConflict) {
		t.Errorf("append past the end: %v, want ErrConflict", err)
	}
	if err := p.Append(ctx, "d", 1, record.Entry{Text: "play 5S"}); err != nil {
		t.Errorf("the next entry after a refused gap: %v", err)
	}
}

// TestPostgresAppendInput: an entry PostgreSQL could not store (it would
// fail the whole group commit it joined) is refused alone, with a clear
// error, and nothing is written; a good entry after it commits.
func TestPostgresAppendInput(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	cases := []struct {
		name string
		seq  int
		e    record.Entry
	}{
		{"negative seq", -1, record.Entry{Seat: 0, Text: "x"}},
		{"seq past int32", 1 << 31, record.Entry{Seat: 0, Text: "x"}},
		{"seat 64", 0, record.Entry{Seat: 64, Text: "x"}},
		{"seat -2", 0, record.Entry{Seat: -2, Text: "x"}},
		{"NUL byte", 0, record.Entry{Seat: 0, Text: "play\x00"}},
		{"not UTF-8", 0, record.Entry{Seat: 0, Text: "play \xff"}},
	}
	for _, tc := range cases {
		if err := p.Append(ctx, "in", tc.seq, tc.e); err == nil || !strings.Contains(err.Error(), "table in") {
			t.Errorf("%s: %v; want an error naming the table", tc.name, err)
		}
	}
	if ev, err := p.Events(ctx, "in"); err != nil || len(ev) != 0 {
		t.Errorf("after refused appends: %d entries, %v", len(ev), err)
	}
	if err := p.Append(ctx, "in", 0, record.Entry{Seat: game.Spectator, Chance: true, Text: "deal"}); err != nil {
		t.Errorf("a good append after refused ones: %v", err)
	}
}

// TestPostgresOutcomeMatchesLog: appends whose deadlines run out at every
// moment of their life (queued, taken, committing), fenced or not, and a
// Close in the middle of them: for each, nil if and only if the log holds
// the entry.
func TestPostgresOutcomeMatchesLog(t *testing.T) {
	u := pgtest.Require(t)
	ctx := context.Background()
	p, err := OpenPostgres(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	epochs := make([]int64, n)
	for i := 1; i < n; i += 2 {
		if epochs[i], err = p.Claim(ctx, fmt.Sprint("fenced", i), "n", time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%40)*50*time.Microsecond)
			defer cancel()
			e := record.Entry{Seat: 1, Text: "play 10S"}
			if i%2 == 0 {
				errs[i] = p.Append(ctx, fmt.Sprint("t", i), 0, e)
			} else {
				errs[i] = p.AppendFenced(ctx, fmt.Sprint("fenced", i), epochs[i], 0, e)
			}
		}()
		if i == n*3/4 {
			go p.Close() // the rest meet a closing store
		}
	}
	wg.Wait()
	p.Close()
	q, err := OpenPostgres(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	committed := [2]int{}
	for i, e := range errs {
		table := fmt.Sprint("t", i)
		if i%2 == 1 {
			table = fmt.Sprint("fenced", i)
		}
		ev, err := q.Events(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if (e == nil) != (len(ev) == 1) {
			t.Fatalf("append %d returned %v but the log holds %d entries", i, e, len(ev))
		}
		if e == nil {
			committed[i%2]++
		}
	}
	t.Logf("committed %d unfenced and %d fenced of %d", committed[0], committed[1], n)
}

// BenchmarkPostgresAppendParallel is BenchmarkAppendParallel on the
// PostgreSQL store: many tables appending at once, group-committed.
func BenchmarkPostgresAppendParallel(b *testing.B) {
	p := pgStore(b)
	if p == nil {
		b.Skip("no PostgreSQL")
	}
	appendParallel(b, p)
	commits, entries, _ := p.CommitStats()
	b.ReportMetric(float64(entries)/float64(max(commits, 1)), "entries/commit")
}

// BenchmarkPostgresAppendSerial is one table appending alone: one commit
// (three round trips) per entry.
func BenchmarkPostgresAppendSerial(b *testing.B) {
	p := pgStore(b)
	if p == nil {
		b.Skip("no PostgreSQL")
	}
	// The baseline: one round trip (an append is three: BEGIN, the
	// insert, COMMIT).
	t0 := time.Now()
	for range 100 {
		p.db.Exec(`SELECT 1`)
	}
	rtt := float64(time.Since(t0).Microseconds()) / 100
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Append(context.Background(), "t1", i, record.Entry{Seat: 1, Text: "play 10S"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rtt, "µs/roundtrip")
}

// TestLeasesForANode: what a cluster node does with its leases as a set
// (docs/cluster.md): RenewAll keeps the live ones and names the lost one;
// Orphans lists the unfinished tables with no live lease (never a
// finished one, never a held one); UpdateTableFenced writes a table's
// seats only under its live epoch.
func TestLeasesForANode(t *testing.T) {
	const ttl, short = 20 * time.Second, 150 * time.Millisecond
	for name, st := range leaseStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			mk := func(id string, status Status) Table {
				tb := Table{ID: id, Game: "papayoo", Options: "players=4", Seed: 7, Status: status, Created: time.UnixMilli(1700000000000),
					Seats: []Seat{{Player: "p_a", Name: "A"}, {}, {}, {}}}
				if err := st.CreateTable(ctx, tb); err != nil {
					t.Fatal(err)
				}
				return tb
			}
			ta, _ := mk("ta", StatusPlaying), mk("tb", StatusOpen)
			mk("tc", StatusPlaying)
			mk("tf", StatusFinished)
			ea, err := st.Claim(ctx, "ta", "n1", ttl)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := st.Claim(ctx, "tb", "n1", short)
			if err != nil {
				t.Fatal(err)
			}
			orph, err := st.Orphans(ctx, 100)
			if err != nil || strings.Join(orph, ",") != "tc" {
				t.Fatalf("orphans with ta and tb held: %v, %v; want [tc] (tf is finished)", orph, err)
			}
			time.Sleep(short + 100*time.Millisecond)
			lost, err := st.RenewAll(ctx, "n1", map[string]int64{"ta": ea, "tb": eb}, ttl)
			if err != nil || strings.Join(lost, ",") != "tb" {
				t.Fatalf("RenewAll after tb expired: lost %v, %v; want [tb]", lost, err)
			}
			if err := st.AppendFenced(ctx, "ta", ea, 0, record.Entry{Text: "x"}); err != nil {
				t.Errorf("ta renewed: fenced append %v", err)
			}
			orph, _ = st.Orphans(ctx, 1)
			if strings.Join(orph, ",") != "tb" {
				t.Errorf("orphans limit 1 after tb expired: %v; want [tb]", orph)
			}
			if _, err := st.RenewAll(ctx, "n1", map[string]int64{"ta": 0}, ttl); !errors.Is(err, ErrLeaseInput) {
				t.Errorf("RenewAll with epoch 0: %v; want ErrLeaseInput", err)
			}
			if _, err := st.Orphans(ctx, 0); !errors.Is(err, ErrLeaseInput) {
				t.Errorf("Orphans(0): %v; want ErrLeaseInput", err)
			}
			ta.Seats[1] = Seat{Player: "p_b", Name: "B"}
			if err := st.UpdateTableFenced(ctx, ta, ea+1); !errors.Is(err, ErrFenced) {
				t.Errorf("update under a wrong epoch: %v; want ErrFenced", err)
			}
			if got, _ := st.Table(ctx, "ta"); len(got.Seats) > 1 && got.Seats[1].Player != "" {
				t.Errorf("a fenced update wrote seat 1: %+v", got.Seats[1])
			}
			if err := st.UpdateTableFenced(ctx, ta, ea); err != nil {
				t.Fatalf("owner's update: %v", err)
			}
			if got, _ := st.Table(ctx, "ta"); len(got.Seats) < 2 || got.Seats[1].Player != "p_b" {
				t.Errorf("owner's update not stored: %+v", got.Seats)
			}
		})
	}
}

// TestPostgresKnownLastSeq: the writer skips the probe of a log's last seq
// for a table it wrote last (insertBatch's known), and that never lets a
// wrong entry in. Another writer on the same database (another node)
// extends the log behind its back: the seq the first writer thinks is
// next is taken, and refused (ErrConflict), not written twice; after that
// the first writer looks the log up again and appends where it ends; a
// gap is refused whether the writer knew the log or not.
func TestPostgresKnownLastSeq(t *testing.T) {
	u := pgtest.Require(t)
	ctx := context.Background()
	open := func() *Postgres {
		p, err := OpenPostgres(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	a, b := open(), open()
	steps := []struct {
		p    *Postgres
		seq  int
		text string
		want error
	}{
		{a, 0, "a0", nil},
		{a, 1, "a1", nil}, // a knows the log ends at 1
		{b, 2, "b2", nil},
		{b, 3, "b3", nil},
		{a, 2, "a2", ErrConflict}, // follows what a knows, but b took it
		{a, 5, "a5", ErrConflict}, // a gap: the log ends at 3
		{a, 4, "a4", nil},         // a looked the log up again
		{a, 6, "a6", ErrConflict}, // a gap right after what a knows
		{a, 5, "a5", nil},
		{b, 6, "b6", nil},         // b knows 3, which 6 does not follow: b probes
		{b, 6, "b6", ErrConflict}, // b knows 6 now: taken
	}
	for i, s := range steps {
		if err := s.p.Append(ctx, "k", s.seq, record.Entry{Text: s.text}); !errors.Is(err, s.want) || (s.want == nil) != (err == nil) {
			t.Fatalf("step %d: append %s at %d: %v, want %v", i, s.text, s.seq, err, s.want)
		}
	}
	ev, err := a.Events(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ev {
		got = append(got, e.Text)
	}
	if want := []string{"a0", "a1", "b2", "b3", "a4", "a5", "b6"}; !slices.Equal(got, want) {
		t.Errorf("log %q, want %q", got, want)
	}
}

// TestStoppedOwnerReleasesLease: an owner stopped inside its group
// commit's transaction (SIGSTOP, a long pause: the kernel still answers
// for it) holds its table's lease row; after its lease expires, another
// node's claim is answered "held" within claimLockWait instead of waiting
// for as long as the owner is stopped, and once the database ends the
// stopped transaction (IdleInTxTimeout) the table is claimed; the stopped
// owner's append is not acknowledged.
func TestStoppedOwnerReleasesLease(t *testing.T) {
	u := pgtest.Require(t)
	ctx := context.Background()
	open := func() *Postgres {
		p, err := OpenPostgresWith(ctx, u, PostgresOptions{IdleInTxTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	a, b := open(), open()
	ttl := 300 * time.Millisecond
	epoch, err := a.Claim(ctx, "t_stopped", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	stopped, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	wake := func() { once.Do(func() { close(resume) }) }
	t.Cleanup(wake) // before the stores close (cleanups run last first)
	a.testCommit = func(tx *sql.Tx) error {
		close(stopped)
		<-resume // stopped here: the transaction stays open
		return tx.Commit()
	}
	done := make(chan error, 1)
	go func() { done <- a.AppendFenced(ctx, "t_stopped", epoch, 0, record.Entry{Seat: 1, Text: "x"}) }()
	<-stopped
	time.Sleep(ttl) // a's lease has run out
	start := time.Now()
	var claimErr error
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, claimErr = b.Claim(cctx, "t_stopped", "b", 10*time.Second)
		cancel()
		if claimErr == nil || !errors.Is(claimErr, ErrLeaseHeld) || time.Since(start) > 5*time.Second {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if claimErr != nil {
		t.Fatalf("the stopped owner's table could not be claimed in %v: %v", time.Since(start).Round(time.Millisecond), claimErr)
	}
	wake()
	if err := <-done; err == nil {
		t.Error("the stopped owner's append was acknowledged after another node took the table")
	}
}

// TestPostgresChatFenced: a cluster node's chat line is stored only under
// the table's live lease at its epoch, checked in the line's own
// transaction (FencedChat): a wrong epoch, a released lease and the old
// epoch after another node's claim are refused with ErrFenced and store
// nothing; the new owner's line is stored; epoch 0 is bad input.
func TestPostgresChatFenced(t *testing.T) {
	st := needPG(t)
	ctx := context.Background()
	const ttl = 20 * time.Second
	line := func(id int64, text string) ChatLine {
		return ChatLine{Table: "tc", ID: id, Channel: "players", Player: "p_a", Name: "A", Seat: 0, Text: text,
			At: time.UnixMilli(1700000000000).UTC()}
	}
	texts := func() string {
		ls, err := st.ChatLines(ctx, "tc", 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range ls {
			out = append(out, l.Text)
		}
		return strings.Join(out, ",")
	}
	e1, err := st.Claim(ctx, "tc", "n1", ttl)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AppendChatFenced(ctx, line(1, "one"), 50, e1); err != nil {
		t.Fatalf("the owner's line: %v", err)
	}
	if err := st.AppendChatFenced(ctx, line(2, "wrong epoch"), 50, e1+1); !errors.Is(err, ErrFenced) {
		t.Errorf("a line under a wrong epoch: %v; want ErrFenced", err)
	}
	if err := st.AppendChatFenced(ctx, line(2, "no epoch"), 50, 0); !errors.Is(err, ErrLeaseInput) {
		t.Errorf("a line with epoch 0: %v; want ErrLeaseInput", err)
	}
	if err := st.Release(ctx, "tc", "n1", e1); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendChatFenced(ctx, line(2, "released"), 50, e1); !errors.Is(err, ErrFenced) {
		t.Errorf("a line after the release: %v; want ErrFenced", err)
	}
	e2, err := st.Claim(ctx, "tc", "n2", ttl)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AppendChatFenced(ctx, line(2, "old owner"), 50, e1); !errors.Is(err, ErrFenced) {
		t.Errorf("the old owner's line after n2's claim: %v; want ErrFenced", err)
	}
	if err := st.AppendChatFenced(ctx, line(2, "two"), 50, e2); err != nil {
		t.Fatalf("the new owner's line: %v", err)
	}
	if got := texts(); got != "one,two" {
		t.Errorf("stored lines %q; want one,two (the refused lines stored nothing)", got)
	}
}
