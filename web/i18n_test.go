package web

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"cardroom/games"
	_ "cardroom/games/all" // the games of this build: each needs its client module
	"cardroom/protocol"
)

var langs = []string{"en", "pl", "cs", "tr"}

func readDict(t *testing.T, p string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(Assets(), p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: not a flat JSON object of strings: %v", p, err)
	}
	return m
}

// gamePack is one game's translation files: i18n/games/<name>.<lang>.json.
var gamePack = regexp.MustCompile(`^([a-z0-9_]+)\.([a-z]{2})\.json$`)

// clientGames are the games that have translation files, sorted: the
// per-game key families are derived from them.
func clientGames(t *testing.T) []string {
	t.Helper()
	entries, err := fs.ReadDir(Assets(), "i18n/games")
	if err != nil {
		t.Fatalf("i18n/games: %v", err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		m := gamePack.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("i18n/games/%s: not a <game>.<lang>.json file", e.Name())
			continue
		}
		seen[m[1]] = true
	}
	var out []string
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no game has translation files in i18n/games")
	}
	return out
}

// loadLang merges what the client loads for a language: the room's file
// and every game's. A key defined twice is an error.
func loadLang(t *testing.T, lang string) map[string]string {
	t.Helper()
	all := readDict(t, "i18n/"+lang+".json")
	for _, g := range clientGames(t) {
		for k, v := range readDict(t, "i18n/games/"+g+"."+lang+".json") {
			if _, dup := all[k]; dup {
				t.Errorf("%s: key %q is defined twice (in %s's file and elsewhere)", lang, k, g)
			}
			all[k] = v
		}
	}
	return all
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

// pluralCategories are the plural variants each language may give a
// counted text (key_few beside key), as Intl.PluralRules names them: the
// client's PLURALS (js/i18n.js) must say the same.
var pluralCategories = map[string][]string{
	"en": {"one", "other"},
	"pl": {"one", "few", "many", "other"},
	"cs": {"one", "few", "many", "other"},
	"tr": {"one", "other"},
}

// allCategories are every suffix Intl.PluralRules may return.
var allCategories = []string{"zero", "one", "two", "few", "many", "other"}

// pluralBase splits a plural variant ("x.cards_few") into its plain key and
// category when the plain key exists in m; ok is false for any other key.
func pluralBase(m map[string]string, k string) (base, cat string, ok bool) {
	for _, c := range allCategories {
		if b, found := strings.CutSuffix(k, "_"+c); found {
			if _, plain := m[b]; plain {
				return b, c, true
			}
		}
	}
	return "", "", false
}

// subset reports whether every placeholder of a is one of b's.
func subset(a, b string) bool {
	have := map[string]bool{}
	for _, p := range strings.Split(b, ",") {
		have[p] = true
	}
	for _, p := range strings.Split(a, ",") {
		if p != "" && !have[p] {
			return false
		}
	}
	return true
}

// TestTranslationsComplete checks that every key exists in all four
// languages, that no text is empty, and that every translation uses the same
// {placeholders} as the English text. Plural variants (key_one, key_few, …)
// are each language's own: a language has those its grammar needs
// (pluralCategories), each beside its plain key and with no placeholder
// the plain key lacks.
func TestTranslationsComplete(t *testing.T) {
	en := loadLang(t, "en")
	if len(en) < 100 {
		t.Fatalf("en has only %d keys", len(en))
	}
	plain := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			if _, _, ok := pluralBase(m, k); !ok {
				out[k] = v
			}
		}
		return out
	}
	enPlain := plain(en)
	for _, lang := range langs {
		m := loadLang(t, lang)
		for k, v := range enPlain {
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
		for k, v := range m {
			base, cat, variant := pluralBase(m, k)
			if !variant {
				if _, ok := en[k]; !ok {
					t.Errorf("%s: key %q is not in en", lang, k)
				}
				continue
			}
			if !slices.Contains(pluralCategories[lang], cat) {
				t.Errorf("%s: key %q is a %q plural, which %s does not have (only %v)", lang, k, cat, lang, pluralCategories[lang])
			}
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: key %q is empty", lang, k)
			}
			if !subset(placeholders(v), placeholders(m[base])) {
				t.Errorf("%s: plural %q has placeholders {%s}, its plain key {%s}", lang, k, placeholders(v), placeholders(m[base]))
			}
		}
	}
}

// TestPluralCategories checks the client's PLURALS (js/i18n.js) against
// pluralCategories, so that the two say the same.
func TestPluralCategories(t *testing.T) {
	src := jsFiles(t)["js/i18n.js"]
	m := regexp.MustCompile(`PLURALS = \{([^}]*)\}`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("js/i18n.js has no PLURALS = {…}")
	}
	for _, lang := range langs {
		lm := regexp.MustCompile(`\b` + lang + `: \[([^\]]*)\]`).FindStringSubmatch(m[1])
		if lm == nil {
			t.Errorf("PLURALS has no %s", lang)
			continue
		}
		var got []string
		for _, q := range quoted.FindAllStringSubmatch(lm[1], -1) {
			got = append(got, q[1])
		}
		if !slices.Equal(got, pluralCategories[lang]) {
			t.Errorf("PLURALS.%s = %v, the test's %v", lang, got, pluralCategories[lang])
		}
	}
}

// TestTranslationsPerGame checks the split: each game's keys are all under
// "<game>.", in its own files, present in every language, with its title,
// rules and tips; the room's files hold no key of any game.
func TestTranslationsPerGame(t *testing.T) {
	gs := clientGames(t)
	for _, lang := range langs {
		shared := readDict(t, "i18n/"+lang+".json")
		for k := range shared {
			for _, g := range gs {
				if strings.HasPrefix(k, g+".") {
					t.Errorf("i18n/%s.json: key %q belongs in i18n/games/%s.%s.json", lang, k, g, lang)
				}
			}
		}
		for _, g := range gs {
			p := "i18n/games/" + g + "." + lang + ".json"
			if _, err := fs.Stat(Assets(), p); err != nil {
				t.Errorf("%s has no %s translations: %v", g, lang, err)
				continue
			}
			m := readDict(t, p)
			for k := range m {
				if !strings.HasPrefix(k, g+".") {
					t.Errorf("%s: key %q is not under %q", p, k, g+".")
				}
			}
			for _, k := range []string{"name", "rules", "tips"} {
				if strings.TrimSpace(m[g+"."+k]) == "" {
					t.Errorf("%s: %q is missing or empty", p, g+"."+k)
				}
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

// keyFamilies are keys the client builds at run time from data. Each
// game's own (<game>.name, .rules, .tips) come from its files:
// TestTranslationsPerGame.
var keyFamilies = map[string][]string{
	"level.":  {"random", "easy", "medium", "hard"},
	"status.": {"open", "playing", "finished"},
	"suit.":   {"S", "H", "D", "C", "P"},
	"rank.":   {"A", "J", "Q", "K"},
	"help.":   {"rules", "tips"},
	// every error code of the protocol: errorKeys
	"error.": errorKeys(),
	// the chat's canned phrases (js/chat.js; the emoji_ ones are shown as emoji)
	"chat.phrase.": chatPhrases(),
}

// chatPhrases are the phrase codes of the protocol the client translates.
func chatPhrases() []string {
	var out []string
	for _, p := range protocol.Phrases {
		if !strings.HasPrefix(p, "emoji_") {
			out = append(out, p)
		}
	}
	return out
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

// jsFiles returns every script of the client by path.
func jsFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(Assets(), "js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(Assets(), p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gameOf is the game whose module a script is (js/games/<name>.js), or "".
func gameOf(p string) string {
	if dir, file := path.Split(p); dir == "js/games/" && file != "index.js" {
		return strings.TrimSuffix(file, ".js")
	}
	return ""
}

// TestClientKeysExist reads every t('key') in the JavaScript and checks that
// the key is translated, as well as the keys built from data and every key
// a game module names in a string; a game's keys are used by its module
// only.
func TestClientKeysExist(t *testing.T) {
	en := loadLang(t, "en")
	gs := clientGames(t)
	re := regexp.MustCompile(`\bt\('([a-z0-9_]+\.[a-z0-9_.]+)'`)
	found := 0
	for p, src := range jsFiles(t) {
		own := gameOf(p)
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			key := m[1]
			if strings.HasSuffix(key, ".") || strings.HasSuffix(key, "_") {
				continue // a prefix completed at run time; see keyFamilies
			}
			found++
			if _, ok := en[key]; !ok {
				t.Errorf("%s uses key %q, which the English files lack", p, key)
			}
		}
		// Any quoted key of a game, t('…') or not (a table of keys).
		for _, g := range gs {
			lit := regexp.MustCompile(`'(` + regexp.QuoteMeta(g) + `\.[a-z0-9_.]*[a-z0-9_])'`)
			for _, m := range lit.FindAllStringSubmatch(src, -1) {
				if own != g {
					t.Errorf("%s uses %q, a key of %s: only js/games/%s.js may", p, m[1], g, g)
				} else if _, ok := en[m[1]]; !ok {
					t.Errorf("%s names key %q, which i18n/games/%s.en.json lacks", p, m[1], g)
				}
			}
		}
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

var (
	registers   = regexp.MustCompile(`(?s)export default register\(\{.*?\bname: '([a-z0-9_]+)'`)
	indexImport = regexp.MustCompile(`(?m)^import '\./([a-z0-9_]+)\.js';`)
	hiddenOpts  = regexp.MustCompile(`hiddenOptions: \[([^\]]*)\]`)
	quoted      = regexp.MustCompile(`'([^']*)'`)
	numeric     = regexp.MustCompile(`^-?[0-9]+$`)
)

// TestGameModules checks that the client knows exactly the games of the
// build: each has a module js/games/<name>.js that registers itself under
// its name, one import line in js/games/index.js and its translation files;
// and that no other script, style or page of the client names a game.
func TestGameModules(t *testing.T) {
	js := jsFiles(t)
	index, ok := js["js/games/index.js"]
	if !ok {
		t.Fatal("js/games/index.js is missing")
	}
	imported := map[string]bool{}
	for _, m := range indexImport.FindAllStringSubmatch(index, -1) {
		imported[m[1]] = true
	}
	var modules []string
	for p, src := range js {
		g := gameOf(p)
		if g == "" {
			continue
		}
		modules = append(modules, g)
		m := registers.FindStringSubmatch(src)
		if m == nil || m[1] != g {
			t.Errorf("%s does not end with export default register({ name: '%s', … })", p, g)
		}
		if !imported[g] {
			t.Errorf("js/games/index.js does not import ./%s.js", g)
		}
	}
	sort.Strings(modules)
	packs := clientGames(t)
	if strings.Join(modules, " ") != strings.Join(packs, " ") {
		t.Errorf("game modules %v, games with translations %v: each game needs both", modules, packs)
	}
	for g := range imported {
		if _, ok := js["js/games/"+g+".js"]; !ok {
			t.Errorf("js/games/index.js imports ./%s.js, which does not exist", g)
		}
	}
	names := games.Names()
	if len(names) == 0 {
		t.Fatal("no game registered in this build")
	}
	if strings.Join(names, " ") != strings.Join(modules, " ") {
		t.Errorf("the build has games %v, the client modules for %v", names, modules)
	}

	// Only the game modules (and their translations) name a game.
	err := fs.WalkDir(Assets(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || gameOf(p) != "" || strings.HasPrefix(p, "i18n/") {
			return err
		}
		b, err := fs.ReadFile(Assets(), p)
		if err != nil {
			return err
		}
		for _, g := range names {
			if p == "js/games/index.js" {
				break // the one list of the modules
			}
			if regexp.MustCompile(`\b` + g + `\b`).Match(b) {
				t.Errorf("%s names the game %q: game-specific code belongs in js/games/%s.js", p, g, g)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGameOptionsLabelled checks that the create dialog has words for every
// option it shows (all but the module's hiddenOptions) and for every value
// of an enumeration that is not a number, in the game's files (or, for an
// option every game has, the room's opt.<name>).
func TestGameOptionsLabelled(t *testing.T) {
	en := loadLang(t, "en")
	js := jsFiles(t)
	for _, e := range games.All() {
		g := e.Name()
		src, ok := js["js/games/"+g+".js"]
		if !ok {
			t.Errorf("%s has no client module js/games/%s.js", g, g)
			continue
		}
		hidden := map[string]bool{}
		if m := hiddenOpts.FindStringSubmatch(src); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				hidden[q[1]] = true
			}
		}
		shown := 0
		for _, o := range e.OptionSpecs() {
			if hidden[o.Name] {
				delete(hidden, o.Name)
				continue
			}
			shown++
			_, own := en[g+".opt."+o.Name]
			_, room := en["opt."+o.Name]
			if !own && !room {
				t.Errorf("%s: option %q has no label (%s.opt.%s)", g, o.Name, g, o.Name)
			}
			if o.Kind != "enum" {
				continue
			}
			for _, v := range o.Values {
				if _, ok := en[g+".val."+v]; !ok && !numeric.MatchString(v) {
					t.Errorf("%s: value %q of option %q has no label (%s.val.%s)", g, v, o.Name, g, v)
				}
			}
		}
		if shown == 0 {
			t.Errorf("%s: the create dialog would show none of its options", g)
		}
		for o := range hidden {
			t.Errorf("js/games/%s.js hides option %q, which the engine does not have", g, o)
		}
	}
}

// TestAssets checks the entry points exist and reference only local files.
func TestAssets(t *testing.T) {
	for _, p := range []string{"index.html", "css/app.css", "js/main.js", "js/cards.js", "js/i18n.js", "js/games.js", "js/games/index.js"} {
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
