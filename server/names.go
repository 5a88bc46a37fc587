package server

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxNameLen is the longest display name, in characters after
// normalization.
const MaxNameLen = 24

// Display names are shown to every other player at a table, in the lobby
// and in records, so they must not be usable to impersonate someone or to
// garble the page around them. validName therefore:
//
//   - normalizes with NFKC, so that fullwidth, ligature and other
//     compatibility forms ("ａｌｉｃｅ", "ﬁ") become the plain letters they
//     look like, and two names that look the same compare the same;
//   - refuses control characters, bidirectional overrides and isolates
//     (they reorder the text around the name: with U+202E first,
//     "\u202Eecila" shows as "alice"), zero-width and other invisible
//     characters (they make "al\u200Bice" a different name that looks like
//     "alice"), and every other format character;
//   - refuses names that mix Latin, Cyrillic and Greek letters: Cyrillic
//     "а" and Greek "ο" are drawn like Latin "a" and "o", so "аlice"
//     (Cyrillic first letter) would pass for "alice". A name entirely in one script ("Алиса", "Çağla", "Řehoř",
//     "Νίκος") is fine;
//   - keeps the original rules: letters, digits, space, '_', '-' and '.'
//     only, trimmed, runs of spaces collapsed to one, 1 to MaxNameLen
//     characters, and no "bot:" prefix (bot seats are named "bot:level").
//
// The result is what is stored and shown; validating it again returns it
// unchanged.
func validName(n string) (string, error) {
	if !utf8.ValidString(n) {
		return "", errors.New("name is not valid UTF-8")
	}
	n = norm.NFKC.String(n)
	for _, r := range n {
		if err := nameRune(r); err != nil {
			return "", err
		}
	}
	n = collapseSpaces(n)
	if n == "" || utf8.RuneCountInString(n) > MaxNameLen {
		return "", fmt.Errorf("name must have 1 to %d characters", MaxNameLen)
	}
	if strings.HasPrefix(n, "bot:") {
		return "", errors.New("name may not start with \"bot:\"")
	}
	if err := singleScript(n); err != nil {
		return "", err
	}
	return n, nil
}

// nameRune refuses one character of a normalized name, with a message that
// says why when the character is invisible.
func nameRune(r rune) error {
	switch {
	case unicode.IsControl(r):
		return fmt.Errorf("name: control character %U is not allowed", r)
	case isBidiControl(r):
		return fmt.Errorf("name: bidirectional control character %U is not allowed (it reorders the text around the name)", r)
	case isZeroWidth(r):
		return fmt.Errorf("name: zero-width character %U is not allowed (it makes the name look like another)", r)
	case unicode.Is(unicode.Cf, r):
		return fmt.Errorf("name: invisible format character %U is not allowed", r)
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		// Letters that draw nothing, such as the Hangul fillers U+3164
		// and U+FFA0: a name made of them looks empty.
		return fmt.Errorf("name: invisible character %U is not allowed", r)
	case unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '_' || r == '-' || r == '.':
		return nil
	}
	return fmt.Errorf("name: character %q is not allowed (letters, digits, space, _ - . only)", r)
}

// isBidiControl: the embeddings and overrides U+202A–U+202E, the isolates
// U+2066–U+2069, the marks U+200E, U+200F and U+061C.
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// isZeroWidth: zero-width space, non-joiner and joiner, the word joiner and
// the byte-order mark (zero-width no-break space).
func isZeroWidth(r rune) bool {
	return r >= 0x200B && r <= 0x200D || r == 0x2060 || r == 0xFEFF
}

// collapseSpaces trims spaces at both ends and turns each run of spaces
// inside into one. After nameRune, ' ' is the only space left (NFKC maps
// the other spaces to it, and tabs and newlines are control characters).
func collapseSpaces(n string) string {
	return strings.Join(strings.FieldsFunc(n, func(r rune) bool { return r == ' ' }), " ")
}

// confusableScripts are the scripts whose letters are drawn alike.
var confusableScripts = [...]struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin},
	{"Cyrillic", unicode.Cyrillic},
	{"Greek", unicode.Greek},
}

// singleScript refuses a name whose letters come from more than one of
// confusableScripts, naming a letter of the second script met (in the
// order of confusableScripts: in a Latin name, the Cyrillic letter).
func singleScript(n string) error {
	var seen [len(confusableScripts)]rune // per confusableScripts: the first letter met, or 0
	for _, r := range n {
		if !unicode.IsLetter(r) {
			continue
		}
		for i, sc := range confusableScripts {
			if seen[i] == 0 && unicode.Is(sc.table, r) {
				seen[i] = r
				break
			}
		}
	}
	first := -1
	for i, r := range seen {
		if r == 0 {
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		return fmt.Errorf("name mixes %s and %s letters (%q is %s), which lets it pass for another name: write it in one alphabet",
			confusableScripts[first].name, confusableScripts[i].name, r, confusableScripts[i].name)
	}
	return nil
}

// ---- confusable skeletons ----

// Account names must be unique in a way people can see: "Anna", "anna",
// "ANNA", "Ann a", "Аnna" (Cyrillic А) and "Annа" must not be two
// accounts. skeleton maps a name (validName's result) to a key that is
// equal for names drawn alike, in the spirit of the skeleton of Unicode
// TS #39 (Security Mechanisms, section 4), restricted to the scripts a
// name may use and made coarser on purpose:
//
//  1. NFD, so that accented letters are a base letter and marks;
//  2. full case folding ("ß" and "ss", "ANNA" and "anna" meet). Folding
//     comes first so that the key depends on the folded name only: two
//     names that differ in case always have the same key;
//  3. every Cyrillic and Greek letter drawn like a Latin letter, in either
//     case, becomes that Latin letter. Where the capital and the small
//     letter look like different Latin letters, the capital wins, since
//     capitals are drawn identically (Greek Η is H though η looks like n;
//     Cyrillic н becomes h because Н is H);
//  4. the digits 0 and 1 become o and l, and i, l and dotless ı all become
//     l (I, l, 1 and | are one stroke in many fonts, and after folding
//     "I" is "i"; the dot that Turkish İ folds to goes too); "rn" becomes
//     "m" and "vv" becomes "w";
//  5. the separators space, '_', '-' and '.' are dropped ("Anna B",
//     "anna_b" and "AnnaB" meet);
//  6. NFD again, so marks compare equal however the letters arrived.
//
// Marks stay: "René" and "Rene" are different skeletons, as in TS #39.
// Coarser than TS #39 means a few honest names are refused because
// another account already has a look-alike; it never lets a look-alike
// through. The mapping is part of the stored data (accounts.skeleton):
// changing it needs a migration that recomputes every skeleton.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range cases.Fold().String(norm.NFD.String(name)) {
		if p, ok := prototypes[r]; ok {
			r = p
		}
		switch {
		case r == ' ' || r == '_' || r == '-' || r == '.':
			continue
		case r == '\u0307' && strings.HasSuffix(b.String(), "l"):
			// The dot of i: Turkish İ folds to i + U+0307, and "İpek"
			// must meet "ipek" (and "Ipek").
			continue
		}
		b.WriteRune(r)
	}
	s := strings.NewReplacer("rn", "m", "vv", "w").Replace(b.String())
	return norm.NFD.String(s)
}

// prototypes maps a folded (small) letter or digit to the Latin letter it
// is drawn like, in small or capital form: skeleton's steps 3 and 4.
var prototypes = map[rune]rune{
	'0': 'o', '1': 'l', 'i': 'l', 'ı': 'l',
	// Latin letters drawn like other Latin letters.
	'ɡ': 'g', 'ɑ': 'a', 'ʏ': 'y',
	// Cyrillic (capitals А В Е Ѕ І Ј К М Н О Р С Т У Х Ү Һ Ӏ Ԁ Ԛ Ԝ Ѵ fold
	// to these).
	'а': 'a', 'в': 'b', 'е': 'e', 'ѕ': 's', 'і': 'l', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o',
	'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ү': 'y', 'һ': 'h', 'ӏ': 'l', 'ԁ': 'd', 'ԛ': 'q',
	'ԝ': 'w', 'ѵ': 'v', 'ь': 'b',
	// Greek (capitals Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ Ϲ Ϳ fold to these).
	'α': 'a', 'β': 'b', 'ε': 'e', 'ζ': 'z', 'η': 'h', 'ι': 'l', 'κ': 'k', 'μ': 'm', 'ν': 'n', 'ο': 'o',
	'ρ': 'p', 'τ': 't', 'υ': 'y', 'χ': 'x', 'ϲ': 'c', 'ϳ': 'j', 'γ': 'y', 'ω': 'w',
}
