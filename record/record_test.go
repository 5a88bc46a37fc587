package record

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const sample = `[Game "papayoo"]
[Options "players=4 rounds=1"]
[Seat0 "alice \"the ace\""]
[Result "*"]

# a comment
dealer 2
deal
  0: 1S 2S
    1: 3S 4S

2 pass 1S 2S
die H
3 play 7H
`

func TestParseSample(t *testing.T) {
	r, err := ParseString(sample)
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := r.Get("Game"); g != "papayoo" {
		t.Fatalf("Game tag %q", g)
	}
	if s, _ := r.Get("Seat0"); s != `alice "the ace"` {
		t.Fatalf("quoted tag %q", s)
	}
	want := []Entry{
		{Comment: true, Seat: -1, Text: "a comment", Line: 6},
		{Chance: true, Seat: -1, Text: "dealer 2", Line: 7},
		{Chance: true, Seat: -1, Text: "deal\n0: 1S 2S\n1: 3S 4S", Line: 8},
		{Seat: 2, Text: "pass 1S 2S", Line: 12},
		{Chance: true, Seat: -1, Text: "die H", Line: 13},
		{Seat: 3, Text: "play 7H", Line: 14},
	}
	if len(r.Entries) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(r.Entries), len(want), r.Entries)
	}
	for i := range want {
		if r.Entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, r.Entries[i], want[i])
		}
	}
}

// Writing then reading gives the same record (tags, entries, multi-line chance).
func TestWriteParseRoundTrip(t *testing.T) {
	r, err := ParseString(sample)
	if err != nil {
		t.Fatal(err)
	}
	text := r.String()
	r2, err := ParseString(text)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, text)
	}
	if r2.String() != text {
		t.Fatalf("not stable:\n%s\n---\n%s", text, r2.String())
	}
	if len(r2.Entries) != len(r.Entries) || r2.Entries[1].Text != r.Entries[1].Text {
		t.Fatalf("entries differ after round trip")
	}
}

func TestParseErrors(t *testing.T) {
	bad := map[string]string{
		"unclosed tag":              "[Game \"x\"\n",
		"unquoted tag":              "[Game x]\n",
		"duplicate tag":             "[Game \"a\"]\n[Game \"b\"]\n",
		"tag after body":            "die H\n[Game \"a\"]\n",
		"orphan continuation":       "  0: 1S\n",
		"continuation of a move":    "0 play 1S\n  2S\n",
		"continuation of a comment": "deal\n  0: 1S\n# c\n  1: 2S\n",
		"seat without move":         "3\n",
		"garbage":                   "!!\n",
		"huge seat":                 "123 play 1S\n",
		"upper-case keyword":        "Deal\n",
	}
	for name, in := range bad {
		_, err := ParseString(in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: want *SyntaxError, got %v", name, err)
		}
	}
	long := "die " + strings.Repeat("H", MaxLine+10) + "\n"
	if _, err := ParseString(long); err == nil {
		t.Error("overlong line accepted")
	}
}

// BenchmarkParseLong: records of many continuation lines or many tags
// (what only a crafted file holds) parse in time linear in their size: a
// line's continuation was appended to its entry's text, and a tag checked
// against every earlier one, so a megabyte took minutes. Compare ns/op
// across the sizes: 10–20× from 10,000 to 100,000 lines (it was 100×).
func BenchmarkParseLong(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		cont := "deal\n" + strings.Repeat("  x\n", n)
		var tags strings.Builder
		for i := range n {
			fmt.Fprintf(&tags, "[T%d \"v\"]\n", i)
		}
		for name, text := range map[string]string{"continuations": cont, "tags": tags.String()} {
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := ParseString(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The record decoder never panics, and what it accepts writes back to a
// record that parses to the same text.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("[A \"\"]\n0 x\n")
	f.Add("deal\n\t0: 1S\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseString(s)
		if err != nil {
			return
		}
		text := r.String()
		r2, err := ParseString(text)
		if err != nil {
			t.Fatalf("written record does not parse: %v\n%q", err, text)
		}
		if r2.String() != text {
			t.Fatalf("unstable:\n%q\n%q", text, r2.String())
		}
	})
}
