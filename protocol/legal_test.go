package protocol

import (
	"encoding/json"
	"slices"
	"testing"

	"cardroom/game"
)

// TestLegalAtAgreesWithJSON: LegalLen and LegalAt read a legal list as
// encoding/json does, element by element, escapes included; a malformed
// list is refused.
func TestLegalAtAgreesWithJSON(t *testing.T) {
	good := []string{
		`[]`, ` [ ] `, `["pass 1S 2S 3S"]`, `["play 1S","draw","take 7H meld 7H 7S 7D"]`,
		`["a\"b","c\\d","\u00e9","x\/y"]`, "[\n \"a\" ,\t\"b\" ]",
	}
	for _, raw := range good {
		var want []string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if n := LegalLen(json.RawMessage(raw)); n != len(want) {
			t.Errorf("LegalLen(%s) = %d, want %d", raw, n, len(want))
		}
		for i, w := range want {
			if got, err := LegalAt(json.RawMessage(raw), i); err != nil || got != w {
				t.Errorf("LegalAt(%s, %d) = %q, %v; want %q", raw, i, got, err, w)
			}
		}
		if _, err := LegalAt(json.RawMessage(raw), len(want)); err == nil {
			t.Errorf("LegalAt(%s, %d) past the end: no error", raw, len(want))
		}
	}
	for _, raw := range []string{``, `{}`, `[1]`, `["a",]`, `["a" "b"]`, `["a"`, `["a\"]`, `null`, `["a"]x`} {
		if n := LegalLen(json.RawMessage(raw)); n != -1 {
			t.Errorf("LegalLen(%q) = %d, want -1 (malformed)", raw, n)
		}
	}
}

// TestDecodeStateHeadRaw: the raw head has the same fields as the decoded
// one, with the legal list left raw.
func TestDecodeStateHeadRaw(t *testing.T) {
	msg := []byte(`{"type":"state","table":"t_1","seq":3,"status":"playing","seat":1,"to_act":[1],"legal":["play 1S","play 2S"],"legal_count":2,"game":"papayoo","view":{}}`)
	h, err := DecodeStateHead(msg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeStateHeadRaw(msg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Legal != nil || r.Seq != h.Seq || r.Seat != h.Seat || r.LegalCount != h.LegalCount || r.Table != h.Table {
		t.Fatalf("raw head %+v differs from %+v", r, h)
	}
	if n := LegalLen(r.LegalRaw); n != len(h.Legal) {
		t.Fatalf("raw legal list has %d moves, want %d", n, len(h.Legal))
	}
	if m, _ := LegalAt(r.LegalRaw, 1); m != h.Legal[1] {
		t.Fatalf("LegalAt 1 = %q, want %q", m, h.Legal[1])
	}
}

func FuzzLegalAt(f *testing.F) {
	f.Add(`["a","b"]`)
	f.Add(`["a\"b", "c"]`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, raw string) {
		var want []string
		err := json.Unmarshal([]byte(raw), &want)
		n := LegalLen(json.RawMessage(raw))
		if err == nil && raw != "null" && n != len(want) {
			t.Fatalf("LegalLen(%q) = %d, encoding/json reads %d", raw, n, len(want))
		}
		if err == nil && n >= 0 {
			for i := range want {
				if got, err := LegalAt(json.RawMessage(raw), i); err != nil || got != want[i] {
					t.Fatalf("LegalAt(%q, %d) = %q, %v; want %q", raw, i, got, err, want[i])
				}
			}
		}
	})
}

// TestFastStateHead: heads the server writes are read by the fast path
// exactly as the general decoder reads them; anything else falls back.
func TestFastStateHead(t *testing.T) {
	heads := [][]byte{
		AppendStateHead(nil, "t_ab", 0, "open", -1, nil, []byte(`[]`), 0),
		AppendStateHead(nil, "t_ab", 17, "playing", 2, []game.Seat{0, 2, 3}, AppendLegal(nil, "play 1S", `odd "quoted"`, "pass 1S 2S 3S"), 3000),
	}
	for _, b := range heads {
		msg := append(append([]byte(nil), b...), `,"game":"papayoo","view":{"legal":["x"]}}`...)
		fast, ok := fastStateHead(msg)
		if !ok {
			t.Fatalf("fast path refused the server's own head %s", b)
		}
		slow, err := decodeStateHead(msg, true)
		if err != nil {
			t.Fatal(err)
		}
		if fast.Table != slow.Table || fast.Seq != slow.Seq || fast.Status != slow.Status || fast.Seat != slow.Seat ||
			fast.LegalCount != slow.LegalCount || string(fast.LegalRaw) != string(slow.LegalRaw) || !slices.Equal(fast.ToAct, slow.ToAct) {
			t.Errorf("fast %+v\nslow %+v", fast, slow)
		}
	}
	for _, msg := range []string{
		`{"table":"t","type":"state","seq":1}`,
		`{"type":"state", "table":"t_ab","seq":1,"status":"playing","seat":0,"to_act":[],"legal":[],"legal_count":0}`,
		`{"type":"state","table":"t\u0061","seq":1,"status":"playing","seat":0,"to_act":[],"legal":[],"legal_count":0}`,
		`{"type":"state","table":"t","seq":1,"status":"playing","seat":0,"to_act":[],"legal":["a",],"legal_count":1}`,
	} {
		if _, ok := fastStateHead([]byte(msg)); ok {
			t.Errorf("fast path accepted %s", msg)
		}
	}
}
