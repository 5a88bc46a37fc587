package pgtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// TestSchemasAreApart: each URL is its own schema, so a table made through
// one is invisible through the other.
func TestSchemasAreApart(t *testing.T) {
	a, b := Require(t), Require(t)
	ctx := context.Background()
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE only_a (x int)"); err != nil {
		t.Fatal(err)
	}
	if _, err := cb.Exec(ctx, "SELECT * FROM only_a"); err == nil {
		t.Error("a table of one schema is visible from another's URL")
	}
	if _, err := ca.Exec(ctx, "SELECT * FROM only_a"); err != nil {
		t.Errorf("the table is not visible from its own URL: %v", err)
	}
}

// TestFindBinaries: the newest version with all three server binaries
// wins; a version missing one is passed over; none is an error naming
// where it looked.
func TestFindBinaries(t *testing.T) {
	mk := func(root, ver string, names ...string) {
		dir := filepath.Join(root, ver, "bin")
		os.MkdirAll(dir, 0o755)
		for _, n := range names {
			os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755)
		}
	}
	all := []string{"initdb", "pg_ctl", "postgres"}
	cases := []struct {
		name   string
		layout map[string][]string
		want   string // the version picked; "" for an error
	}{
		{"newest wins", map[string][]string{"13": all, "15": all, "9": all}, "15"},
		{"incomplete passed over", map[string][]string{"14": all, "16": {"initdb", "pg_ctl"}}, "14"},
		{"none", map[string][]string{"16": {"psql"}}, ""},
	}
	old := binGlob
	defer func() { binGlob = old }()
	for _, tc := range cases {
		root := t.TempDir()
		for v, names := range tc.layout {
			mk(root, v, names...)
		}
		binGlob = filepath.Join(root, "*", "bin")
		got, err := findBinaries()
		switch {
		case tc.want == "" && (err == nil || !strings.Contains(err.Error(), binGlob)):
			t.Errorf("%s: %q, %v; want an error naming %s", tc.name, got, err, binGlob)
		case tc.want != "" && (err != nil || got != filepath.Join(root, tc.want, "bin")):
			t.Errorf("%s: %q, %v; want version %s", tc.name, got, err, tc.want)
		}
	}
}
