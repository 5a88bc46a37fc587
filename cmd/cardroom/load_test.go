package main

import (
	"strings"
	"testing"
)

// TestLoadURLFlag: a bad -url list is a usage error (exit 2) that names
// the problem, before any connection is tried.
func TestLoadURLFlag(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"ftp://a:1", "want http://host:port"},
		{"http://a:1,,http://b:2", "empty URL"},
		{"http://a:1,http://a:1", "named twice"},
	} {
		var out, errOut strings.Builder
		if code := runLoad([]string{"-url", c.url}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "load: -url: ") || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("-url %s: exit %d, stderr %q; want 2 and %q", c.url, code, errOut.String(), c.want)
		}
	}
}
