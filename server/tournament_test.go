package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardroom/cluster"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
	"cardroom/tournament"
)

// tournamentServer is a room whose bots move at once. Every test player
// is at the loopback address, so its tournaments take any number of
// entries from one address, and it any number of tournaments created from
// one, unless tc says otherwise (TestTournamentOneEntryPerAddress and
// TestTournamentsPerAddress test those bounds); loopback is a
// trusted proxy, so a test can stand for other addresses (httpJSONFrom).
func tournamentServer(t *testing.T, dir string, tc TournamentConfig) *testServer {
	if tc.PerAddress == 0 {
		tc.PerAddress = -1
	}
	if tc.PerCreatorAddress == 0 {
		tc.PerCreatorAddress = -1
	}
	loopback, _ := ParseTrustedProxies("127.0.0.1/32,::1/128")
	return startServerCfg(t, dir, Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Millisecond}, Tournaments: tc, TrustedProxies: loopback})
}

// TestTournamentOneEntryPerAddress: a tournament takes as many entrants
// from one address (an IPv4 address, an IPv6 /64) as
// -tournament-entries-per-ip (default 1; every entrant plays the same
// cards, so a second entry would play each deal knowing it), refuses the
// next with 409 same_address and counts it; an entrant joining again is
// no new entry; the tournament's page names no origin.
func TestTournamentOneEntryPerAddress(t *testing.T) {
	needGame(t, "papayoo")
	if n := newTournaments(TournamentConfig{}).cfg.PerAddress; n != 1 {
		t.Fatalf("the default entries per address: %d, want 1", n)
	}
	type join struct {
		who, from string
		code      protocol.Code // "": entered
	}
	for _, tc := range []struct {
		name       string
		perAddress int
		joins      []join
	}{
		{"one (the default)", 1, []join{
			{"bob", "198.51.100.1", protocol.SameAddress}, // alice's address
			{"bob", "198.51.100.2", ""},
			{"alice", "198.51.100.1", ""}, // again: no new entry
			{"carol", "2001:db8:1:2::5", ""},
			{"dave", "2001:db8:1:2::9", protocol.SameAddress}, // carol's /64
			{"dave", "2001:db8:1:3::9", ""},
		}},
		{"two", 2, []join{
			{"bob", "198.51.100.1", ""},
			{"carol", "198.51.100.1", protocol.SameAddress},
			{"carol", "198.51.100.3", ""},
		}},
		{"no bound", -1, []join{{"bob", "198.51.100.1", ""}, {"carol", "198.51.100.1", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := tournamentServer(t, t.TempDir(), TournamentConfig{PerAddress: tc.perAddress})
			sess := map[string]session{}
			for _, n := range []string{"alice", "bob", "carol", "dave"} {
				sess[n] = newSession(t, ts.url, n)
			}
			var created protocol.Tournament
			req := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 1, MaxEntrants: 8, DealMinutes: 30}
			if code := httpJSONFrom(t, "198.51.100.1", "POST", ts.url+"/api/tournaments", sess["alice"].Token, req, &created); code != 200 {
				t.Fatalf("create: %d", code)
			}
			entrants, refused := 1, 0
			for _, j := range tc.joins {
				var body string
				code := httpJSONFrom(t, j.from, "POST", ts.url+"/api/tournaments/"+created.ID+"/join", sess[j.who].Token, nil, &body)
				var e protocol.ErrorBody
				json.Unmarshal([]byte(body), &e)
				if code != j.code.HTTPStatus() && !(j.code == "" && code == 200) || e.Error.Code != j.code {
					t.Fatalf("%s joins from %s: %d %s, want %q", j.who, j.from, code, body, j.code)
				}
				if j.code == "" && j.who != "alice" {
					entrants++
				}
				if j.code != "" {
					refused++
				}
			}
			got := getTournament(t, ts, "", created.ID)
			if got.Entrants != entrants {
				t.Errorf("%d entrants, want %d", got.Entrants, entrants)
			}
			if n := metricInt(t, ts.url, "cardroom_tournament_same_address_total"); n != refused {
				t.Errorf("cardroom_tournament_same_address_total = %d, want %d", n, refused)
			}
			var page string
			httpJSON(t, "GET", ts.url+"/api/tournaments/"+created.ID, sess["alice"].Token, nil, &page)
			if o := entryOrigin(created.ID, "198.51.100.1"); strings.Contains(page, o) || strings.Contains(page, "198.51.100") {
				t.Errorf("the tournament's page names an origin or an address: %s", page)
			}
		})
	}
}

// TestTournamentsPerAddress: the room takes as many unfinished tournaments
// created from one address (an IPv4 address, an IPv6 /64) as
// -tournaments-per-ip (default 3), whoever created them, refuses the next
// (429 rate_limited, counted), and a tournament that ended no longer
// counts; the tournament's page names no origin.
func TestTournamentsPerAddress(t *testing.T) {
	needGame(t, "papayoo")
	if n := newTournaments(TournamentConfig{}).cfg.PerCreatorAddress; n != 3 {
		t.Fatalf("the default unfinished tournaments per address: %d, want 3", n)
	}
	ts := tournamentServer(t, t.TempDir(), TournamentConfig{PerCreatorAddress: 2, PerPlayer: 5})
	sess := map[string]session{}
	for _, n := range []string{"alice", "bob", "carol"} {
		sess[n] = newSession(t, ts.url, n)
	}
	// Solo tournaments: each is full, and running, as it is created.
	req := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 1, MaxEntrants: 1, DealMinutes: 30}
	var ids []string
	for _, c := range []struct {
		who, from string
		code      protocol.Code // "": created
	}{
		{"alice", "198.51.100.1", ""},
		{"bob", "198.51.100.1", ""}, // another player, the same address
		{"carol", "198.51.100.1", protocol.RateLimited},
		{"alice", "198.51.100.1", protocol.RateLimited},
		{"carol", "198.51.100.2", ""},
		{"carol", "2001:db8:1:2::5", ""},
		{"carol", "2001:db8:1:2::6", ""}, // the same /64: its second
		{"bob", "2001:db8:1:2::7", protocol.RateLimited},
		{"bob", "2001:db8:1:3::7", ""},
	} {
		var body string
		code := httpJSONFrom(t, c.from, "POST", ts.url+"/api/tournaments", sess[c.who].Token, req, &body)
		var e protocol.ErrorBody
		json.Unmarshal([]byte(body), &e)
		if code != c.code.HTTPStatus() && !(c.code == "" && code == 200) || e.Error.Code != c.code {
			t.Fatalf("%s creates from %s: %d %s, want %q", c.who, c.from, code, body, c.code)
		}
		if c.code == "" {
			var got protocol.Tournament
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, got.ID)
			if o := ownerOrigin(got.ID, addrKey(c.from)); strings.Contains(body, o) || strings.Contains(body, "198.51.100") || strings.Contains(body, "2001:db8") {
				t.Errorf("the tournament's page names an origin or an address: %s", body)
			}
		}
	}
	if n := metricInt(t, ts.url, "cardroom_tournament_address_limited_total"); n != 3 {
		t.Errorf("cardroom_tournament_address_limited_total = %d, want 3", n)
	}
	// Once one of the address's tournaments has ended, it takes another.
	st := ts.s.store.(store.Tournaments)
	if ok, err := st.SetTournamentStatus(context.Background(), ids[0], tournament.Running, tournament.Finished, time.Now()); !ok || err != nil {
		t.Fatalf("finishing %s: %v %v", ids[0], ok, err)
	}
	if got, err := st.Tournament(context.Background(), ids[0]); err != nil || got.OwnerOrigin != "" {
		t.Errorf("a finished tournament keeps its owner's origin %q (%v)", got.OwnerOrigin, err)
	}
	if code := httpJSONFrom(t, "198.51.100.1", "POST", ts.url+"/api/tournaments", sess["carol"].Token, req, nil); code != 200 {
		t.Errorf("after one ended, a creation from its address: %d, want 200", code)
	}
}

// playTournamentDeal asks for the player's table of deal d, plays it
// through with random legal moves over the WebSocket and returns the table,
// the seat, and the dealer and the player's hand when the game first
// waited for them.
func playTournamentDeal(t *testing.T, ts *testServer, sess session, id string, d int, seed uint64) (protocol.TournamentPlay, string) {
	t.Helper()
	return playTournamentDealVia(t, ts.url, ts.url, sess, id, d, seed)
}

// playTournamentDealVia is playTournamentDeal asking for the table at
// playURL and playing it over a socket to wsURL (in a cluster, two nodes).
func playTournamentDealVia(t *testing.T, playURL, wsURL string, sess session, id string, d int, seed uint64) (protocol.TournamentPlay, string) {
	t.Helper()
	var play protocol.TournamentPlay
	if code := httpJSON(t, "POST", fmt.Sprintf("%s/api/tournaments/%s/deals/%d/play", playURL, id, d), sess.Token, nil, &play); code != 200 {
		t.Fatalf("%s: play deal %d: %d", sess.Name, d, code)
	}
	c := dial(t, wsURL, sess)
	defer c.close()
	c.send(map[string]any{"type": "watch", "table": play.Table})
	first := ""
	c.play(play.Table, seed, func(st map[int]state) bool {
		if s, ok := st[play.Seat]; ok && first == "" && len(s.Legal) > 0 {
			// What the deal gave the seat; the rest of the view depends
			// on how far the bots got before the socket watched.
			var v struct {
				Dealer int      `json:"dealer"`
				Hand   []string `json:"hand"`
			}
			json.Unmarshal(s.View, &v)
			first = fmt.Sprintf("dealer %d hand %v", v.Dealer, v.Hand)
		}
		return false
	})
	return play, first
}

func getTournament(t *testing.T, ts *testServer, token, id string) protocol.Tournament {
	t.Helper()
	var out protocol.Tournament
	if code := httpJSON(t, "GET", ts.url+"/api/tournaments/"+id, token, nil, &out); code != 200 {
		t.Fatalf("GET tournament %s: %d", id, code)
	}
	return out
}

// TestTournamentSameDeal is the duplicate property through the server:
// three entrants each play deal 0 of a Papayoo tournament at a table of
// their own, from the same seat, and each is dealt exactly the same cards
// (the same view when the game first asks them to act, and the same
// dealer and deal in the records); deal 1 puts them at seat 1. The
// standings compare them on deal 0 (scores summing to zero); another
// entrant's table of a deal is named only once the deal is closed, and its
// record is refused without that; a restart keeps the tournament.
func TestTournamentSameDeal(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	ts := tournamentServer(t, dir, TournamentConfig{})
	alice, bob, carol := newSession(t, ts.url, "alice"), newSession(t, ts.url, "bob"), newSession(t, ts.url, "carol")
	var created protocol.Tournament
	req := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 2, BotLevel: "medium", MaxEntrants: 3, DealMinutes: 30}
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, req, &created); code != 200 {
		t.Fatalf("create: %d", code)
	}
	id := created.ID
	if created.Status != tournament.Open || created.Me != 0 || created.Entrants != 1 || created.Seats != 3 || created.Options["rounds"] != "1" {
		t.Fatalf("created %+v; want open, alice entered, 3 seats, one round", created.TournamentSummary)
	}
	for _, s := range []session{bob, carol} {
		var got protocol.Tournament
		if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+id+"/join", s.Token, nil, &got); code != 200 {
			t.Fatalf("%s joins: %d", s.Name, code)
		}
	}
	if got := getTournament(t, ts, "", id); got.Status != tournament.Running || got.Entrants != 3 || got.Schedule[1].Seat != 1 {
		t.Fatalf("after three joins: %+v; want running with 3 entrants, deal 1 at seat 1", got.TournamentSummary)
	}
	var list protocol.TournamentList
	httpJSON(t, "GET", ts.url+"/api/tournaments", "", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != id || list.Tournaments[0].Entrants != 3 || list.Tournaments[0].Status != tournament.Running {
		t.Errorf("the list is %+v; want the running tournament with 3 entrants", list.Tournaments)
	}
	views := map[string]string{}
	tables := map[string]string{}
	for i, s := range []session{alice, bob, carol} {
		play, view := playTournamentDeal(t, ts, s, id, 0, uint64(i+1))
		if play.Seat != 0 || view == "" {
			t.Fatalf("%s: seat %d, first view %q", s.Name, play.Seat, view)
		}
		views[s.Name], tables[s.Name] = view, play.Table
	}
	if views["alice"] != views["bob"] || views["alice"] != views["carol"] {
		t.Errorf("the entrants were dealt different cards at seat 0:\nalice %s\nbob   %s\ncarol %s", views["alice"], views["bob"], views["carol"])
	}
	deals := map[string]string{}
	for name, tb := range tables {
		var rec string
		sess := map[string]session{"alice": alice, "bob": bob, "carol": carol}[name]
		if code := httpJSON(t, "GET", ts.url+"/api/records/"+tb, sess.Token, nil, &rec); code != 200 {
			t.Fatalf("%s's record: %d", name, code)
		}
		deals[name] = firstDeal(rec)
	}
	if deals["alice"] == "" || deals["alice"] != deals["bob"] || deals["alice"] != deals["carol"] {
		t.Errorf("the records' dealer and deal differ:\n%v", deals)
	}

	// Deal 0 is closed (everyone played it): compared, and linked.
	st := getTournament(t, ts, alice.Token, id)
	sum := 0.0
	for _, row := range st.Standings {
		c := row.Deals[0]
		if c.State != tournament.Played || c.Table == "" {
			t.Errorf("%s deal 0: %+v; want played, with its table named", row.Name, c)
		}
		sum += c.Score
	}
	if !st.Schedule[0].Closed || sum > 0.02 || sum < -0.02 {
		t.Errorf("deal 0: closed %v, scores sum to %v; want closed, 0", st.Schedule[0].Closed, sum)
	}
	bobCell := st.Standings[1].Deals[0]
	if code := httpJSON(t, "GET", ts.url+"/api/records/"+bobCell.Table+"?invite="+bobCell.Invite, alice.Token, nil, nil); code != 200 {
		t.Errorf("alice reads bob's closed deal 0 with the invite: %d", code)
	}

	// Deal 1: alice plays it (seat 1); bob has not: her table is not
	// named to him, its record is refused him, and her result is not
	// shown him either until he has played the deal or it closes (the
	// field's points say how good the shared cards are).
	play1, _ := playTournamentDeal(t, ts, alice, id, 1, 9)
	if play1.Seat != 1 {
		t.Errorf("deal 1 seat %d, want 1", play1.Seat)
	}
	forBob := getTournament(t, ts, bob.Token, id)
	if c := forBob.Standings[0].Deals[1]; c.State != tournament.Pending || c.Points != 0 || c.Score != 0 || c.Table != "" || c.Invite != "" || forBob.Schedule[1].Closed {
		t.Errorf("bob sees alice's open deal 1 as %+v (closed %v); want it pending, without her points or table", c, forBob.Schedule[1].Closed)
	}
	if forBob.Standings[0].Total != st.Standings[0].Total {
		t.Errorf("bob sees alice's total %v, want %v (deal 0's alone)", forBob.Standings[0].Total, st.Standings[0].Total)
	}
	if c := getTournament(t, ts, alice.Token, id).Standings[0].Deals[1]; c.State != tournament.Played {
		t.Errorf("alice sees her own deal 1 as %+v, want played", c)
	}
	if code := httpJSON(t, "GET", ts.url+"/api/records/"+play1.Table, bob.Token, nil, nil); code != http.StatusNotFound {
		t.Errorf("bob reads alice's record of open deal 1: %d, want 404", code)
	}
	// Nor may alice read it herself while the deal is open: every entrant
	// holds these cards, and a second entry of hers would play them
	// knowing every hand. The replay and the analysis are the record too.
	for _, tail := range []string{"", "/replay", "/analysis"} {
		var e protocol.ErrorBody
		if code := httpJSON(t, "GET", ts.url+"/api/records/"+play1.Table+tail, alice.Token, nil, &e); code != http.StatusConflict || e.Error.Code != protocol.NotFinished {
			t.Errorf("alice reads the record%s of her own game of open deal 1: %d %q, want 409 not_finished", tail, code, e.Error.Code)
		}
	}
	if tid, d, ok := parseTournamentTable(play1.Table); !ok || tid != id || d != 1 {
		t.Errorf("table %s names tournament %q deal %d (%v), want %s deal 1", play1.Table, tid, d, ok, id)
	}
	if c := getTournament(t, ts, alice.Token, id).Standings[0].Deals[1]; c.Table != play1.Table {
		t.Errorf("alice's own deal 1 cell %+v does not name her table", c)
	}
	body := ""
	httpJSON(t, "GET", ts.url+"/api/tournaments/"+id, bob.Token, nil, &body)
	if strings.Contains(body, "seed") {
		t.Errorf("the tournament's answer mentions a seed: %s", body)
	}

	// A restart keeps it all.
	ts.stop()
	ts2 := tournamentServer(t, dir, TournamentConfig{})
	again := getTournament(t, ts2, alice.Token, id)
	if again.Status != tournament.Running || len(again.Standings) != 3 || again.Standings[0].Deals[1].State != tournament.Played ||
		again.Standings[1].Deals[0].Score != st.Standings[1].Deals[0].Score {
		t.Errorf("after a restart: %+v", again)
	}
}

// firstDeal is a record's first dealer and deal entries: the lines from
// the first "dealer" or "deal" to the end of the first deal's indented
// lines (every hand, and in 500 Rum the upcard and the stock).
func firstDeal(rec string) string {
	var out []string
	in := false
	for _, l := range strings.Split(rec, "\n") {
		switch {
		case l == "dealer" || strings.HasPrefix(l, "dealer "):
			out = append(out, l)
		case l == "deal":
			in = true
			out = append(out, l)
		case in && strings.HasPrefix(l, "  "):
			out = append(out, l)
		case in:
			return strings.Join(out, "\n")
		}
	}
	return strings.Join(out, "\n")
}

// TestTournamentSameDealEveryGame: in every game, two entrants of a
// tournament are dealt the same first deal (every hand, and 500 Rum's
// upcard and stock) at their own tables.
func TestTournamentSameDealEveryGame(t *testing.T) {
	for _, tc := range []struct {
		game    string
		options map[string]string
	}{
		{"papayoo", map[string]string{"players": "4"}},
		{"rum500", map[string]string{"players": "2", "target": "1", "stock_exhausted": "end_immediately"}},
		{"pisyedili", map[string]string{"players": "3"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			needGame(t, tc.game)
			ts := tournamentServer(t, t.TempDir(), TournamentConfig{})
			a, b := newSession(t, ts.url, "ann"), newSession(t, ts.url, "ben")
			var tn protocol.Tournament
			req := protocol.TournamentCreate{Game: tc.game, Options: tc.options, Deals: 1, BotLevel: "random", MaxEntrants: 2}
			if code := httpJSON(t, "POST", ts.url+"/api/tournaments", a.Token, req, &tn); code != 200 {
				t.Fatalf("create: %d", code)
			}
			if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+tn.ID+"/join", b.Token, nil, nil); code != 200 {
				t.Fatalf("join: %d", code)
			}
			// Both play first: a record of the deal is held until it is
			// closed (TestTournamentSameDeal).
			var tables, deals []string
			for i, s := range []session{a, b} {
				play, _ := playTournamentDeal(t, ts, s, tn.ID, 0, uint64(10+i))
				tables = append(tables, play.Table)
			}
			for i, s := range []session{a, b} {
				var rec string
				if code := httpJSON(t, "GET", ts.url+"/api/records/"+tables[i], s.Token, nil, &rec); code != 200 {
					t.Fatalf("%s's record: %d", s.Name, code)
				}
				deals = append(deals, firstDeal(rec))
			}
			if !strings.Contains(deals[0], "\ndeal\n  0: ") || deals[0] != deals[1] {
				t.Errorf("the two entrants' first deals differ:\n%s\n---\n%s", deals[0], deals[1])
			}
		})
	}
}

// TestTournamentBounds: every number of a create request is range-checked
// and a refused request stores nothing; the bounds of the room, of one
// creator and of entrants refuse with their codes; a deal is playable
// only by an entrant, by number, one at a time, while the tournament runs;
// its table gives no hints.
func TestTournamentBounds(t *testing.T) {
	needGame(t, "papayoo")
	ts := tournamentServer(t, t.TempDir(), TournamentConfig{PerPlayer: 1, MaxEntrants: 4})
	alice, bob := newSession(t, ts.url, "alice"), newSession(t, ts.url, "bob")
	good := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 2, MaxEntrants: 2}
	past := time.Now().Add(-time.Hour)
	far := time.Now().Add(40 * 24 * time.Hour)
	for _, tc := range []struct {
		name string
		mod  func(*protocol.TournamentCreate)
		code protocol.Code
	}{
		{"no deals", func(r *protocol.TournamentCreate) { r.Deals = 0 }, protocol.BadRequest},
		{"13 deals", func(r *protocol.TournamentCreate) { r.Deals = 13 }, protocol.BadRequest},
		{"no entrants", func(r *protocol.TournamentCreate) { r.MaxEntrants = 0 }, protocol.BadRequest},
		{"over the room's entrant bound", func(r *protocol.TournamentCreate) { r.MaxEntrants = 5 }, protocol.BadRequest},
		{"a minute per deal", func(r *protocol.TournamentCreate) { r.DealMinutes = 1 }, protocol.BadRequest},
		{"negative minutes", func(r *protocol.TournamentCreate) { r.DealMinutes = -5 }, protocol.BadRequest},
		{"a year per deal", func(r *protocol.TournamentCreate) { r.DealMinutes = 525600 }, protocol.BadRequest},
		{"a start in the past", func(r *protocol.TournamentCreate) { r.StartAt = &past }, protocol.BadRequest},
		{"a start too far ahead", func(r *protocol.TournamentCreate) { r.StartAt = &far }, protocol.BadRequest},
		{"an unknown level", func(r *protocol.TournamentCreate) { r.BotLevel = "ceiling" }, protocol.BadLevel},
		{"an unknown game", func(r *protocol.TournamentCreate) { r.Game = "chess" }, protocol.UnknownGame},
		{"bad options", func(r *protocol.TournamentCreate) { r.Options = map[string]string{"players": "99"} }, protocol.BadOptions},
	} {
		r := good
		tc.mod(&r)
		var e protocol.ErrorBody
		if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, r, &e); e.Error.Code != tc.code || code != tc.code.HTTPStatus() {
			t.Errorf("%s: %d %s, want %s", tc.name, code, e.Error.Code, tc.code)
		}
	}
	var list protocol.TournamentList
	httpJSON(t, "GET", ts.url+"/api/tournaments", "", nil, &list)
	if len(list.Tournaments) != 0 {
		t.Fatalf("refused requests stored %d tournaments", len(list.Tournaments))
	}
	var a protocol.Tournament
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, good, &a); code != 200 {
		t.Fatalf("create: %d", code)
	}
	var e protocol.ErrorBody
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, good, &e); code != 429 || e.Error.Code != protocol.RateLimited {
		t.Errorf("a second tournament of alice's (limit 1): %d %s, want 429 rate_limited", code, e.Error.Code)
	}
	for _, tc := range []struct {
		name, path string
		sess       session
		status     int
		code       protocol.Code
	}{
		{"a deal before the start", "/deals/0/play", alice, 409, protocol.TournamentClosed},
		{"a deal of a non-entrant", "/deals/0/play", bob, 403, protocol.Forbidden},
		{"deal -1", "/deals/-1/play", alice, 400, protocol.BadRequest},
		{"deal 2 of 2", "/deals/2/play", alice, 400, protocol.BadRequest},
		{"deal 01", "/deals/01/play", alice, 400, protocol.BadRequest},
		{"no such tournament", "x/join", bob, 404, protocol.NoTournament},
	} {
		var e protocol.ErrorBody
		if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+tc.path, tc.sess.Token, nil, &e); code != tc.status || e.Error.Code != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, code, e.Error.Code, tc.status, tc.code)
		}
	}
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+"/join", bob.Token, nil, nil); code != 200 {
		t.Fatalf("bob joins: %d", code)
	}
	carol := newSession(t, ts.url, "carol")
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+"/join", carol.Token, nil, &e); code != 409 || e.Error.Code != protocol.TournamentClosed {
		t.Errorf("carol joins a full tournament: %d %s", code, e.Error.Code)
	}
	var p0, again protocol.TournamentPlay
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+"/deals/0/play", alice.Token, nil, &p0); code != 200 {
		t.Fatalf("deal 0: %d", code)
	}
	if httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+"/deals/0/play", alice.Token, nil, &again); again.Table != p0.Table {
		t.Errorf("asking for deal 0 again gave table %s, not %s", again.Table, p0.Table)
	}
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments/"+a.ID+"/deals/1/play", alice.Token, nil, &e); code != 429 {
		t.Errorf("deal 1 while deal 0 is being played: %d %s, want 429", code, e.Error.Code)
	}
	c := dial(t, ts.url, alice)
	c.send(map[string]any{"type": "hint", "table": p0.Table, "id": "h"})
	if m := c.expect("error", nil); m.str("code") != string(protocol.Forbidden) || !isTournamentTable(p0.Table) {
		t.Errorf("a hint at a tournament's table: %v; want forbidden", m)
	}
	var metrics string
	httpJSON(t, "GET", ts.url+"/metrics", "", nil, &metrics)
	for _, m := range []string{"cardroom_tournaments_created_total 1", "cardroom_tournament_deals_total 1", "cardroom_tournament_refusals_total 2", "cardroom_tournament_entries_total 2"} {
		if !strings.Contains(metrics, m+"\n") {
			t.Errorf("/metrics lacks %q", m)
		}
	}
}

// TestTournamentAdvance: a tournament with a start time starts at it with
// whoever joined, or is cancelled with nobody; one that waits to be full
// is cancelled after FillTTL; a running one finishes at its last deadline,
// and a deal nobody played by then is missed by everyone.
func TestTournamentAdvance(t *testing.T) {
	st := store.NewMemory()
	s := &Server{store: st, tour: newTournaments(TournamentConfig{FillTTL: time.Hour})}
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	base := store.Tournament{Game: "papayoo", Options: "players=3 rounds=1", Deals: 2, BotLevel: "medium", Owner: "p1",
		MaxEntrants: 3, DealTime: 10 * time.Minute, Status: tournament.Open}
	for _, tc := range []struct {
		name     string
		mod      func(*store.Tournament)
		entrants int
		want     string
	}{
		{"start time passed, one entrant", func(t *store.Tournament) { t.StartAt = now.Add(-time.Minute); t.Created = now.Add(-time.Hour) }, 1, tournament.Running},
		{"start time passed, nobody", func(t *store.Tournament) { t.StartAt = now.Add(-time.Minute); t.Created = now.Add(-time.Hour) }, 0, tournament.Cancelled},
		{"start time ahead", func(t *store.Tournament) { t.StartAt = now.Add(time.Minute); t.Created = now }, 1, tournament.Open},
		{"when full, waiting", func(t *store.Tournament) { t.Created = now.Add(-time.Minute) }, 2, tournament.Open},
		{"when full, full", func(t *store.Tournament) { t.Created = now.Add(-time.Minute) }, 3, tournament.Running},
		{"when full, past FillTTL", func(t *store.Tournament) { t.Created = now.Add(-2 * time.Hour) }, 2, tournament.Cancelled},
		{"started long ago: over", func(t *store.Tournament) { t.StartAt = now.Add(-time.Hour); t.Created = now.Add(-2 * time.Hour) }, 1, tournament.Finished},
	} {
		tn := base
		tn.ID = "tn_" + strings.ReplaceAll(tc.name, " ", "_")
		tc.mod(&tn)
		if err := st.CreateTournament(ctx, tn, 100, 100); err != nil {
			t.Fatal(err)
		}
		for i := range tc.entrants {
			st.JoinTournament(ctx, tn.ID, store.Entrant{Player: fmt.Sprint("p", i), Joined: tn.Created}, 0)
		}
		got, _ := st.Tournament(ctx, tn.ID)
		s.advance(ctx, st, &got, nil)
		stored, _ := st.Tournament(ctx, tn.ID)
		if got.Status != tc.want || stored.Status != tc.want {
			t.Errorf("%s: %s (stored %s), want %s", tc.name, got.Status, stored.Status, tc.want)
		}
	}
	over, _ := st.Tournament(ctx, "tn_started_long_ago:_over")
	v := tournamentView(over, nil, "p0", time.Now())
	if len(v.Standings) != 1 || v.Standings[0].Deals[0].State != tournament.Missed || !v.Schedule[1].Closed {
		t.Errorf("the finished tournament's view: %+v", v)
	}
}

// TestResultTotals reads a stored result's totals, and refuses an
// unfinished game's "*" and anything malformed.
func TestResultTotals(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int
		ok   bool
	}{
		{"totals 3 0 12; winners 1", []int{3, 0, 12}, true},
		{"totals -20 60; winners 1", []int{-20, 60}, true},
		{"totals 5 5; winners 0 1", []int{5, 5}, true},
		{"*", nil, false},
		{"", nil, false},
		{"totals; winners", nil, false},
		{"totals 1 x; winners 0", nil, false},
	} {
		got, ok := resultTotals(tc.text)
		if ok != tc.ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("resultTotals(%q) = %v %v, want %v %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
	a := store.Tournament{Seed: 1}
	b := store.Tournament{Seed: 2}
	x, again := dealInvite(a, "tt_x"), dealInvite(a, "tt_x")
	if x != again || x == dealInvite(a, "tt_y") || x == dealInvite(b, "tt_x") || len(x) < 16 {
		t.Errorf("an invite must be fixed for a table and differ between tables and tournaments")
	}
}

// TestParseTournamentTable: the record endpoints read a tournament table's
// deal from its id (tournamentTableID); any other id holds nothing back.
func TestParseTournamentTable(t *testing.T) {
	made := tournamentTableID("tn_abc", 11)
	if !cluster.TableOK(made) {
		t.Errorf("%q is not a NATS subject token: a cluster could not route its table", made)
	}
	for _, c := range []struct {
		id   string
		tid  string
		deal int
		ok   bool
	}{
		{made, "tn_abc", 11, true},
		{"tt_tn_x-0-y", "tn_x", 0, true},
		{"tt_oldstyle23", "", 0, false},  // before the deal was in the id
		{"t_plain", "", 0, false},        // not a tournament table
		{"tt_tn_x-12-y", "", 0, false},   // past tournament.MaxDeals
		{"tt_tn_x--1-y", "", 0, false},   // a negative deal
		{"tt_tn_x-1-y-z", "", 0, false},  // too many parts
		{"tt_-1-y", "", 0, false},        // no tournament
		{"tt_tn_x-0001-y", "", 0, false}, // a deal of more than 3 digits
		{"tt_tn_x-1e1-y", "", 0, false},  // not a decimal
	} {
		tid, d, ok := parseTournamentTable(c.id)
		if ok != c.ok || (ok && (tid != c.tid || d != c.deal)) {
			t.Errorf("%q: %q %d %v, want %q %d %v", c.id, tid, d, ok, c.tid, c.deal, c.ok)
		}
	}
}

// TestTournamentLeaveGraced: an entrant who leaves a deal's table is not
// played by the stand-in at once (hints are refused in a tournament, and
// leave, a bot's move, join again would be one) but after the grace
// period, as for a lost connection (table.Leave's graced).
func TestTournamentLeaveGraced(t *testing.T) {
	needGame(t, "papayoo")
	const grace = 400 * time.Millisecond
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Millisecond, Grace: grace},
		Tournaments: TournamentConfig{PerAddress: -1, PerCreatorAddress: -1}})
	alice := newSession(t, ts.url, "alice")
	var created protocol.Tournament
	req := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 1, BotLevel: "random", MaxEntrants: 1, DealMinutes: 30}
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, req, &created); code != 200 {
		t.Fatalf("create: %d", code)
	}
	var play protocol.TournamentPlay
	if code := httpJSON(t, "POST", fmt.Sprintf("%s/api/tournaments/%s/deals/0/play", ts.url, created.ID), alice.Token, nil, &play); code != 200 {
		t.Fatalf("play deal 0: %d", code)
	}
	c := dial(t, ts.url, alice)
	c.send(map[string]any{"type": "watch", "table": play.Table})
	c.expect("state", nil)
	leaveGraced(t, ts, c, play.Table, play.Seat, grace)
	for deadline := time.Now().Add(5 * time.Second); !ts.s.table(play.Table).Summary().Seats[play.Seat].Away; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stand-in never took the seat after the grace period")
		}
	}
}

// TestDealSeedKept: an entrant's table of a deal takes the seed of a table
// of that deal already opened, so that every entrant holds the same cards
// even when the way deal seeds are derived has changed since the first
// table was opened (a tournament under way across an upgrade); a deal with
// no table yet gets tournament.DealSeed.
func TestDealSeedKept(t *testing.T) {
	s := memServer(t, Config{})
	ctx := context.Background()
	tour := store.Tournament{ID: "k1", Seed: 42}
	old := store.Table{ID: tournamentTableID("k1", 0), Game: "papayoo", Seed: 777, Created: time.Now(), Status: store.StatusPlaying}
	if err := s.store.CreateTable(ctx, old); err != nil {
		t.Fatal(err)
	}
	gs := []store.TournamentGame{
		{Tournament: "k1", Player: "p_a", Deal: 0, Table: old.ID},
		{Tournament: "k1", Player: "p_b", Deal: 0, Table: tournamentTableID("k1", 0)}, // b's, not opened yet
		{Tournament: "k1", Player: "p_c", Deal: 1, Table: tournamentTableID("k1", 1)}, // reserved, never opened
	}
	if got := s.dealSeed(ctx, tour, gs, 0, gs[1].Table); got != 777 {
		t.Errorf("deal 0, a table of it open with seed 777: %d", got)
	}
	if got, want := s.dealSeed(ctx, tour, gs, 1, "tt_k1-1-mine"), tournament.DealSeed(42, 1); got != want {
		t.Errorf("deal 1, no table of it open: %d, want DealSeed %d", got, want)
	}
	if got, want := s.dealSeed(ctx, tour, gs, 0, old.ID), tournament.DealSeed(42, 0); got != want {
		t.Errorf("deal 0 asked for its only open table itself: %d, want DealSeed %d", got, want)
	}
}
