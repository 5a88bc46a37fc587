package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"cardroom/store"
)

// sqliteOnlyFlags are serve's flags that tune the SQLite store: with a
// PostgreSQL store they do nothing, and serve says so rather than let an
// operator believe, say, -sync full made commits safer.
var sqliteOnlyFlags = []string{"sync", "busy-timeout", "wal-limit", "checkpoint", "commit-window", "page-size", "data"}

// isPostgresURL reports whether s names a PostgreSQL database.
func isPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// redactURL is a URL without its password, for logs and messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// openPostgresStore opens serve's -store URL (30 s to connect and
// migrate) and returns the store and the URL without its password.
func openPostgresStore(fs *flag.FlagSet, raw string, log *slog.Logger) (*store.Postgres, string, error) {
	if !isPostgresURL(raw) {
		return nil, "", errors.New("want a postgres://… URL, or nothing for the SQLite file in -data")
	}
	fs.Visit(func(f *flag.Flag) {
		for _, n := range sqliteOnlyFlags {
			if f.Name == n {
				log.Warn("flag ignored: it applies to the SQLite store only", "flag", "-"+n)
			}
		}
	})
	where := redactURL(raw)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := store.OpenPostgres(ctx, raw) // its errors name host, port and database, never the password
	if err != nil {
		return nil, "", err
	}
	return pg, where, nil
}

// sqliteOnly stops a command that works on the SQLite file (backup,
// doctor) when CARDROOM_STORE says the room runs on PostgreSQL, whose
// own tools do that job, unless -data names a SQLite room explicitly: it
// says so on stderr and reports true.
func sqliteOnly(fs *flag.FlagSet, cmd string, stderr io.Writer) bool {
	if !isPostgresURL(os.Getenv("CARDROOM_STORE")) {
		return false
	}
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "data" })
	if explicit {
		return false
	}
	fmt.Fprintf(stderr, "%s: works on the SQLite store only, and CARDROOM_STORE names a PostgreSQL database (%s): use pg_dump for a backup and amcheck for integrity (docs/cluster.md)\n",
		cmd, redactURL(os.Getenv("CARDROOM_STORE")))
	return true
}
