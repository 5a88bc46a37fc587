package server

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// profileRoom is a room where alice (an account) has played two rated
// papayoo games (one won), a public casual rum500 game (won) and a
// private rum500 game at bob's table (won); carol is a guest stranger.
type profileRoom struct {
	ts                 *testServer
	alice, bob, carol  session
	rated1, rated2     string
	casual, privateTbl string
}

func newProfileRoom(t *testing.T) profileRoom {
	t.Helper()
	ts := startServer(t, t.TempDir(), table.Config{})
	r := profileRoom{ts: ts, alice: newMember(t, ts.url, "alice"), bob: newMember(t, ts.url, "bob"), carol: newSession(t, ts.url, "carol"),
		rated1: "t_prof_r1", rated2: "t_prof_r2", casual: "t_prof_c1", privateTbl: "t_prof_p1"}
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	human := func(s session) store.Seat { return store.Seat{Player: s.Player, Name: s.Name} }
	bot := store.Seat{Bot: "medium", Name: "bot"}
	rows := []store.Table{
		{ID: r.rated1, Game: "papayoo", Rated: true, Seats: []store.Seat{human(r.alice), bot, bot, human(r.bob)}, Winners: []game.Seat{0}},
		{ID: r.rated2, Game: "papayoo", Rated: true, Seats: []store.Seat{human(r.bob), human(r.alice), bot, bot}, Winners: []game.Seat{0}},
		{ID: r.casual, Game: "rum500", Seats: []store.Seat{human(r.alice), bot}, Winners: []game.Seat{0}},
		{ID: r.privateTbl, Game: "rum500", Private: true, Owner: r.bob.Player, Invite: "secret", Seats: []store.Seat{human(r.bob), human(r.alice)}, Winners: []game.Seat{1}},
	}
	for i, row := range rows {
		row.BotLevel, row.Status = "medium", store.StatusFinished
		row.Created, row.Finished = at.Add(time.Duration(i)*time.Hour), at.Add(time.Duration(i)*time.Hour+30*time.Minute)
		if err := ts.s.store.CreateTable(ctx, row); err != nil {
			t.Fatal(err)
		}
		if !row.Rated {
			continue
		}
		g, err := ratedGame(table.SummaryOf(row), game.Result{Totals: ranksToTotals(row)}, true, row.Finished)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.s.ratingsStore().ApplyRatedGame(ctx, RatingParams, g); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// ranksToTotals makes papayoo totals (lower wins) where the winner seat
// has 0 points and the others more, in seat order.
func ranksToTotals(row store.Table) []int {
	out := make([]int, len(row.Seats))
	for i := range out {
		out[i] = 10 * (i + 1)
	}
	for _, w := range row.Winners {
		out[w] = 0
	}
	return out
}

func getProfile(t *testing.T, base, token, player, query string) (int, protocol.Profile, string) {
	t.Helper()
	var raw string
	code := httpJSON(t, "GET", base+"/api/players/"+player+query, token, nil, &raw)
	var p protocol.Profile
	if code == 200 {
		if err := jsonUnmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
	}
	return code, p, raw
}

func recentIDs(p protocol.Profile) []string {
	out := []string{}
	for _, g := range p.Recent {
		out = append(out, g.ID)
	}
	return out
}

// TestProfileCounts: a player who played rated and casual games sees the
// right counts, wins and ratings; bob, who sat at the private table, sees
// it too; a stranger and an anonymous caller do not see it anywhere.
func TestProfileCounts(t *testing.T) {
	r := newProfileRoom(t)
	all := []string{r.privateTbl, r.casual, r.rated2, r.rated1}
	public := []string{r.casual, r.rated2, r.rated1}
	cases := []struct {
		name   string
		token  string
		played []protocol.ProfileGames
		recent []string
	}{
		{"herself", r.alice.Token, []protocol.ProfileGames{{Game: "papayoo", Games: 2, Wins: 1}, {Game: "rum500", Games: 2, Wins: 2}}, all},
		{"bob, seated at the private table", r.bob.Token, []protocol.ProfileGames{{Game: "papayoo", Games: 2, Wins: 1}, {Game: "rum500", Games: 2, Wins: 2}}, all},
		{"carol, a stranger", r.carol.Token, []protocol.ProfileGames{{Game: "papayoo", Games: 2, Wins: 1}, {Game: "rum500", Games: 1, Wins: 1}}, public},
		{"anonymous", "", []protocol.ProfileGames{{Game: "papayoo", Games: 2, Wins: 1}, {Game: "rum500", Games: 1, Wins: 1}}, public},
		{"a forged token, as anonymous", strings.Repeat("0", 64), []protocol.ProfileGames{{Game: "papayoo", Games: 2, Wins: 1}, {Game: "rum500", Games: 1, Wins: 1}}, public},
	}
	rs, _ := r.ts.s.ratingsStore().PlayerRatings(context.Background(), r.alice.Player)
	if len(rs) != 1 || rs[0].Games != 2 {
		t.Fatalf("alice's stored ratings: %+v", rs)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, p, raw := getProfile(t, r.ts.url, c.token, r.alice.Player, "")
			if code != 200 {
				t.Fatalf("HTTP %d: %s", code, raw)
			}
			if p.Name != "alice" || !p.Account || p.MemberSince == nil || p.MemberSince.IsZero() || p.Bot {
				t.Errorf("identity: %+v", p)
			}
			if !reflect.DeepEqual(p.Played, c.played) {
				t.Errorf("played = %+v, want %+v", p.Played, c.played)
			}
			if got := recentIDs(p); !reflect.DeepEqual(got, c.recent) || p.Total != len(c.recent) {
				t.Errorf("recent = %v (total %d), want %v", got, p.Total, c.recent)
			}
			if strings.Contains(raw, r.privateTbl) != (len(c.recent) == len(all)) || strings.Contains(raw, "secret") {
				t.Errorf("the private table's id or invite in the answer: %s", raw)
			}
			if len(p.Ratings) != 1 || p.Ratings[0].Game != "papayoo" || p.Ratings[0].Rating != rs[0].Rating.Display() ||
				p.Ratings[0].Games != 2 || p.Ratings[0].Provisional != RatingParams.Provisional(rs[0].Rating) {
				t.Errorf("ratings = %+v, want %d after 2 games", p.Ratings, rs[0].Rating.Display())
			}
			if len(p.History) != 1 || len(p.History[0].Points) != 2 || p.History[0].Points[1].Rating != p.Ratings[0].Rating ||
				!p.History[0].Points[0].At.Before(p.History[0].Points[1].At) {
				t.Errorf("history = %+v: want 2 points, oldest first, ending at the current rating", p.History)
			}
			for _, g := range p.Recent {
				wantWon := g.ID != r.rated2
				if g.Won != wantWon || g.Seats[g.Seat] != "alice" || g.Rated != strings.HasPrefix(g.ID, "t_prof_r") {
					t.Errorf("recent game %+v: want won %v, alice's seat", g, wantWon)
				}
			}
		})
	}
}

// TestProfilePaging: the recent games page by offset and limit.
func TestProfilePaging(t *testing.T) {
	r := newProfileRoom(t)
	cases := []struct {
		query string
		want  []string
	}{
		{"?limit=1", []string{r.privateTbl}},
		{"?offset=1&limit=2", []string{r.casual, r.rated2}},
		{"?offset=3", []string{r.rated1}},
		{"?offset=4", []string{}},
		{fmt.Sprintf("?offset=%d", store.MaxRecentOffset), []string{}},
	}
	for _, c := range cases {
		code, p, raw := getProfile(t, r.ts.url, r.alice.Token, r.alice.Player, c.query)
		if code != 200 || !reflect.DeepEqual(recentIDs(p), c.want) || p.Total != 4 {
			t.Errorf("%s: HTTP %d, recent %v (total %d), want %v: %s", c.query, code, recentIDs(p), p.Total, c.want, raw)
		}
	}
}

// TestProfileBadInput: bad ids and numbers get clear errors; a player
// nobody can know of is 404 no_player; a guest's own empty profile is not.
func TestProfileBadInput(t *testing.T) {
	r := newProfileRoom(t)
	fresh := newSession(t, r.ts.url, "dave")
	cases := []struct {
		name, token, player, query string
		status                     int
		code                       protocol.Code
		msg                        string
	}{
		{"a long id", "", strings.Repeat("p", maxPlayerID+1), "", 400, protocol.BadRequest, "1 to 64 bytes"},
		{"a negative offset", "", r.alice.Player, "?offset=-1", 400, protocol.BadRequest, "offset must be an integer from 0 to 10000"},
		{"an offset too deep", "", r.alice.Player, "?offset=10001", 400, protocol.BadRequest, "offset"},
		{"an offset not a number", "", r.alice.Player, "?offset=2x", 400, protocol.BadRequest, "offset"},
		{"a zero limit", "", r.alice.Player, "?limit=0", 400, protocol.BadRequest, "limit must be an integer from 1 to 50"},
		{"a limit too large", "", r.alice.Player, "?limit=51", 400, protocol.BadRequest, "limit"},
		{"a huge limit", "", r.alice.Player, "?limit=99999999999999999999", 400, protocol.BadRequest, "limit"},
		{"an unknown player", "", "p_nobody", "", 404, protocol.NoPlayer, "no player"},
		{"a fresh guest, seen by another", r.alice.Token, fresh.Player, "", 404, protocol.NoPlayer, "no player"},
		{"a fresh guest, herself", fresh.Token, fresh.Player, "", 200, "", ""},
		{"bob's own", r.bob.Token, r.bob.Player, "", 200, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, p, raw := getProfile(t, r.ts.url, c.token, c.player, c.query)
			if code != c.status {
				t.Fatalf("HTTP %d, want %d: %s", code, c.status, raw)
			}
			if c.code != "" {
				if !strings.Contains(raw, `"code":"`+string(c.code)+`"`) || !strings.Contains(raw, c.msg) {
					t.Errorf("answer %s, want code %s saying %q", raw, c.code, c.msg)
				}
				return
			}
			if p.Player != c.player || p.Name == "" {
				t.Errorf("profile %+v", p)
			}
		})
	}
	// The fresh guest has no account and no games.
	if _, p, _ := getProfile(t, r.ts.url, fresh.Token, fresh.Player, ""); p.Account || p.MemberSince != nil || p.Total != 0 || p.Name != "dave" {
		t.Errorf("a fresh guest's own profile: %+v", p)
	}
	// A bot level is a rated player: its profile shows its rating.
	code, p, raw := getProfile(t, r.ts.url, "", "bot:medium", "")
	if code != 200 || !p.Bot || len(p.Ratings) != 1 || p.Account {
		t.Errorf("bot:medium's profile: HTTP %d %s", code, raw)
	}
}
