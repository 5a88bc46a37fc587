package table

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
)

// queueSub is a Queuer standing in for a connection. At Flush it "writes"
// what was queued (copies the bytes, as wsconn's frames do) and, unless it
// is slow at that flush, holds nothing. A slow flush keeps the messages
// themselves, as a connection whose socket is full keeps its queue, and
// reports it; so does Send, which queues for a writer.
type queueSub struct {
	player string
	slow   func(flush int) bool

	mu       sync.Mutex
	queued   [][]byte
	flushes  int
	written  [][]byte // copies, in order
	held     [][]byte // messages kept (the originals)
	heldCopy [][]byte // their bytes when they were given
}

func (q *queueSub) Player() string { return q.player }

func (q *queueSub) Send(b []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.written = append(q.written, bytes.Clone(b))
	q.held = append(q.held, b)
	q.heldCopy = append(q.heldCopy, bytes.Clone(b))
	return true
}

func (q *queueSub) Queue(b []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queued = append(q.queued, b)
	return true
}

func (q *queueSub) Flush() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.flushes++
	slow := q.slow != nil && q.slow(q.flushes)
	for _, b := range q.queued {
		q.written = append(q.written, bytes.Clone(b))
		if slow {
			q.held = append(q.held, b)
			q.heldCopy = append(q.heldCopy, bytes.Clone(b))
		}
	}
	q.queued = nil
	return !slow
}

// TestBroadcastMemoryReused: a table reuses the memory of an event's state
// messages only when every subscriber reports holding none of them (flush,
// Queuer.Flush): with connections that write at once it does; a message
// kept by a slow connection, or given to a subscriber that is not a
// Queuer, is never written over by a later event's message; and every
// state message a seat receives is its own (its seat, a log position that
// only grows).
func TestBroadcastMemoryReused(t *testing.T) {
	never := func(int) bool { return false }
	odd := func(n int) bool { return n%2 == 1 }
	always := func(int) bool { return true }
	for _, tc := range []struct {
		name      string
		slow      [4]func(int) bool // per seat
		plainSub  bool              // a spectator that is not a Queuer
		wantReuse bool
	}{
		{"all write at once", [4]func(int) bool{never, never, never, never}, false, true},
		{"one slow every other event", [4]func(int) bool{never, odd, never, never}, false, true},
		{"one always slow", [4]func(int) bool{never, never, always, never}, false, false},
		{"a subscriber that is not a Queuer", [4]func(int) bool{never, never, never, never}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			players := []string{"a", "b", "c", "d"}
			seats := make([]store.Seat, 4)
			for i, p := range players {
				seats[i] = store.Seat{Player: p, Name: p}
			}
			meta := store.Table{ID: "t_reuse", Game: "papayoo", Options: "players=4 rounds=3", Seed: 7, Owner: "a", Seats: seats}
			m := NewMetrics()
			tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour, Metrics: m}, meta)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Stop()
			subs := make([]*queueSub, 4)
			for i, p := range players {
				subs[i] = &queueSub{player: p, slow: tc.slow[i]}
				if _, err := tb.Subscribe(context.Background(), subs[i]); err != nil {
					t.Fatal(err)
				}
			}
			var plain *fakeSub
			if tc.plainSub {
				plain = &fakeSub{player: "x"}
				if _, err := tb.Subscribe(context.Background(), plain); err != nil {
					t.Fatal(err)
				}
			}
			tb.do(context.Background(), func() {}) // the subscriptions' events are flushed
			// Before everyone is here, a broadcast may reach only
			// subscribers that hold nothing: count from now.
			base := m.MsgsReused.Load()
			var plainCopies [][]byte
			rng := rand.New(rand.NewPCG(3, 4))
			var buf []game.Move
			moves := 0
			for moves < 150 {
				var s game.Seat = -1
				var text string
				tb.do(context.Background(), func() {
					if tb.st.Over() {
						return
					}
					to := tb.st.ToAct(nil)
					s = to[rng.IntN(len(to))]
					buf = tb.st.Legal(s, buf[:0])
					text = tb.st.FormatMove(buf[rng.IntN(len(buf))])
				})
				if s < 0 {
					break
				}
				if err := tb.Move(subs[s], nil, s, text); err != nil {
					t.Fatalf("move %d %q: %v", moves, text, err)
				}
				tb.do(context.Background(), func() {}) // the move's event and its flush are done
				moves++
				if plain != nil {
					plain.mu.Lock()
					for _, b := range plain.msgs[len(plainCopies):] {
						plainCopies = append(plainCopies, bytes.Clone(b))
					}
					plain.mu.Unlock()
				}
			}
			if moves < 100 {
				t.Fatalf("only %d moves played", moves)
			}
			if got := m.MsgsReused.Load() - base; (got > 0) != tc.wantReuse {
				t.Errorf("messages reused: %d, want reuse %v", got, tc.wantReuse)
			}
			for i, q := range subs {
				q.mu.Lock()
				for k := range q.held {
					if !bytes.Equal(q.held[k], q.heldCopy[k]) {
						t.Fatalf("seat %d: kept message %d was written over:\n%s\nwas\n%s", i, k, q.held[k], q.heldCopy[k])
					}
				}
				lastSeq, states := -1, 0
				for _, b := range q.written {
					var msg struct {
						Type string `json:"type"`
						Seat *int   `json:"seat"`
						Seq  int    `json:"seq"`
					}
					if err := json.Unmarshal(b, &msg); err != nil {
						t.Fatalf("seat %d: not JSON: %v\n%s", i, err, b)
					}
					if msg.Type != "state" {
						continue
					}
					states++
					if msg.Seat == nil || *msg.Seat != i || msg.Seq < lastSeq {
						t.Fatalf("seat %d got a state message for seat %v at seq %d after %d:\n%s", i, msg.Seat, msg.Seq, lastSeq, b)
					}
					lastSeq = msg.Seq
				}
				q.mu.Unlock()
				if states < moves {
					t.Errorf("seat %d: %d state messages for %d moves", i, states, moves)
				}
			}
			if plain != nil {
				plain.mu.Lock()
				for k, b := range plain.msgs {
					if !bytes.Equal(b, plainCopies[k]) {
						t.Fatalf("the plain subscriber's message %d was written over", k)
					}
				}
				plain.mu.Unlock()
			}
		})
	}
}
