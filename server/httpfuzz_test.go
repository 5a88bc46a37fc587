package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardroom/table"

	"cardroom/protocol"
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
			switch {
			case w.Code >= 500 && w.Code != http.StatusServiceUnavailable:
				t.Errorf("POST %s %q: %d %s", path, body, w.Code, w.Body)
			case w.Code >= 400:
				var e struct {
					Error protocol.ErrorDetail `json:"error"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Code == "" {
					t.Errorf("POST %s %q: %d with no JSON error code: %s", path, body, w.Code, w.Body)
				}
			case w.Code != 200:
				t.Errorf("POST %s %q: status %d", path, body, w.Code)
			}
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
		if w.Code != 200 {
			t.Fatalf("after %q: /healthz %d", body, w.Code)
		}
	})
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
