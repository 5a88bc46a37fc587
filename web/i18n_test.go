package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"cardroom/protocol"
)

var langs = []string{"en", "pl", "cs", "tr"}

func loadLang(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(Assets(), "i18n/"+lang+".json")
	if err != nil {
		t.Fatalf("language %s: %v", lang, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("language %s: not a flat JSON object of strings: %v", lang, err)
	}
	return m
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func placeholders(s string) string {
	var p []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		p = append(p, m[1])
	}
	sort.Strings(p)
	return strings.Join(p, ",")
}

// TestTranslationsComplete checks that every key exists in all four
// languages, that no text is empty, and that every translation uses the same
// {placeholders} as the English text.
func TestTranslationsComplete(t *testing.T) {
	en := loadLang(t, "en")
	if len(en) < 100 {
		t.Fatalf("en has only %d keys", len(en))
	}
	for _, lang := range langs {
		m := loadLang(t, lang)
		for k, v := range en {
			tr, ok := m[k]
			if !ok {
				t.Errorf("%s: key %q missing", lang, k)
				continue
			}
			if strings.TrimSpace(tr) == "" {
				t.Errorf("%s: key %q is empty", lang, k)
			}
			if placeholders(tr) != placeholders(v) {
				t.Errorf("%s: key %q has placeholders {%s}, English has {%s}", lang, k, placeholders(tr), placeholders(v))
			}
		}
		for k := range m {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: key %q is not in en", lang, k)
			}
		}
	}
}

// TestTranslationsNotCopied catches texts left in English: long texts must
// differ from the English ones in every other language.
func TestTranslationsNotCopied(t *testing.T) {
	en := loadLang(t, "en")
	for _, lang := range langs[1:] {
		m := loadLang(t, lang)
		for k, v := range en {
			if len(v) > 25 && m[k] == v {
				t.Errorf("%s: key %q is still the English text", lang, k)
			}
		}
	}
}

// keyFamilies are keys the client builds at run time from data.
var keyFamilies = map[string][]string{
	"game.":   {"papayoo", "rum500", "pisyedili"},
	"rules.":  {"papayoo", "rum500", "pisyedili"},
	"tips.":   {"papayoo", "rum500", "pisyedili"},
	"level.":  {"random", "easy", "medium", "hard"},
	"status.": {"open", "playing", "finished"},
	"suit.":   {"S", "H", "D", "C", "P"},
	"rank.":   {"A", "J", "Q", "K"},
	"help.":   {"rules", "tips"},
	"rum.":    {"low", "high"},
	"pis.":    {"kind_seven", "kind_joker"},
	// every error code of the protocol: errorKeys
	"error.": errorKeys(),
}

// errorKeys are the error codes the client translates: every code of
// package protocol, but shutting_down (it refuses a WebSocket handshake,
// whose answer a browser cannot read), and "unknown", the client's own
// for an error without a code.
func errorKeys() []string {
	keys := []string{"unknown"}
	for _, c := range protocol.Codes() {
		if c != protocol.ShuttingDown {
			keys = append(keys, string(c))
		}
	}
	return keys
}

// TestClientKeysExist reads every t('key') in the JavaScript and checks that
// the key is translated, as well as the keys built from data.
func TestClientKeysExist(t *testing.T) {
	en := loadLang(t, "en")
	re := regexp.MustCompile(`\bt\('([a-z0-9_]+\.[a-z0-9_.]+)'`)
	found := 0
	err := fs.WalkDir(Assets(), "js", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		b, err := fs.ReadFile(Assets(), path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			key := m[1]
			if strings.HasSuffix(key, ".") || strings.HasSuffix(key, "_") {
				continue // a prefix completed at run time; see keyFamilies
			}
			found++
			if _, ok := en[key]; !ok {
				t.Errorf("%s uses key %q, which en.json lacks", path, key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 100 {
		t.Errorf("found only %d translation keys in the JavaScript", found)
	}
	for prefix, names := range keyFamilies {
		for _, n := range names {
			if _, ok := en[prefix+n]; !ok {
				t.Errorf("en.json lacks %q", prefix+n)
			}
		}
	}
}

// TestAssets checks the entry points exist and reference only local files.
func TestAssets(t *testing.T) {
	for _, p := range []string{"index.html", "css/app.css", "js/main.js", "js/cards.js", "js/i18n.js"} {
		b, err := fs.ReadFile(Assets(), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if strings.Contains(string(b), "http://") && !strings.Contains(string(b), "http://www.w3.org/2000/svg") {
			t.Errorf("%s refers to a remote http:// resource", p)
		}
		if strings.Contains(string(b), "https://") {
			t.Errorf("%s refers to a remote https:// resource", p)
		}
	}
}
