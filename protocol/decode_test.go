package protocol

import (
	"cardroom/game"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzDecodeClient: the decoder never panics, refuses with a decoder code
// and a message, and what it accepts is a known type with its required
// fields; an id it echoes is one it may echo.
func FuzzDecodeClient(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","table":"t_1","move":"play 7H","id":3}`,
		`{"type":"create","game":"papayoo","options":{"rounds":"1"},"seat":0,"bots":{"1":"random"}}`,
		`{"type":"join","table":"t_1","seat":2,"invite":"x"}`,
		`{"type":"join","table":"t_1","seat":16}`,
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
	f.Fuzz(func(t *testing.T, b []byte) {
		m, e := DecodeClient(b)
		if e != nil {
			if m != nil {
				t.Fatal("a message and an error")
			}
			if !slices.Contains(DecoderCodes, e.Code) {
				t.Fatalf("code %q not a decoder code", e.Code)
			}
			if e.Message == "" || e.Type != TypeError {
				t.Fatalf("error %+v: no message or not an error message", e)
			}
			if len(b) > MaxMessage && e.Code != TooLarge {
				t.Fatalf("%d bytes: code %s, want too_large", len(b), e.Code)
			}
			if !ValidID(e.ID) {
				t.Fatalf("invalid id %q echoed", e.ID)
			}
			return
		}
		if !slices.Contains(ClientTypes(), m.MessageType()) {
			t.Fatalf("accepted unknown type %q", m.MessageType())
		}
		if needTable[m.MessageType()] && TableOf(m) == "" {
			t.Fatalf("accepted %s without table", m.MessageType())
		}
		if mv, ok := m.(*MoveReq); ok && mv.Move == "" {
			t.Fatal("accepted move without move")
		}
		if id := m.RequestID(); len(id) > 0 && !json.Valid(id) {
			t.Fatalf("id %q is not JSON", id)
		}
	})
}

// TestDecodeClient: each type decodes into its own Go type with its
// fields, and the refusals carry the code, the id and the table.
func TestDecodeClient(t *testing.T) {
	m, e := DecodeClient([]byte(`{"type":"move","id":7,"table":"t_1","seat":2,"move":"play 7H"}`))
	mv, ok := m.(*MoveReq)
	if e != nil || !ok || mv.Table != "t_1" || SeatOr(mv.Seat) != 2 || mv.Move != "play 7H" || string(mv.ID) != "7" {
		t.Fatalf("move: %#v %v", m, e)
	}
	m, e = DecodeClient([]byte(`{"type":"create","game":"papayoo","options":{"rounds":"1"},"clock_ms":30000,"bots":{"1":"easy"}}`))
	if cr, ok := m.(*CreateReq); e != nil || !ok || cr.Game != "papayoo" || cr.Options["rounds"] != "1" || cr.ClockMS != 30000 || cr.Bots["1"] != "easy" || cr.Seat != nil {
		t.Fatalf("create: %#v %v", m, e)
	}
	for _, c := range []struct {
		in    string
		code  Code
		id    string
		table string
	}{
		{`{"type":"move","id":"a","table":"t_1"}`, BadRequest, `"a"`, "t_1"},
		{`{"type":"join","id":1,"table":"t_2","seat":16}`, BadSeat, "1", "t_2"},
		{`{"type":"warp","id":2}`, UnknownType, "2", ""},
		{`{"id":3}`, UnknownType, "3", ""},
		{`{"type":"ping","id":{"x":1}}`, BadRequest, "", ""},
		{`{"type":"ping","table":7,"id":4}`, BadRequest, "4", ""},
		{`{"type":`, BadJSON, "", ""},
		{`[]`, BadJSON, "", ""},
	} {
		m, e := DecodeClient([]byte(c.in))
		if m != nil || e == nil || e.Code != c.code || string(e.ID) != c.id || e.Table != c.table {
			t.Errorf("%s: %#v %+v, want %s id %s table %q", c.in, m, e, c.code, c.id, c.table)
		}
	}
}

// TestCodes: every code has a status, the table of codes has no duplicate,
// and the statuses that clients and operators rely on are what they were.
func TestCodes(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes() {
		if seen[c] || !c.Known() {
			t.Errorf("code %q duplicated or unknown", c)
		}
		seen[c] = true
		if s := c.HTTPStatus(); s < 400 || s > 599 {
			t.Errorf("%s: status %d", c, s)
		}
	}
	for c, want := range map[Code]int{Forbidden: 403, NoTable: 404, Unauthorized: 401, Busy: 503, Unavailable: 503,
		RateLimited: 429, Internal: 500, BadOptions: 400, SeatTaken: 400, NotFinished: 409, "no_such_code": 500} {
		if got := c.HTTPStatus(); got != want {
			t.Errorf("%s: status %d, want %d", c, got, want)
		}
	}
	if Code("no_such_code").Known() {
		t.Error("an undeclared code is known")
	}
}

// TestServerMessages: every server type encodes with its type (whatever
// the Type field holds) and decodes back into itself; an unknown type is
// not an error.
func TestServerMessages(t *testing.T) {
	seat := game.Seat(1)
	for _, m := range []ServerMsg{
		WelcomeMsg{Version: Version, Player: "p_1", Seats: []SeatRef{{"t_1", 0}}},
		StateMsg{Table: "t_1", Seq: 3, View: json.RawMessage(`{"hand":["7H"]}`)},
		AckMsg{ID: json.RawMessage(`"x"`), Table: "t_1", Seq: 4},
		ErrorMsg{Code: Illegal, Message: "no"},
		LobbyMsg{Tables: []*Summary{{ID: "t_1"}}},
		CreatedMsg{Table: "t_1", Summary: &Summary{ID: "t_1"}},
		JoinedMsg{Table: "t_1", Seat: seat},
		HintMsg{Table: "t_1", Ratings: []Rating{{"play 7H", 0.5, 10}}},
		PongMsg{ID: json.RawMessage(`3`)},
	} {
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		typ, err := PeekType(b)
		if err != nil || typ != m.MessageType() {
			t.Errorf("%s: type %q %v in %s", m.MessageType(), typ, err, b)
		}
		back, err := DecodeServer(b)
		if err != nil || back.MessageType() != m.MessageType() {
			t.Fatalf("%s: %v %v", b, back, err)
		}
		again, _ := Marshal(back)
		if string(again) != string(b) {
			t.Errorf("round trip:\n got %s\nwant %s", again, b)
		}
	}
	if m, err := DecodeServer([]byte(`{"type":"news","x":1}`)); err != nil || m.MessageType() != "news" {
		t.Errorf("unknown type: %v %v", m, err)
	}
	if _, err := DecodeServer([]byte(`{"x":1}`)); err == nil {
		t.Error("a message without a type decoded")
	}
	if typ, err := PeekType([]byte(` {"seq":1, "type":"state"}`)); err != nil || typ != TypeState {
		t.Errorf("type not first: %q %v", typ, err)
	}
}

// TestDecodeStateHead: the head of a state message as the server writes
// it, and nothing for another message.
func TestDecodeStateHead(t *testing.T) {
	m := benchState()
	h, err := DecodeStateHead(handState(testState{StateMsg: m}))
	if err != nil || h.Seq != m.Seq || h.Seat != m.Seat || h.Status != m.Status || h.Table != m.Table ||
		!slices.Equal(h.Legal, m.Legal) || h.LegalCount != m.LegalCount || !slices.Equal(h.ToAct, m.ToAct) {
		t.Errorf("head %+v %v", h, err)
	}
	if _, err := DecodeStateHead([]byte(`{"type":"ack","seq":3}`)); err == nil {
		t.Error("an ack decoded as a state head")
	}
}

// TestDecodeStateHeadOrder: the head is read whatever the order of the
// fields, and a broken head is an error.
func TestDecodeStateHeadOrder(t *testing.T) {
	h, err := DecodeStateHead([]byte(`{"view":{"a":[1,{"b":2}]},"legal":["play 1S","x\"]"],"seat":-1,"to_act":[2],"type":"state","legal_count":2,"seq":31,"status":"playing","table":"t_1"}`))
	if err != nil || h.Seq != 31 || h.Seat != -1 || h.Status != "playing" || h.Table != "t_1" || len(h.Legal) != 2 || h.Legal[1] != `x"]` || h.LegalCount != 2 {
		t.Errorf("head %+v %v", h, err)
	}
	for _, bad := range []string{`[1]`, `{"type":"state","seq":"x"}`, `{"type":"state","seq":3`} {
		if _, err := DecodeStateHead([]byte(bad)); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}
