package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cardroom/rating"
)

// ratingStores are both implementations, fresh.
func ratingStores(t *testing.T) map[string]interface {
	Store
	Ratings
} {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	m := map[string]interface {
		Store
		Ratings
	}{"sqlite": sq, "memory": NewMemory()}
	if p := pgStore(t); p != nil {
		m["postgres"] = p
	}
	return m
}

func near(a, b rating.Rating) bool {
	return math.Abs(a.Mu-b.Mu) < 1e-9 && math.Abs(a.Sigma-b.Sigma) < 1e-9
}

// TestRatingsContract: a rated game updates every player once, the history
// records before and after, the leaderboard pages by ordinal.
func TestRatingsContract(t *testing.T) {
	p := rating.Default()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			g1 := RatedGame{Table: "t1", Game: "papayoo", At: at, Seats: []RatedSeat{
				{Player: "p1", Name: "ann", Rank: 0}, {Player: "p2", Name: "bob", Rank: 1},
				{Player: "bot:medium", Name: "bot:medium", Rank: 2}, {Player: "p3", Name: "cy", Rank: 3, Left: true}}}
			ch, err := st.ApplyRatedGame(ctx, p, g1)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := p.Rate([]rating.Rating{p.New(), p.New(), p.New(), p.New()}, []int{0, 1, 2, 3})
			if len(ch) != 4 {
				t.Fatalf("changes = %+v", ch)
			}
			for i, c := range ch {
				if !near(c.After, want[i]) || !near(c.Before, p.New()) || c.Games != 1 {
					t.Errorf("change %d = %+v, want after %v", i, c, want[i])
				}
			}
			if !ch[3].Left || ch[0].Left {
				t.Errorf("left flags: %+v", ch)
			}
			// Exactly once per table.
			if _, err := st.ApplyRatedGame(ctx, p, g1); !errors.Is(err, ErrAlreadyRated) {
				t.Errorf("second apply: %v, want ErrAlreadyRated", err)
			}
			if ok, err := st.IsRated(ctx, "t1"); !ok || err != nil {
				t.Errorf("IsRated(t1) = %v, %v", ok, err)
			}
			if ok, _ := st.IsRated(ctx, "t2"); ok {
				t.Error("IsRated(t2) before its game")
			}
			// A second game starts from the stored ratings.
			g2 := RatedGame{Table: "t2", Game: "papayoo", At: at.Add(time.Hour), Seats: []RatedSeat{
				{Player: "p2", Name: "bob", Rank: 0}, {Player: "p1", Name: "ann", Rank: 1}}}
			ch2, err := st.ApplyRatedGame(ctx, p, g2)
			if err != nil {
				t.Fatal(err)
			}
			want2, _ := p.Rate([]rating.Rating{want[1], want[0]}, []int{0, 1})
			if !near(ch2[0].Before, want[1]) || !near(ch2[0].After, want2[0]) || ch2[0].Games != 2 {
				t.Errorf("second game: %+v, want %v → %v", ch2[0], want[1], want2[0])
			}
			// Another game is rated apart.
			if _, err := st.ApplyRatedGame(ctx, p, RatedGame{Table: "t3", Game: "rum500", At: at, Seats: []RatedSeat{
				{Player: "p1", Name: "ann", Rank: 0}, {Player: "p2", Name: "bob", Rank: 0}}}); err != nil {
				t.Fatal(err)
			}
			mine, err := st.PlayerRatings(ctx, "p1")
			if err != nil || len(mine) != 2 || mine[0].Game != "papayoo" || mine[1].Game != "rum500" || mine[0].Games != 2 || !near(mine[0].Rating, want2[1]) {
				t.Errorf("PlayerRatings(p1) = %+v, %v", mine, err)
			}
			h, err := st.RatingHistory(ctx, "p1", "", 10)
			if err != nil || len(h) != 3 || h[0].Table != "t2" || !near(h[0].After, want2[1]) || !near(h[0].Before, want[0]) {
				t.Errorf("history(p1) = %+v, %v", h, err)
			}
			if h, _ := st.RatingHistory(ctx, "p1", "papayoo", 1); len(h) != 1 || h[0].Table != "t2" {
				t.Errorf("history(p1, papayoo, 1) = %+v", h)
			}
			if h, _ := st.RatingHistory(ctx, "p3", "", 0); len(h) != 1 || !h[0].Left || h[0].Rank != 3 {
				t.Errorf("history(p3) = %+v", h)
			}
			// A lookup of some players, in the asked order, unrated ones left out.
			of, err := st.RatingsOf(ctx, "papayoo", []string{"p3", "nobody", "p1", "p3"})
			if err != nil || len(of) != 2 || of[0].Player != "p3" || of[1].Player != "p1" || of[1].Games != 2 {
				t.Errorf("RatingsOf = %+v, %v", of, err)
			}
			if of, _ := st.RatingsOf(ctx, "papayoo", nil); len(of) != 0 {
				t.Errorf("RatingsOf(nobody) = %+v", of)
			}
			// The leaderboard, best ordinal first, paged.
			lb, total, err := st.Leaderboard(ctx, "papayoo", 0, 2)
			if err != nil || total != 4 || len(lb) != 2 {
				t.Fatalf("leaderboard = %+v, %d, %v", lb, total, err)
			}
			if lb[0].Rating.Ordinal() < lb[1].Rating.Ordinal() {
				t.Errorf("leaderboard not sorted: %+v", lb)
			}
			rest, _, _ := st.Leaderboard(ctx, "papayoo", 2, 10)
			if len(rest) != 2 || rest[1].Player != "p3" || rest[1].Rating.Ordinal() > lb[1].Rating.Ordinal() {
				t.Errorf("leaderboard page 2 = %+v", rest)
			}
			if far, total, _ := st.Leaderboard(ctx, "papayoo", 50, 10); len(far) != 0 || total != 4 {
				t.Errorf("past the end: %+v, %d", far, total)
			}
			if none, total, _ := st.Leaderboard(ctx, "pisyedili", 0, 10); len(none) != 0 || total != 0 {
				t.Errorf("an unrated game: %+v, %d", none, total)
			}
			if big, _, _ := st.Leaderboard(ctx, "papayoo", -5, 1<<30); len(big) != 4 {
				t.Errorf("clamped page: %d rows", len(big))
			}
		})
	}
}

// TestRatedGameBadInput: a game that cannot be rated is refused and
// changes nothing, so the table can still be rated right later.
func TestRatedGameBadInput(t *testing.T) {
	p := rating.Default()
	bad := p
	bad.Beta = -1
	ok := []RatedSeat{{Player: "a", Rank: 0}, {Player: "b", Rank: 1}}
	cases := []struct {
		name string
		p    rating.Params
		g    RatedGame
	}{
		{"one seat", p, RatedGame{Table: "t", Game: "papayoo", Seats: ok[:1]}},
		{"no table", p, RatedGame{Game: "papayoo", Seats: ok}},
		{"no game", p, RatedGame{Table: "t", Seats: ok}},
		{"empty player", p, RatedGame{Table: "t", Game: "papayoo", Seats: []RatedSeat{{Player: "a"}, {}}}},
		{"too many seats", p, RatedGame{Table: "t", Game: "papayoo", Seats: make([]RatedSeat, MaxRatedSeats+1)}},
		{"bad params", bad, RatedGame{Table: "t", Game: "papayoo", Seats: ok}},
	}
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for _, c := range cases {
				if _, err := st.ApplyRatedGame(ctx, c.p, c.g); err == nil {
					t.Errorf("%s: accepted", c.name)
				}
			}
			if rated, _ := st.IsRated(ctx, "t"); rated {
				t.Error("a refused game marked its table rated")
			}
			if _, err := st.ApplyRatedGame(ctx, p, RatedGame{Table: "t", Game: "papayoo", Seats: ok}); err != nil {
				t.Errorf("the good game after the refusals: %v", err)
			}
		})
	}
}

// TestBotSeats: a bot level holding several seats gets the mean of its
// seats' changes, as one game.
func TestBotSeats(t *testing.T) {
	p := rating.Default()
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ch, err := st.ApplyRatedGame(context.Background(), p, RatedGame{Table: "t", Game: "papayoo", Seats: []RatedSeat{
				{Player: "bot:hard", Rank: 1}, {Player: "p1", Rank: 0}, {Player: "bot:hard", Rank: 2}, {Player: "bot:hard", Rank: 3}}})
			if err != nil {
				t.Fatal(err)
			}
			per, _ := p.Rate([]rating.Rating{p.New(), p.New(), p.New(), p.New()}, []int{1, 0, 2, 3})
			mean := (per[0].Mu + per[2].Mu + per[3].Mu) / 3
			if len(ch) != 2 || ch[0].Player != "bot:hard" || ch[0].Games != 1 || math.Abs(ch[0].After.Mu-mean) > 1e-9 || ch[0].Rank != 1 {
				t.Errorf("changes = %+v; want the bot's mean mu %v", ch, mean)
			}
			if !near(ch[1].After, per[1]) {
				t.Errorf("the human: %v, want %v", ch[1].After, per[1])
			}
		})
	}
}

// TestRatedGamesConcurrent: games that share a player (a bot level at many
// tables) finish at once; none loses another's update.
func TestRatedGamesConcurrent(t *testing.T) {
	p := rating.Default()
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			const n = 20
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					g := RatedGame{Table: fmt.Sprintf("t%d", i), Game: "papayoo", At: time.Now(), Seats: []RatedSeat{
						{Player: fmt.Sprintf("p%d", i), Rank: 0}, {Player: "bot:easy", Rank: 1}}}
					if _, err := st.ApplyRatedGame(ctx, p, g); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			rs, err := st.PlayerRatings(ctx, "bot:easy")
			if err != nil || len(rs) != 1 || rs[0].Games != n {
				t.Fatalf("bot:easy = %+v, %v; want %d games", rs, err, n)
			}
			if h, _ := st.RatingHistory(ctx, "bot:easy", "papayoo", 0); len(h) != n {
				t.Errorf("history has %d rows, want %d", len(h), n)
			}
			// Each game started from the previous one's result: the
			// chain of befores and afters has no gap.
			h, _ := st.RatingHistory(ctx, "bot:easy", "papayoo", 0)
			afters := map[float64]bool{p.New().Mu: true}
			for _, c := range h {
				afters[c.After.Mu] = true
			}
			for _, c := range h {
				if !afters[c.Before.Mu] {
					t.Errorf("game %s started from mu %v, which no game ended with", c.Table, c.Before.Mu)
				}
			}
		})
	}
}

// TestUnrated lists the finished rated tables whose game is not rated.
func TestUnrated(t *testing.T) {
	p := rating.Default()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for i, tb := range []Table{
				{ID: "a", Rated: true, Status: StatusFinished},
				{ID: "b", Rated: true, Status: StatusPlaying},
				{ID: "c", Rated: false, Status: StatusFinished},
				{ID: "d", Rated: true, Status: StatusFinished},
				{ID: "e", Rated: true, Status: StatusFinished},
			} {
				tb.Game, tb.Created, tb.Finished, tb.Seats = "papayoo", at, at.Add(time.Duration(10-i)*time.Minute), []Seat{{}, {}}
				if err := st.CreateTable(ctx, tb); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.ApplyRatedGame(ctx, p, RatedGame{Table: "d", Game: "papayoo", At: at, Seats: []RatedSeat{{Player: "x"}, {Player: "y", Rank: 1}}}); err != nil {
				t.Fatal(err)
			}
			got, err := st.Unrated(ctx, 10)
			if err != nil || len(got) != 2 || got[0] != "e" || got[1] != "a" {
				t.Errorf("Unrated = %v, %v; want [e a] (oldest end first)", got, err)
			}
			if got, _ := st.Unrated(ctx, 1); len(got) != 1 {
				t.Errorf("Unrated(1) = %v", got)
			}
		})
	}
}

// TestTableRated: the rated flag is stored with the table.
func TestTableRated(t *testing.T) {
	for name, st := range ratingStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for _, rated := range []bool{true, false} {
				id := fmt.Sprintf("t-%v", rated)
				if err := st.CreateTable(ctx, Table{ID: id, Game: "papayoo", Created: time.Now(), Status: StatusOpen, Rated: rated, Seats: []Seat{{}, {}}}); err != nil {
					t.Fatal(err)
				}
				got, err := st.Table(ctx, id)
				if err != nil || got.Rated != rated {
					t.Errorf("table %s: rated %v, %v; want %v", id, got.Rated, err, rated)
				}
			}
		})
	}
}
