package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/rating"
	"cardroom/store"
	"cardroom/table"
)

// TestRatedCreate: a rated table takes the game's default options only,
// and says it is rated in its summary and the lobby.
func TestRatedCreate(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	sess := newMember(t, ts.url, "alice")
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   protocol.Code
		rated  bool
	}{
		{"casual", map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}}, 200, "", false},
		{"rated, no options", map[string]any{"game": "papayoo", "rated": true}, 200, "", true},
		{"rated, the defaults spelt out", map[string]any{"game": "papayoo", "rated": true, "options": map[string]string{"players": "4", "rounds": "4"}}, 200, "", true},
		{"rated, other rounds", map[string]any{"game": "papayoo", "rated": true, "options": map[string]string{"rounds": "1"}}, 400, protocol.BadOptions, false},
		{"rated, other players", map[string]any{"game": "papayoo", "rated": true, "options": map[string]string{"players": "5"}}, 400, protocol.BadOptions, false},
		{"rated, an unknown option", map[string]any{"game": "papayoo", "rated": true, "options": map[string]string{"nope": "1"}}, 400, protocol.BadOptions, false},
		{"rated, pausing when empty", map[string]any{"game": "papayoo", "rated": true, "when_empty": "pause"}, 400, protocol.BadRequest, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var raw string
			status := httpJSON(t, "POST", ts.url+"/api/tables", sess.Token, c.body, &raw)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, raw)
			}
			if c.code != "" {
				if !strings.Contains(raw, `"code":"`+string(c.code)+`"`) {
					t.Errorf("answer %s, want code %s", raw, c.code)
				}
				return
			}
			var sum table.Summary
			if err := jsonUnmarshal(raw, &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Rated != c.rated {
				t.Errorf("rated = %v, want %v", sum.Rated, c.rated)
			}
			// The lobby's list is rebuilt at most every lobbyEvery.
			found := false
			for deadline := time.Now().Add(2 * time.Second); !found && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				var lobby protocol.Lobby
				httpJSON(t, "GET", ts.url+"/api/tables", "", nil, &lobby)
				for _, l := range lobby.Tables {
					if l.ID == sum.ID {
						found = l.Rated == c.rated
					}
				}
			}
			if !found {
				t.Errorf("the lobby does not list %s with rated %v", sum.ID, c.rated)
			}
		})
	}
	// Over the socket too.
	cl := dial(t, ts.url, sess)
	cl.send(map[string]any{"type": "create", "id": "r1", "game": "papayoo", "rated": true, "options": map[string]string{"rounds": "2"}})
	if m := cl.expect("error", nil); m.str("code") != string(protocol.BadOptions) || !strings.Contains(m.str("message"), "default options") {
		t.Errorf("rated create with options over the socket: %v", m)
	}
	id := cl.createTable(map[string]any{"game": "papayoo", "rated": true})
	if sum := ts.s.table(id).Summary(); !sum.Rated {
		t.Errorf("socket-created rated table: %+v", sum)
	}
}

// TestRatedHint: a rated table refuses hints with rated_table; a casual one
// does not.
func TestRatedHint(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	sess := newMember(t, ts.url, "alice")
	for _, rated := range []bool{true, false} {
		t.Run(fmt.Sprint("rated=", rated), func(t *testing.T) {
			var sum table.Summary
			if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "rated": rated}, &sum); code != 200 {
				t.Fatalf("quickplay: %d", code)
			}
			c := dial(t, ts.url, sess)
			c.send(map[string]any{"type": "watch", "table": sum.ID})
			c.expect("state", nil)
			c.send(map[string]any{"type": "hint", "id": "h", "table": sum.ID})
			for {
				m := c.next(10 * time.Second)
				if m.str("type") == "hint" || m.str("type") == "error" {
					if got := m.str("code") == string(protocol.RatedTable); got != rated {
						t.Errorf("hint answer %v at a table rated=%v", m, rated)
					}
					break
				}
			}
			c.close()
		})
	}
}

// waitRated polls until the table's game is rated.
func waitRated(t *testing.T, ts *testServer, id string) {
	t.Helper()
	rs := ts.s.ratingsStore()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok, err := rs.IsRated(context.Background(), id); err == nil && ok {
			return
		}
	}
	t.Fatalf("table %s was not rated", id)
}

// TestRatedGame plays a rated game to its end: every seat's rating moves as
// the model says from the final ranking, once, and the endpoints show it.
func TestRatedGame(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	sess := newMember(t, ts.url, "alice")
	var sum table.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	c := dial(t, ts.url, sess)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	last := c.play(sum.ID, 7, nil)
	waitRated(t, ts, sum.ID)

	var res game.Result
	if err := jsonUnmarshal(string(last[0].Result), &res); err != nil || len(res.Totals) != 4 {
		t.Fatalf("result %s: %v", last[0].Result, err)
	}
	ranks := rating.Ranks(res.Totals, res.HigherWins)
	p := RatingParams
	per, _ := p.Rate([]rating.Rating{p.New(), p.New(), p.New(), p.New()}, ranks)
	botMu := (per[1].Mu + per[2].Mu + per[3].Mu) / 3

	var mine protocol.PlayerRatings
	if code := httpJSON(t, "GET", ts.url+"/api/players/"+sess.Player+"/ratings", "", nil, &mine); code != 200 {
		t.Fatalf("player ratings: %d", code)
	}
	if len(mine.Ratings) != 1 || mine.Ratings[0].Game != "papayoo" || mine.Ratings[0].Games != 1 || !mine.Ratings[0].Provisional ||
		math.Abs(mine.Ratings[0].Mu-per[0].Mu) > 1e-9 || mine.Ratings[0].Rating != per[0].Display() || mine.Ratings[0].Bot {
		t.Errorf("ratings = %+v; want mu %v", mine.Ratings, per[0].Mu)
	}
	if len(mine.History) != 1 || mine.History[0].Table != sum.ID || mine.History[0].Before != 1000 || mine.History[0].After != per[0].Display() ||
		mine.History[0].Rank != ranks[0] || mine.History[0].Left {
		t.Errorf("history = %+v", mine.History)
	}
	var lb protocol.Leaderboard
	if code := httpJSON(t, "GET", ts.url+"/api/ratings/papayoo", "", nil, &lb); code != 200 {
		t.Fatalf("leaderboard: %d", code)
	}
	if lb.Total != 2 || len(lb.Players) != 2 {
		t.Fatalf("leaderboard = %+v", lb)
	}
	for _, e := range lb.Players {
		switch e.Player {
		case sess.Player:
		case "bot:random":
			if !e.Bot || e.Name != "bot:random" || math.Abs(e.Mu-botMu) > 1e-9 || e.Games != 1 {
				t.Errorf("the bot's entry %+v; want mu %v", e, botMu)
			}
		default:
			t.Errorf("leaderboard entry %+v", e)
		}
	}
	var botRatings protocol.PlayerRatings
	if code := httpJSON(t, "GET", ts.url+"/api/players/bot:random/ratings", "", nil, &botRatings); code != 200 ||
		len(botRatings.Ratings) != 1 || !botRatings.Ratings[0].Bot || len(botRatings.History) != 1 {
		t.Errorf("bot:random's ratings = %d %+v", code, botRatings)
	}
	var of protocol.RatingsOf
	if code := httpJSON(t, "GET", ts.url+"/api/ratings/papayoo/players?id=p_nobody&id=bot:random&id="+sess.Player, "", nil, &of); code != 200 ||
		len(of.Players) != 2 || of.Players[0].Player != "bot:random" || of.Players[1].Player != sess.Player {
		t.Errorf("ratings of three players = %d %+v", code, of)
	}
	// Once per table: a second update is refused and changes nothing.
	if _, err := ts.s.rateGame(context.Background(), ts.s.table(sum.ID).Summary()); !errors.Is(err, store.ErrAlreadyRated) {
		t.Errorf("second rating: %v", err)
	}
	var again protocol.PlayerRatings
	httpJSON(t, "GET", ts.url+"/api/players/"+sess.Player+"/ratings", "", nil, &again)
	if len(again.History) != 1 || again.Ratings[0].Mu != mine.Ratings[0].Mu {
		t.Errorf("after a second attempt: %+v", again)
	}
	var body string
	httpJSON(t, "GET", ts.url+"/metrics", "", nil, &body)
	if !strings.Contains(body, "cardroom_rated_games_total 1") {
		t.Error("metrics lack cardroom_rated_games_total 1")
	}
}

// TestRatedAbandon: a player who leaves a rated game is ranked last
// whatever the score; the bot that finished their game does not save them.
// The bot starts only after the grace period, as for a lost connection
// (no hint by leaving and joining again: table.Leave's graced).
func TestRatedAbandon(t *testing.T) {
	needGame(t, "papayoo")
	const grace = 400 * time.Millisecond
	ts := startServer(t, t.TempDir(), table.Config{Grace: grace})
	sess := newMember(t, ts.url, "alice")
	var sum table.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	c := dial(t, ts.url, sess)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	c.expect("state", nil)
	left := leaveGraced(t, ts, c, sum.ID, 0, grace)
	c.expect("state", func(m msg) bool { return m.str("status") == "finished" })
	if d := time.Since(left); d < grace {
		t.Errorf("the game ended %v after leaving, within the grace period", d)
	}
	waitRated(t, ts, sum.ID)
	var mine protocol.PlayerRatings
	httpJSON(t, "GET", ts.url+"/api/players/"+sess.Player+"/ratings", "", nil, &mine)
	if len(mine.History) != 1 || !mine.History[0].Left || mine.History[0].Rank != 3 || mine.History[0].After >= 1000 {
		t.Errorf("history after leaving = %+v; want left, rank 3 (last of 4), below 1000", mine.History)
	}
}

// TestRatedAbsent: a player who goes away from a rated game for the grace
// period finishes last: the table ends (rated tables never pause) or a bot
// plays it out, and either way their seat is ranked last.
func TestRatedAbsent(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{Grace: 100 * time.Millisecond, BotDelay: 20 * time.Millisecond})
	sess := newMember(t, ts.url, "alice")
	var sum table.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	c := dial(t, ts.url, sess)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	c.expect("state", nil)
	c.close()
	waitRated(t, ts, sum.ID)
	var mine protocol.PlayerRatings
	httpJSON(t, "GET", ts.url+"/api/players/"+sess.Player+"/ratings", "", nil, &mine)
	if len(mine.History) != 1 || !mine.History[0].Left || mine.History[0].Rank != 3 {
		t.Errorf("history after going away = %+v; want left, rank 3 (last of 4)", mine.History)
	}
}

// leaveGraced sends c's leave of table id and checks, for half the grace
// period, that its seat is not played by the stand-in (where hints are
// refused, table.Leave's graced); it returns when the leave was sent.
func leaveGraced(t *testing.T, ts *testServer, c *client, id string, seat int, grace time.Duration) time.Time {
	t.Helper()
	left := time.Now()
	c.send(map[string]any{"type": "leave", "table": id})
	for time.Since(left) < grace/2 {
		if si := ts.s.table(id).Summary().Seats[seat]; si.Away {
			t.Fatalf("%v after leaving, the seat's stand-in plays (want it after the grace period, %v)", time.Since(left), grace)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return left
}

// failingRatings is a SQLite store whose rating updates fail, as if the
// room stopped between a game's end and its update.
type failingRatings struct{ *store.SQLite }

func (failingRatings) ApplyRatedGame(context.Context, rating.Params, store.RatedGame) ([]store.RatingChange, error) {
	return nil, errors.New("the disk is gone")
}

// TestRatedSweep: a game whose rating update did not happen is rated at the
// next start, once.
func TestRatedSweep(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	path := filepath.Join(dir, "cardroom.db")
	sq, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerCfg(t, dir, Config{Store: failingRatings{sq}, Rate: 10000, Burst: 10000})
	sess := newMember(t, ts.url, "alice")
	var sum table.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	c := dial(t, ts.url, sess)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	c.play(sum.ID, 3, nil)
	for deadline := time.Now().Add(10 * time.Second); ts.s.rt.failed.Load() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the failing update was not tried")
		}
	}
	c.close()
	ts.stop()

	ts2 := startServer(t, dir, table.Config{})
	waitRated(t, ts2, sum.ID)
	var mine protocol.PlayerRatings
	httpJSON(t, "GET", ts2.url+"/api/players/"+sess.Player+"/ratings", "", nil, &mine)
	if len(mine.History) != 1 || mine.History[0].Table != sum.ID || len(mine.Ratings) != 1 || mine.Ratings[0].Games != 1 {
		t.Errorf("after the sweep: %+v", mine)
	}
	ts2.stop()
	ts3 := startServer(t, dir, table.Config{})
	time.Sleep(100 * time.Millisecond)
	httpJSON(t, "GET", ts3.url+"/api/players/"+sess.Player+"/ratings", "", nil, &mine)
	if len(mine.History) != 1 || mine.Ratings[0].Games != 1 {
		t.Errorf("a second start rated the game again: %+v", mine)
	}
}

// TestRatedGameRanking: how a table's end becomes the ranking.
func TestRatedGameRanking(t *testing.T) {
	human := func(p string, away bool) table.SeatInfo {
		return table.SeatInfo{Kind: protocol.SeatHuman, Player: p, Name: p, Away: away}
	}
	bot := func(level string) table.SeatInfo { return table.SeatInfo{Kind: protocol.SeatBot, Level: level} }
	cases := []struct {
		name   string
		seats  []table.SeatInfo
		res    game.Result
		over   bool
		ranks  []int
		left   []bool
		player []string
		err    bool
	}{
		{"lowest wins, a tie", []table.SeatInfo{human("a", false), human("b", false), bot("hard"), human("c", false)},
			game.Result{Totals: []int{40, 10, 40, 90}}, true, []int{1, 0, 1, 3}, []bool{false, false, false, false}, []string{"a", "b", "bot:hard", "c"}, false},
		{"highest wins", []table.SeatInfo{human("a", false), bot("easy"), human("c", false)},
			game.Result{Totals: []int{120, 510, 300}, HigherWins: true}, true, []int{2, 0, 1}, []bool{false, false, false}, []string{"a", "bot:easy", "c"}, false},
		{"the winner left: last", []table.SeatInfo{human("a", true), human("b", false), human("c", false)},
			game.Result{Totals: []int{0, 10, 20}}, true, []int{2, 0, 1}, []bool{true, false, false}, []string{"a", "b", "c"}, false},
		{"two left: tied last", []table.SeatInfo{human("a", true), human("b", false), human("c", true)},
			game.Result{Totals: []int{0, 10, 20}}, true, []int{1, 0, 1}, []bool{true, false, true}, []string{"a", "b", "c"}, false},
		{"ended with every human gone", []table.SeatInfo{human("a", false), bot("medium"), human("c", false), bot("hard")},
			game.Result{Totals: []int{0, 30, 5, 20}}, false, []int{2, 1, 2, 0}, []bool{true, false, true, false}, []string{"a", "bot:medium", "c", "bot:hard"}, false},
		{"totals short", []table.SeatInfo{human("a", false), human("b", false)}, game.Result{Totals: []int{1}}, true, nil, nil, nil, true},
		{"an empty seat", []table.SeatInfo{human("a", false), {Kind: protocol.SeatEmpty}}, game.Result{Totals: []int{1, 2}}, true, nil, nil, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ratedGame(&table.Summary{ID: "t", Game: "papayoo", Seats: c.seats}, c.res, c.over, time.Now())
			if c.err {
				if err == nil {
					t.Fatalf("accepted: %+v", g)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range g.Seats {
				if s.Rank != c.ranks[i] || s.Left != c.left[i] || s.Player != c.player[i] {
					t.Errorf("seat %d = %+v; want rank %d, left %v, player %s", i, s, c.ranks[i], c.left[i], c.player[i])
				}
			}
		})
	}
}

// TestRatingEndpoints: the endpoints range-check what they are sent.
func TestRatingEndpoints(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	cases := []struct {
		path   string
		status int
		code   protocol.Code
	}{
		{"/api/ratings/papayoo", 200, ""},
		{"/api/ratings/papayoo?offset=0&limit=100", 200, ""},
		{"/api/ratings/papayoo?limit=0", 400, protocol.BadRequest},
		{"/api/ratings/papayoo?limit=101", 400, protocol.BadRequest},
		{"/api/ratings/papayoo?limit=x", 400, protocol.BadRequest},
		{"/api/ratings/papayoo?offset=-1", 400, protocol.BadRequest},
		{"/api/ratings/papayoo?offset=100001", 400, protocol.BadRequest},
		{"/api/ratings/chess", 404, protocol.UnknownGame},
		{"/api/ratings/papayoo/players?id=p_a&id=p_b", 200, ""},
		{"/api/ratings/papayoo/players", 400, protocol.BadRequest},
		{"/api/ratings/papayoo/players?id=", 400, protocol.BadRequest},
		{"/api/ratings/papayoo/players?id=" + strings.Repeat("x", 65), 400, protocol.BadRequest},
		{"/api/ratings/papayoo/players?" + strings.Repeat("id=p&", 201), 400, protocol.BadRequest},
		{"/api/ratings/chess/players?id=p_a", 404, protocol.UnknownGame},
		{"/api/players/p_nobody/ratings", 200, ""},
		{"/api/players/p_nobody/ratings?game=papayoo&limit=500", 200, ""},
		{"/api/players/p_nobody/ratings?limit=501", 400, protocol.BadRequest},
		{"/api/players/p_nobody/ratings?game=chess", 400, protocol.UnknownGame},
		{"/api/players/" + strings.Repeat("x", 65) + "/ratings", 400, protocol.BadRequest},
	}
	for _, c := range cases {
		var raw string
		status := httpJSON(t, "GET", ts.url+c.path, "", nil, &raw)
		if status != c.status || c.code != "" && !strings.Contains(raw, `"code":"`+string(c.code)+`"`) {
			t.Errorf("GET %s = %d %s; want %d %s", c.path, status, raw, c.status, c.code)
		}
		if c.status == 200 && !strings.Contains(raw, `[]`) {
			t.Errorf("GET %s: want empty lists, got %s", c.path, raw)
		}
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// newMember is a session whose player has claimed its name with a
// password: rated tables need an account.
func newMember(t *testing.T, base, name string) session {
	t.Helper()
	s := newSession(t, base, name)
	if code := httpJSON(t, "POST", base+"/api/account", s.Token, protocol.ClaimReq{Password: "rated games " + name}, nil); code != 200 {
		t.Fatalf("claim %s: HTTP %d", name, code)
	}
	return s
}

// TestRatedNeedsAccount: a guest can neither create nor join a rated
// table (account_needed), and nothing is created; once the guest claims
// the name, both work.
func TestRatedNeedsAccount(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	owner := newMember(t, ts.url, "owner")
	var sum protocol.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/tables", owner.Token, map[string]any{"game": "papayoo", "rated": true}, &sum); code != 200 {
		t.Fatalf("member's rated table: HTTP %d", code)
	}
	guest := newSession(t, ts.url, "guest")
	var e protocol.ErrorBody
	if code := httpJSON(t, "POST", ts.url+"/api/tables", guest.Token, map[string]any{"game": "papayoo", "rated": true}, &e); code != 403 || e.Error.Code != protocol.AccountNeeded {
		t.Fatalf("guest's rated table: HTTP %d %+v, want 403 account_needed", code, e)
	}
	gc := dial(t, ts.url, guest)
	gc.send(map[string]any{"type": "join", "id": "j1", "table": sum.ID})
	if m := gc.expect("error", nil); m.str("code") != string(protocol.AccountNeeded) {
		t.Fatalf("guest joining a rated table: %v", m)
	}
	if code := httpJSON(t, "POST", ts.url+"/api/account", guest.Token, protocol.ClaimReq{Password: "now a member"}, nil); code != 200 {
		t.Fatalf("claim: HTTP %d", code)
	}
	gc.send(map[string]any{"type": "join", "id": "j2", "table": sum.ID})
	if m := gc.expect("joined", nil); m.str("table") != sum.ID {
		t.Fatalf("member joining: %v", m)
	}
}

// TestRatingHistoryHidesPrivateGames: a player's rating history is public,
// but a private rated game's table id is shown only to whoever may see the
// table (its players and owner), not to anonymous visitors or strangers.
func TestRatingHistoryHidesPrivateGames(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := newMember(t, ts.url, "alice")
	bob := newSession(t, ts.url, "bob")
	var sum table.Summary
	body := map[string]any{"game": "papayoo", "rated": true, "private": true, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}}
	if code := httpJSON(t, "POST", ts.url+"/api/tables", alice.Token, body, &sum); code != 200 || !sum.Private || !sum.Rated {
		t.Fatalf("create: %d %+v", code, sum)
	}
	c := dial(t, ts.url, alice)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	c.play(sum.ID, 7, nil)
	waitRated(t, ts, sum.ID)
	for _, v := range []struct {
		who   string
		token string
		want  string
	}{{"alice", alice.Token, sum.ID}, {"anonymous", "", ""}, {"bob", bob.Token, ""}} {
		var got protocol.PlayerRatings
		if code := httpJSON(t, "GET", ts.url+"/api/players/"+alice.Player+"/ratings", v.token, nil, &got); code != 200 || len(got.History) != 1 {
			t.Fatalf("%s: %d %+v", v.who, code, got)
		}
		if got.History[0].Table != v.want {
			t.Errorf("%s sees table %q in alice's rating history, want %q", v.who, got.History[0].Table, v.want)
		}
		if got.History[0].After == 0 || got.History[0].Game != "papayoo" {
			t.Errorf("%s: the rating change itself is hidden too: %+v", v.who, got.History[0])
		}
	}
}
