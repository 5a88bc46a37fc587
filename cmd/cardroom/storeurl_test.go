package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestStoreURLCommands: serve refuses a -store that is not a PostgreSQL
// URL; backup and doctor say they are SQLite-only when CARDROOM_STORE
// names PostgreSQL (without showing its password), unless -data names a
// SQLite room explicitly.
func TestStoreURLCommands(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		env     string
		run     func([]string, io.Writer, io.Writer) int
		args    []string
		want    string
		wantNot string
	}{
		{"serve mysql", "", runServe, []string{"-addr", "127.0.0.1:0", "-store", "mysql://u@h/db"}, "want a postgres://", ""},
		{"serve env mysql", "mysql://u@h/db", runServe, []string{"-addr", "127.0.0.1:0"}, "want a postgres://", ""},
		{"backup on postgres", "postgres://u:hunter2@db.example/room", runBackup, []string{dir + "/copy.db"}, "SQLite store only", "hunter2"},
		{"doctor on postgres", "postgres://u:hunter2@db.example/room", runDoctor, nil, "SQLite store only", "hunter2"},
		{"doctor with -data", "postgres://u:hunter2@db.example/room", runDoctor, []string{"-data", dir}, "no database at", "SQLite store only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CARDROOM_STORE", tc.env)
			t.Setenv("CARDROOM_DATA", dir)
			var out, errb bytes.Buffer
			code := tc.run(tc.args, &out, &errb)
			if code != 1 || !strings.Contains(errb.String(), tc.want) || (tc.wantNot != "" && strings.Contains(errb.String(), tc.wantNot)) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %q (without %q)", code, errb.String(), tc.want, tc.wantNot)
			}
		})
	}
}
