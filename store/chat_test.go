package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestChatSQLite: lines are kept per table up to the bound, oldest first,
// apart from other tables; the spectator switch and the reports round-trip,
// a second report of a line by the same player is ErrDuplicate.
func TestChatSQLite(t *testing.T) {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	chats := map[string]Chat{"sqlite": sq}
	if p := pgStore(t); p != nil {
		chats["postgres"] = p
	}
	for name, st := range chats {
		t.Run(name, func(t *testing.T) { testChat(t, st) })
	}
}

func testChat(t *testing.T, st Chat) {
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for i := int64(1); i <= 5; i++ {
		for _, tid := range []string{"t_a", "t_b"} {
			l := ChatLine{Table: tid, ID: i, Channel: "players", Player: "p1", Name: "alice", Seat: 0, Text: tid, At: at}
			if err := st.AppendChat(ctx, l, 3); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		table   string
		limit   int
		wantIDs []int64
	}{
		{"t_a", 10, []int64{3, 4, 5}},
		{"t_a", 2, []int64{4, 5}},
		{"t_b", 10, []int64{3, 4, 5}},
		{"t_none", 10, nil},
	}
	for _, tc := range cases {
		got, err := st.ChatLines(ctx, tc.table, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, l := range got {
			ids = append(ids, l.ID)
			if l.Text != tc.table || !l.At.Equal(at) {
				t.Errorf("%s: line %+v", tc.table, l)
			}
		}
		if len(ids) != len(tc.wantIDs) || (len(ids) > 0 && (ids[0] != tc.wantIDs[0] || ids[len(ids)-1] != tc.wantIDs[len(tc.wantIDs)-1])) {
			t.Errorf("%s limit %d: ids %v, want %v", tc.table, tc.limit, ids, tc.wantIDs)
		}
	}
	if err := st.AppendChat(ctx, ChatLine{Table: "t_a", ID: 5, Channel: "players", At: at}, 3); err == nil {
		t.Error("a line id stored twice")
	}

	for _, off := range []bool{true, false, true} {
		if err := st.SetSpectatorChatOff(ctx, "t_a", off); err != nil {
			t.Fatal(err)
		}
		if got, err := st.SpectatorChatOff(ctx, "t_a"); err != nil || got != off {
			t.Errorf("spectator chat off %v, %v; want %v", got, err, off)
		}
	}
	if got, _ := st.SpectatorChatOff(ctx, "t_b"); got {
		t.Error("t_b's spectators off without a setting")
	}

	r := ChatReport{Reporter: "p2", ReporterName: "bob", Reason: "rude", At: at,
		Line: ChatLine{Table: "t_a", ID: 4, Channel: "players", Player: "p1", Name: "alice", Text: "t_a", At: at}}
	if err := st.AddChatReport(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := st.AddChatReport(ctx, r); !errors.Is(err, ErrDuplicate) {
		t.Errorf("second report: %v, want ErrDuplicate", err)
	}
	r.Line.ID = 5
	if err := st.AddChatReport(ctx, r); err != nil {
		t.Fatal(err)
	}
	reps, err := st.ChatReports(ctx, 10)
	if err != nil || len(reps) != 2 || reps[0].Line.ID != 5 || reps[1].Line.ID != 4 || reps[1].Reason != "rude" || reps[1].Line.Name != "alice" {
		t.Fatalf("reports %+v, %v", reps, err)
	}
	if reps, _ := st.ChatReports(ctx, 1); len(reps) != 1 {
		t.Errorf("limit 1: %d reports", len(reps))
	}
}
