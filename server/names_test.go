package server

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"cardroom/table"

	"cardroom/protocol"
)

// TestValidName: the display-name rules of names.go, one case per rule.
// want "" means refused; inErr is a fragment the refusal must contain so
// that the player learns what to change.
func TestValidName(t *testing.T) {
	cases := []struct {
		name, in, want, inErr string
	}{
		{"plain", "alice", "alice", ""},
		{"trimmed", "  alice  ", "alice", ""},
		{"spaces collapsed", "alice   in  wonderland", "alice in wonderland", ""},
		{"punctuation allowed", "a_b-c.d 7", "a_b-c.d 7", ""},
		{"fullwidth to ASCII", "ａｌｉｃｅ", "alice", ""},
		{"ligature to letters", "ﬁona", "fiona", ""},
		{"no-break space becomes a space", "ali\u00a0ce", "ali ce", ""},
		{"ideographic space collapsed", "a\u3000\u3000b", "a b", ""},
		{"decomposed composed", "R\u030cehor\u030c", "Řehoř", ""},
		{"Cyrillic", "Алиса", "Алиса", ""},
		{"Turkish", "Çağla", "Çağla", ""},
		{"Polish", "Łukasz", "Łukasz", ""},
		{"Czech", "Řehoř", "Řehoř", ""},
		{"Greek", "Νίκος", "Νίκος", ""},
		{"Cyrillic with digits", "Иван 2", "Иван 2", ""},
		{"Japanese and Latin", "Taro太郎", "Taro太郎", ""},
		{"24 characters", strings.Repeat("é", 24), strings.Repeat("é", 24), ""},

		{"empty", "", "", "1 to 24"},
		{"only spaces", "    ", "", "1 to 24"},
		{"25 characters", strings.Repeat("x", 25), "", "1 to 24"},
		{"25 after normalization", strings.Repeat("ﬁ", 13), "", "1 to 24"},
		{"bot prefix", "bot:hard", "", ""}, // ':' is refused before the prefix rule
		{"markup", "<script>", "", "not allowed"},
		{"tab", "ali\tce", "", "control"},
		{"newline", "alice\n", "", "control"},
		{"NUL", "al\x00ice", "", "control"},
		{"right-to-left override", "\u202eecila", "", "bidirectional"},
		{"left-to-right embedding", "al\u202aice", "", "bidirectional"},
		{"pop directional formatting", "alice\u202c", "", "bidirectional"},
		{"isolate", "\u2066alice\u2069", "", "bidirectional"},
		{"first strong isolate", "al\u2068ice", "", "bidirectional"},
		{"right-to-left mark", "alice\u200f", "", "bidirectional"},
		{"left-to-right mark", "\u200ealice", "", "bidirectional"},
		{"Arabic letter mark", "alice\u061c", "", "bidirectional"},
		{"zero-width space", "al\u200bice", "", "zero-width"},
		{"zero-width non-joiner", "al\u200cice", "", "zero-width"},
		{"zero-width joiner", "al\u200dice", "", "zero-width"},
		{"word joiner", "al\u2060ice", "", "zero-width"},
		{"byte-order mark", "\ufeffalice", "", "zero-width"},
		{"soft hyphen (Cf)", "al\u00adice", "", "format"},
		{"interlinear annotation (Cf)", "al\ufff9ice", "", "format"},
		{"Hangul filler", "\u3164", "", "invisible"},
		{"combining mark alone", "a\u0489", "", "not allowed"},
		{"invalid UTF-8", "al\xffice", "", "UTF-8"},
		{"Cyrillic a in Latin", "аlice", "", "mixes Latin and Cyrillic"},
		{"Latin in Cyrillic", "Aлиса", "", "mixes Latin and Cyrillic"},
		{"Greek omicron in Latin", "bοb", "", "mixes Latin and Greek"},
		{"Cyrillic and Greek", "Алиса Νίκος", "", "mixes Cyrillic and Greek"},
	}
	for _, c := range cases {
		got, err := validName(c.in)
		if c.want != "" {
			if err != nil || got != c.want {
				t.Errorf("%s: validName(%q) = %q, %v; want %q", c.name, c.in, got, err, c.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: validName(%q) = %q, want a refusal", c.name, c.in, got)
			continue
		}
		if !strings.Contains(err.Error(), c.inErr) {
			t.Errorf("%s: validName(%q): %q does not say %q", c.name, c.in, err, c.inErr)
		}
	}
}

// TestNameOverHTTP: POST /api/session uses the rules and returns the
// normalized name.
func TestNameOverHTTP(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	var r struct {
		Name  string               `json:"name"`
		Error protocol.ErrorDetail `json:"error"`
	}
	if code := httpJSON(t, "POST", ts.url+"/api/session", "", map[string]string{"name": " ａｌｉｃｅ  bob "}, &r); code != 200 || r.Name != "alice bob" {
		t.Errorf("fullwidth name: %d %+v", code, r)
	}
	r.Name = ""
	if code := httpJSON(t, "POST", ts.url+"/api/session", "", map[string]string{"name": "аlice"}, &r); code != 400 || !strings.Contains(r.Error.Message, "Cyrillic") {
		t.Errorf("mixed-script name: %d %+v", code, r)
	}
}

// FuzzValidName: validName never panics, and an accepted name is
// NFKC-normalized, free of control and format characters, within the
// length, and a fixed point.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"alice", " ａｌｉｃｅ ", "аlice", "Řehoř", "R\u030cehor\u030c", "al\u200bice", "\u202eecila",
		"a\u3000\u3000b", "ﬁ", "\xff", "bot:x", "Ἀθηνᾶ", "ǅ", "ㄱㅏ", "\u1100 \u1161", "가\u11a8", "Å", "x\u0345"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := validName(in)
		if err != nil {
			return
		}
		if !norm.NFKC.IsNormalString(out) {
			t.Errorf("validName(%q) = %q, not NFKC", in, out)
		}
		if n := utf8.RuneCountInString(out); n < 1 || n > MaxNameLen || out != strings.TrimSpace(out) || strings.Contains(out, "  ") {
			t.Errorf("validName(%q) = %q: length or spaces", in, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Errorf("validName(%q) = %q keeps %U", in, out, r)
			}
		}
		again, err := validName(out)
		if err != nil || again != out {
			t.Errorf("validName(%q) = %q, but validName(%q) = %q, %v", in, out, out, again, err)
		}
	})
}
