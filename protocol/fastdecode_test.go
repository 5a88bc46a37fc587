package protocol

import (
	"bytes"
	"cardroom/game"
	"encoding/json"
	"reflect"
	"testing"
)

// TestScanFlat: the messages clients send most take the fast path, and
// every shape it does not read exactly falls back to encoding/json.
func TestScanFlat(t *testing.T) {
	cases := []struct {
		in   string
		fast bool
	}{
		{`{"type":"move","id":7,"table":"t1","seat":2,"move":"play 10S"}`, true},
		{` { "type" : "move" , "id" : "a-1" , "table" : "t1" , "move" : "pass 1S 2S 3S 4S 5S" } `, true},
		{`{"type":"move","seat":null,"table":"t","move":"draw"}`, true},
		{`{"type":"ping","id":-12}`, true},
		{`{}`, true},
		{`{"type":"move","Table":"t1"}`, false},                           // another case: encoding/json matches it
		{`{"type":"move","table":"t1","table":"t2"}`, false},              // a duplicate
		{`{"type":"move","move":"play \u0031S"}`, false},                  // an escape
		{`{"type":"chat","text":"zażółć"}`, false},                        // another key
		{`{"type":"move","move":"płay"}`, false},                          // not ASCII
		{`{"type":"move","seat":1.0}`, false},                             // not a plain integer
		{`{"type":"move","seat":01}`, false},                              // not JSON
		{`{"type":"move","seat":12345678901234567890}`, false},            // too long
		{`{"type":"move","id":1e3}`, false},                               // an exponent
		{`{"type":"move"} x`, false},                                      // trailing bytes
		{`{"type":"move",}`, false},                                       // a trailing comma
		{`{"type":null}`, false},                                          // null for a string
		{`{"type":"move","seat":"2"}`, false},                             // a string seat
		{`{"type":"move","id":{"a":1}}`, false},                           // an object id
		{`{"type":"move","id":7,"table":"t1","seat":2,"move":"x"`, false}, // unclosed
	}
	for _, c := range cases {
		var m request
		if got := scanFlat(bytes.TrimSpace([]byte(c.in)), &m); got != c.fast {
			t.Errorf("%s: fast path %v, want %v", c.in, got, c.fast)
		}
	}
	// The fast path's message is the one encoding/json makes.
	in := []byte(`{"type":"move","id":"r9","table":"t1","seat":2,"move":"play 10S"}`)
	got, e := DecodeClient(in)
	if e != nil {
		t.Fatal(e)
	}
	want := &MoveReq{Type: TypeMove, ID: json.RawMessage(`"r9"`), Table: "t1", Seat: seatPtr(2), Move: "play 10S"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// The id is a copy: the caller's buffer is reused for the next message.
	in[7] = 'X'
	in[len(`{"type":"move","id":"`)] = 'Z'
	if string(got.RequestID()) != `"r9"` {
		t.Errorf("the id follows the caller's buffer: %s", got.RequestID())
	}
	// The checks after decoding are the same on both paths.
	if _, e := DecodeClient([]byte(`{"type":"move","table":"t1","seat":99,"move":"x"}`)); e == nil || e.Code != BadSeat {
		t.Errorf("seat 99 on the fast path: %v", e)
	}
}

func seatPtr(n int) *game.Seat { s := game.Seat(n); return &s }

// FuzzFastDecode: whatever the fast path reads, encoding/json reads the
// same, field for field.
func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","id":7,"table":"t1","seat":2,"move":"play 10S"}`,
		`{"type":"ping","id":"x"}`, `{"seat":null}`, `{"seat":-0}`, `{ }`, `{"id":-1,"type":"hint"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		trimmed := bytes.TrimSpace(b)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return
		}
		var fast request
		if !scanFlat(trimmed, &fast) {
			return
		}
		var slow request
		if err := json.Unmarshal(trimmed, &slow); err != nil {
			t.Fatalf("the fast path read %q, which encoding/json refuses: %v", trimmed, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %+v, encoding/json %+v", trimmed, fast, slow)
		}
	})
}

// BenchmarkDecodeMove: a move message on the fast path and through
// encoding/json (go test ./protocol -bench DecodeMove -benchmem).
func BenchmarkDecodeMove(b *testing.B) {
	in := []byte(`{"type":"move","id":1234,"table":"t0012ab","seat":2,"move":"play 10S"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, e := DecodeClient(in); e != nil {
				b.Fatal(e)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m request
			if e := unmarshalRequest(in, &m); e != nil {
				b.Fatal(e)
			}
			if _, e := m.check(); e != nil {
				b.Fatal(e)
			}
		}
	})
}
