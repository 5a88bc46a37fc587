package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecodeMessage: the decoder never panics, refuses with a protocol code,
// and what it accepts is a known type with its required fields.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","table":"t_1","move":"play 7H","id":3}`,
		`{"type":"create","game":"papayoo","options":{"rounds":"1"},"seat":0,"bots":{"1":"random"}}`,
		`{"type":"join","table":"t_1","seat":2,"invite":"x"}`,
		`{"type":"lobby","subscribe":true}`,
		`{"type":"ping","id":"a"}`,
		`{"type":"move","table":7}`,
		`{"type":"hint","table":"t"}`,
		`[1]`, `{`, ``, `null`, `{"type":null}`, `{"id":{"x":1},"type":"ping"}`,
		`{"type":"move","table":"t","move":"x","seat":"1"}`,
		"{\"type\":\"ping\",\"pad\":\"" + strings.Repeat("x", MaxMessage) + "\"}",
	} {
		f.Add([]byte(s))
	}
	codes := map[string]bool{"bad_json": true, "bad_request": true, "unknown_type": true, "too_large": true}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, e := decodeMessage(b)
		if e != nil {
			if !codes[e.Code] {
				t.Fatalf("code %q not a decoder code", e.Code)
			}
			if e.Msg == "" {
				t.Fatal("error without a message")
			}
			if len(b) > MaxMessage && e.Code != "too_large" {
				t.Fatalf("%d bytes: code %s, want too_large", len(b), e.Code)
			}
			if !validID(m.ID) {
				t.Fatalf("invalid id %q echoed", m.ID)
			}
			return
		}
		if !knownTypes[m.Type] {
			t.Fatalf("accepted unknown type %q", m.Type)
		}
		if needTable[m.Type] && m.Table == "" {
			t.Fatalf("accepted %s without table", m.Type)
		}
		if m.Type == "move" && m.Move == "" {
			t.Fatal("accepted move without move")
		}
		if len(m.ID) > 0 && !json.Valid(m.ID) {
			t.Fatalf("id %q is not JSON", m.ID)
		}
	})
}
