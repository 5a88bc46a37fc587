package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/server"
	"cardroom/store"
)

// TestProfilePage: a stranger opens alice's profile from the leaderboard:
// her name, member since, games and wins per game, her rating, the rating
// chart (one point per rated game, the provisional part marked), and her
// recent games with replay links, but not the private game she played with
// bob. The page fits a phone and a desktop in Polish without sideways
// scrolling; the stranger's own name in the header opens their own (guest)
// profile.
func TestProfilePage(t *testing.T) {
	var st store.Store
	e := newEnv(t, func(c *server.Config) { st = c.Store })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alice, err := protocol.NewSession(ctx, nil, e.base, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.Claim(ctx, nil, e.base, alice.Token, "", "alice's password"); err != nil {
		t.Fatal(err)
	}
	bob, err := protocol.NewSession(ctx, nil, e.base, "bob")
	if err != nil {
		t.Fatal(err)
	}
	// Alice's games, straight into the store: three rated papayoo games
	// (won, lost, won), a public casual rum500 game (won) and a private one
	// at her table with bob (lost).
	at := time.Now().UTC().Add(-48 * time.Hour)
	botSeat := store.Seat{Bot: "medium", Name: "bot"}
	aliceSeat := store.Seat{Player: alice.Player, Name: "alice"}
	type row struct {
		id     string
		rated  bool
		tbl    store.Table
		winner int
	}
	rows := []row{
		{"t_e2eprof_r1", true, store.Table{Game: "papayoo", Seats: []store.Seat{aliceSeat, botSeat, botSeat, botSeat}}, 0},
		{"t_e2eprof_r2", true, store.Table{Game: "papayoo", Seats: []store.Seat{botSeat, aliceSeat, botSeat, botSeat}}, 0},
		{"t_e2eprof_r3", true, store.Table{Game: "papayoo", Seats: []store.Seat{botSeat, botSeat, aliceSeat, botSeat}}, 2},
		{"t_e2eprof_c1", false, store.Table{Game: "rum500", Seats: []store.Seat{aliceSeat, botSeat}}, 0},
		{"t_e2eprof_p1", false, store.Table{Game: "rum500", Private: true, Owner: alice.Player, Invite: "hush",
			Seats: []store.Seat{aliceSeat, {Player: bob.Player, Name: "bob"}}}, 1},
	}
	rs := st.(store.Ratings)
	for i, r := range rows {
		tb := r.tbl
		tb.ID, tb.Rated, tb.Status, tb.BotLevel = r.id, r.rated, store.StatusFinished, "medium"
		tb.Created, tb.Finished = at.Add(time.Duration(i)*time.Hour), at.Add(time.Duration(i)*time.Hour+20*time.Minute)
		tb.Winners = []game.Seat{game.Seat(r.winner)}
		if err := st.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		if !r.rated {
			continue
		}
		g := store.RatedGame{Table: r.id, Game: tb.Game, At: tb.Finished}
		for s, seat := range tb.Seats {
			rank := 1
			if s == r.winner {
				rank = 0
			}
			if seat.Player == "" {
				g.Seats = append(g.Seats, store.RatedSeat{Player: "bot:medium", Name: "bot:medium", Rank: rank})
			} else {
				g.Seats = append(g.Seats, store.RatedSeat{Player: seat.Player, Name: seat.Name, Rank: rank})
			}
		}
		if _, err := rs.ApplyRatedGame(ctx, server.RatingParams, g); err != nil {
			t.Fatal(err)
		}
	}
	var want protocol.Profile
	req, _ := http.NewRequestWithContext(ctx, "GET", e.base+"/api/players/"+alice.Player, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&want)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("alice's profile over HTTP: %d %v", resp.StatusCode, err)
	}
	if len(want.History) != 1 || len(want.History[0].Points) != 3 {
		t.Fatalf("alice's profile over HTTP: %+v", want)
	}

	b := e.tab("carol")
	b.login("carol")
	b.must(10*time.Second, "open alice's profile from the leaderboard",
		clickOn(tid("ratings-link")),
		waitVisible(tid("ratings-table")),
		clickOn(`[data-player="`+alice.Player+`"] [data-testid="ratings-player"]`),
		waitVisible(tid("profile-chart-papayoo")),
	)
	type page struct {
		Hash        string   `json:"hash"`
		Name        string   `json:"name"`
		Since       string   `json:"since"`
		Games       []string `json:"games"`
		Points      []string `json:"points"`
		Provisional bool     `json:"provisional"`
		Recent      []string `json:"recent"`
		Replays     []string `json:"replays"`
		Label       string   `json:"label"`
	}
	const readJS = `(() => ({
	  hash: location.hash,
	  name: document.querySelector('[data-testid=profile-name]').textContent,
	  since: document.querySelector('[data-testid=profile-since]').textContent,
	  games: [...document.querySelectorAll('[data-testid=profile-games] tbody tr')].map((r) => r.dataset.game + '|' + [...r.cells].slice(1).map((c) => c.textContent).join('|')),
	  points: [...document.querySelectorAll('[data-testid=profile-chart-papayoo] circle')].map((c) => c.dataset.provisional),
	  provisional: !!document.querySelector('[data-testid=profile-chart-papayoo] [data-testid=chart-provisional]'),
	  recent: [...document.querySelectorAll('[data-testid=profile-recent] tbody tr')].map((r) => r.dataset.table),
	  replays: [...document.querySelectorAll('[data-testid=profile-replay]')].map((a) => a.getAttribute('href')),
	  label: document.querySelector('[data-testid=profile-chart-papayoo]').getAttribute('aria-label'),
	}))()`
	got, err := eval[page](b, readJS)
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash != "#/players/"+alice.Player || got.Name != "alice" || !strings.Contains(got.Since, "Member since") {
		t.Errorf("profile head: %+v", got)
	}
	wantRating := fmt.Sprint(want.Ratings[0].Rating)
	if want.Ratings[0].Provisional {
		wantRating += "?"
	}
	if len(got.Games) != 2 || got.Games[0] != "papayoo|3|2|"+wantRating || got.Games[1] != "rum500|1|1|–" {
		t.Errorf("games per game = %q, want papayoo 3 games 2 wins rating %s, rum500 1 game 1 win", got.Games, wantRating)
	}
	var wantPoints []string
	anyProvisional := false
	for _, p := range want.History[0].Points {
		wantPoints = append(wantPoints, fmt.Sprint(p.Provisional))
		anyProvisional = anyProvisional || p.Provisional
	}
	if strings.Join(got.Points, ",") != strings.Join(wantPoints, ",") || got.Provisional != anyProvisional {
		t.Errorf("chart points %v (dashed %v), want %v", got.Points, got.Provisional, wantPoints)
	}
	if !strings.Contains(got.Label, fmt.Sprint(want.History[0].Points[0].Rating)) || !strings.Contains(got.Label, fmt.Sprint(want.Ratings[0].Rating)) {
		t.Errorf("chart label %q does not say from and to", got.Label)
	}
	wantRecent := []string{"t_e2eprof_c1", "t_e2eprof_r3", "t_e2eprof_r2", "t_e2eprof_r1"}
	if strings.Join(got.Recent, ",") != strings.Join(wantRecent, ",") || len(got.Replays) != 4 || got.Replays[0] != "#/replay/t_e2eprof_c1" {
		t.Errorf("recent games %v (replays %v), want %v: the private game hidden", got.Recent, got.Replays, wantRecent)
	}

	// The chart in Polish, at a desktop's and a phone's width.
	b.setLang("pl")
	for _, v := range []viewport{desktop, phone} {
		b.resize(v)
		b.must(5*time.Second, "the chart at "+v.name, waitVisible(tid("profile-chart-papayoo")))
		b.checkFits("profile pl " + v.name)
		b.checkContrast("profile pl " + v.name)
		w, err := eval[float64](b, `document.querySelector('[data-testid=profile-chart-papayoo]').getBoundingClientRect().width`)
		if err != nil || w < 200 || w > float64(v.width) {
			t.Errorf("%s: the chart is %.0f px wide (%v)", v.name, w, err)
		}
		b.screenshot("profile-pl-" + v.name)
	}
	if since, _ := eval[string](b, `document.querySelector('[data-testid=profile-since]').textContent`); !strings.Contains(since, "Członek od") {
		t.Errorf("member since in Polish: %q", since)
	}

	// A replay link opens the replay view.
	b.must(10*time.Second, "open a replay", clickOn(`[data-table="t_e2eprof_c1"] [data-testid="profile-replay"]`),
		pollFor[chromedp.Void](`location.hash === '#/replay/t_e2eprof_c1'`))

	// Her own name in the header (which a phone's header leaves out):
	// carol's guest profile, no games yet.
	b.resize(desktop)
	b.must(10*time.Second, "open my own profile", clickOn(tid("me-name")), waitVisible(tid("profile-no-games")))
	mine, err := eval[page](b, `(() => ({hash: location.hash, name: document.querySelector('[data-testid=profile-name]').textContent,
	  since: document.querySelector('[data-testid=profile-since]').textContent}))()`)
	if err != nil || mine.Name != "carol" || !strings.HasPrefix(mine.Hash, "#/players/p_") || !strings.Contains(mine.Since, "Gość") {
		t.Errorf("carol's own profile: %+v (%v)", mine, err)
	}
	e.checkJS()
}
