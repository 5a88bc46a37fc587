package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardroom/store"
)

// TestReports: the command lists a stored report, in text (a control
// character in the stored text quoted, never printed raw) and JSON, and
// refuses bad usage.
func TestReports(t *testing.T) {
	dir := t.TempDir()
	st, err := store.OpenSQLite(filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	err = st.AddChatReport(context.Background(), store.ChatReport{Reporter: "p_b", ReporterName: "bob", Reason: "rude", At: at,
		Line: store.ChatLine{Table: "t_x", ID: 7, Channel: "players", Player: "p_a", Name: "alice", Text: "you \x1b[31mfool", At: at}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", dir}, 0, `alice (p_a) at 2026-12-01T12:00:00Z: you \x1b[31mfool`},
		{[]string{"--data", dir, "--json"}, 0, `"reporter_name": "bob"`},
		{[]string{"--data", dir, "--limit", "0"}, 2, ""},
		{[]string{"--data", dir, "extra"}, 2, ""},
		{[]string{"--data", filepath.Join(dir, "none")}, 1, ""},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := runReports(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), "\x1b") {
			t.Errorf("%v: exit %d (want %d)\n%s%s", tc.args, code, tc.code, out.String(), errb.String())
		}
		if tc.code == 0 && strings.Contains(strings.Join(tc.args, " "), "json") {
			var v []map[string]any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v) != 1 || v[0]["line"] != float64(7) {
				t.Errorf("json: %v %v", v, err)
			}
		}
	}
}
