package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
	"cardroom/store"
	"cardroom/store/pgtest"
	"cardroom/table"
)

// FuzzHTTPBodies sends arbitrary bytes as the JSON body of the endpoints
// that take one (POST /api/session, /api/tables and /api/quickplay, the
// last two with a valid session) through the whole handler, and checks
// the server's contract for bad input: no 5xx but 503 (busy), a JSON error
// with a code on every 4xx, and the server still answers /healthz. The
// seeds are the inputs that have crashed or threatened the server before:
// seats and bot seats far out of range, options overflowing int, deep
// nesting, huge numbers, invalid UTF-8.
func FuzzHTTPBodies(f *testing.F) {
	for _, seed := range []string{
		`{"name":"alice"}`,
		`{"game":"papayoo","options":{"rounds":"1"},"seat":0}`,
		`{"game":"papayoo","seat":1000000000}`,
		`{"game":"papayoo","seat":9223372036854775807}`,
		`{"game":"papayoo","seat":-9223372036854775808}`,
		`{"game":"papayoo","seat":3,"bots":{"3":"random"}}`,
		`{"game":"rum500","options":{"go_out_bonus":"9223372036854775807"}}`,
		`{"game":"rum500","options":{"target":"-1"}}`,
		`{"game":"papayoo","options":{"players":"99999999999999999999"}}`,
		`{"game":"pisyedili","options":{"hands":"1000000000"}}`,
		`{"bots":{"99999999999":"random"}}`,
		`{"game":"papayoo","bots":{"-1":"random","0":"hard"}}`,
		`{"game":"papayoo","level":"nonsense"}`,
		`{"game":"papayoo","clock_ms":1e308}`,
		`{"game":"papayoo","clock_ms":-1}`,
		`{"game":"papayoo","seat":1e400}`,
		strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat(`}`, 10000),
		strings.Repeat(`[`, 5000),
		`{"name":"` + strings.Repeat("9", 5000) + `"}`,
		"{\"name\":\"\xff\xfe\"}",
		"{\"game\":\"papa\xc0yoo\"}",
		`{"name":"\u202ealice"}`,
		`null`, `[]`, `""`, `0`, `{}`, ``, `{`, `{"game":null,"options":null,"bots":null,"seat":null}`,
		`{"options":{"":""}}`, `{"game":"papayoo","options":{"a b":"c,d"}}`,
	} {
		f.Add([]byte(seed))
	}
	s := memServer(f, Config{HTTPRate: -1, SessionsPerIPPerHour: -1, Table: table.Config{BotDelay: time.Hour}})
	f.Fuzz(func(t *testing.T, body []byte) {
		// A fresh player and no tables left from the last input: the
		// per-player table quotas must not hide the paths behind them.
		tok, _, err := s.NewSession(context.Background(), "fuzzer")
		if err != nil {
			t.Fatal(err)
		}
		defer stopTables(s)
		for _, path := range []string{"/api/session", "/api/tables", "/api/quickplay"} {
			req := httptest.NewRequest("POST", path, strings.NewReader(string(body)))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			if what := fmt.Sprintf("POST %s %q", path, body); !checkRefusal(t, what, w) && w.Code != 200 {
				t.Errorf("%s: status %d", what, w.Code)
			}
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
		if w.Code != 200 {
			t.Fatalf("after %q: /healthz %d", body, w.Code)
		}
	})
}

// checkRefusal checks an answer against the contract for bad input: no
// 5xx but 503, and a JSON error with a code on every 4xx. It reports
// whether the answer was a refusal (a status of 400 or more).
func checkRefusal(t *testing.T, what string, w *httptest.ResponseRecorder) bool {
	t.Helper()
	switch {
	case w.Code >= 500 && w.Code != http.StatusServiceUnavailable:
		t.Errorf("%s: %d %s", what, w.Code, w.Body)
	case w.Code >= 400:
		if errCode(w.Body.Bytes()) == "" {
			t.Errorf("%s: %d with no JSON error code: %s", what, w.Code, w.Body)
		}
	}
	return w.Code >= 400
}

// stopTables stops every table of s (they leave s.tables when stopped).
func stopTables(s *Server) {
	s.mu.Lock()
	ts := make([]*table.Table, 0, len(s.tables))
	for _, t := range s.tables {
		ts = append(ts, t)
	}
	s.mu.Unlock()
	for _, t := range ts {
		t.Stop()
	}
}

// httpRoutes are the room's HTTP endpoints, as FuzzHTTPRequests calls
// them ({x}: a path value it fills in).
var httpRoutes = []string{
	"POST /api/session", "GET /api/session", "POST /api/logout", "GET /api/games", "GET /api/tables", "GET /api/online",
	"POST /api/tables", "GET /api/tables/{table}", "POST /api/quickplay", "GET /api/records/{table}",
	"GET /api/records/{table}/replay", "GET /api/records/{table}/analysis", "GET /api/history",
	"GET /api/players/{player}/history", "GET /api/players/{player}", "GET /api/players/{player}/ratings",
	"GET /api/ratings/{game}", "GET /api/ratings/{game}/players", "POST /api/login", "POST /api/account",
	"GET /api/account", "POST /api/account/password", "GET /api/sessions", "DELETE /api/sessions/{session}",
	"POST /api/account/bot", "GET /api/account/bot", "DELETE /api/account/bot/tokens/{session}",
	"GET /api/tournaments", "POST /api/tournaments", "GET /api/tournaments/{tournament}",
	"POST /api/tournaments/{tournament}/join", "POST /api/tournaments/{tournament}/deals/{deal}/play",
	"GET /healthz",
}

// FuzzHTTPRequests sends sequences of up to 8 requests to every endpoint
// of the room, with path values (tables finished, in play and missing,
// players, games, tournaments, deals), query parameters (steps, seats,
// offsets, limits, invites: small, negative, huge, not numbers), tokens
// (a guest's, nobody's, forged) and bodies drawn from the input, and
// checks the contract for bad input: no 5xx but 503, a JSON error with a
// code on every 4xx, valid JSON in every answer that says it is JSON
// (a record is text), and /healthz still
// up. And what is hidden stays hidden: no answer to the fuzzer (who is
// not seated there) carries a card of a hand of the game in play, whose
// record and replay are not public until it ends.
func FuzzHTTPRequests(f *testing.F) {
	addHTTPSeeds(f)
	httpRequests(f, memServer(f, httpFuzzConfig(Config{})))
}

// FuzzHTTPRequestsPostgres is FuzzHTTPRequests on the PostgreSQL store
// (a cluster's): its SQL is another dialect, and PostgreSQL refuses text
// SQLite takes (a NUL byte, invalid UTF-8), which must be a 4xx, never a
// 500.
func FuzzHTTPRequestsPostgres(f *testing.F) {
	u := pgtest.Require(f)
	st, err := store.OpenPostgres(context.Background(), u)
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(httpFuzzConfig(Config{Store: st, Log: quietLog()}))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Shutdown(context.Background()) })
	addHTTPSeeds(f)
	httpRequests(f, s)
}

func addHTTPSeeds(f *testing.F) {
	for _, seed := range []string{
		"", "\x09\x00", "\x0a\x01\x01\x00", "\x0b\x01\x02\x30", "\x0a\x02\x03\xff\xff\x07",
		"\x10\x00\x11\x01\x12\x02", "\x1d\x03\x1e\x01\x1f\x00\x00", "\x07\x00\x00\x00", "\x18\x01\x05secret",
		"\x0e\x03\x03\x00\x0f\x03", "\x0d\x00\x02\x02\x00\x02\x02\x00",
	} {
		f.Add([]byte(seed))
	}
}

// httpFuzzConfig is cfg with the per-address limits out of the fuzzer's
// way and bots that move at once.
func httpFuzzConfig(cfg Config) Config {
	cfg.HTTPRate, cfg.SessionsPerIPPerHour, cfg.OpenTablesPerIP, cfg.TablesPerIP = -1, -1, -1, -1
	cfg.Table = table.Config{BotDelay: 0, Grace: time.Hour}
	return cfg
}

// httpRequests is the body of FuzzHTTPRequests on the server s.
func httpRequests(f *testing.F, s *Server) {
	ctx := context.Background()
	hostTok, host, err := s.NewSession(ctx, "host")
	if err != nil {
		f.Fatal(err)
	}
	post := func(path, token, body string) []byte {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code != 200 {
			f.Fatalf("POST %s %s: %d %s", path, body, w.Code, w.Body)
		}
		return w.Body.Bytes()
	}
	var made struct {
		ID string `json:"id"`
	}
	// A game of bots that ends at once (its record public), and a game in
	// play that waits for the host's pass (its hands hidden).
	json.Unmarshal(post("/api/tables", hostTok, `{"game":"papayoo","options":{"rounds":"1"},"bots":{"0":"random","1":"random","2":"random","3":"random"}}`), &made)
	finished := made.ID
	json.Unmarshal(post("/api/tables", hostTok, `{"game":"papayoo","seat":0,"bots":{"1":"random","2":"random","3":"random"}}`), &made)
	playing := made.ID
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if t := s.table(finished); t == nil || t.Summary().Status == store.StatusFinished {
			break
		}
		if time.Now().After(deadline) {
			f.Fatal("the bots' game did not end")
		}
	}
	// The hidden cards: every card in a hand of the game in play.
	eng, _ := games.Lookup("papayoo")
	meta, err := s.store.Table(ctx, playing)
	if err != nil {
		f.Fatal(err)
	}
	events, err := s.store.Events(ctx, playing)
	if err != nil {
		f.Fatal(err)
	}
	st, err := record.Replay(eng, table.Record(meta, events), nil)
	if err != nil {
		f.Fatal(err)
	}
	hidden := map[string]bool{}
	public := func() map[string]bool { b, _ := json.Marshal(st.View(-1)); return cardSet(eng.Deck(), string(b)) }()
	for seat := 0; seat < st.Seats(); seat++ {
		b, _ := json.Marshal(st.View(game.Seat(seat)))
		for c := range cardSet(eng.Deck(), string(b)) {
			hidden[c] = hidden[c] || !public[c]
		}
	}
	if len(hidden) < 40 {
		f.Fatalf("the game in play hides %d cards; want its hands", len(hidden))
	}
	inputs := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		// A fresh guest each input (the last may have claimed its name).
		inputs++
		tok, _, err := s.NewSession(ctx, "fuzzer"+strconv.Itoa(inputs))
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			// The fuzzer's own tables go; the two games stay.
			s.mu.Lock()
			var mine []*table.Table
			for id, tb := range s.tables {
				if id != playing && id != finished {
					mine = append(mine, tb)
				}
			}
			s.mu.Unlock()
			for _, tb := range mine {
				tb.Stop()
			}
		}()
		g := &fuzzGen{data: data}
		for n := 0; n < 8 && g.more(); n++ {
			route := httpRoutes[int(g.byte())%len(httpRoutes)]
			method, path, _ := strings.Cut(route, " ")
			for _, p := range []struct{ name, value string }{
				{"{table}", g.pick(finished, playing, "t_missing", "..", "t_\x00", "t_\xc0", "t_"+strings.Repeat("z", 300))},
				{"{player}", g.pick(host.Player, "p_missing", "host", "\x00", "p\xff", strings.Repeat("p", 300))},
				{"{game}", g.pick("papayoo", "rum500", "pisyedili", "chess", "")},
				{"{tournament}", g.pick("u_missing", "", "1", "\x00", finished)},
				{"{deal}", strconv.FormatInt(g.num(), 10)},
				{"{session}", g.pick("0", "x", strings.Repeat("f", 64), "-1")},
			} {
				path = strings.Replace(path, p.name, url.PathEscape(p.value), 1)
			}
			q := url.Values{}
			for k := int(g.byte() % 4); k > 0; k-- {
				name := g.pick("step", "seat", "offset", "limit", "game", "invite", "history_from", "id", "token")
				q.Add(name, g.pick(strconv.FormatInt(g.num(), 10), "", "x", "1e9", "99999999999999999999", host.Player, "papayoo", g.text()))
			}
			if len(q) > 0 {
				path += "?" + q.Encode()
			}
			body := ""
			if method != "GET" {
				body = g.pick(`{}`, `{"game":"papayoo","seat":0}`, `{"name":"fuzzer2","password":"a long password 1"}`,
					`{"password":"a long password 1"}`, `{"old":"x","new":"a long password 2"}`, `{"game":"papayoo","deals":2,"start":"when_full"}`,
					`{"label":"`+g.text()+`"}`, g.text())
			}
			token := g.pick(tok, tok, "", "garbage", "bot_"+strings.Repeat("0", 64))
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			what := method + " " + path + " " + body
			if !checkRefusal(t, what, w) && strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") && !json.Valid(w.Body.Bytes()) {
				t.Errorf("%s: %d, not JSON: %.300s", what, w.Code, w.Body)
			}
			// What could tell of the game in play: its own endpoints and
			// the lists that name it (other answers, the finished game's
			// record first, hold cards of other deals).
			about := strings.Contains(path, playing) || route == "GET /api/tables" || route == "GET /api/history" ||
				route == "GET /api/online" || strings.Contains(path, "/api/players/"+host.Player)
			if w.Code < 300 && about {
				for c := range cardSet(eng.Deck(), w.Body.String()) {
					if hidden[c] {
						t.Errorf("LEAK: %s answered card %s of a hand of the game in play: %.300s", what, c, w.Body)
					}
				}
			}
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
		if w.Code != 200 {
			t.Fatalf("after %q: /healthz %d", data, w.Code)
		}
	})
}
