package protocol

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestRecvInto: messages of growing and shrinking length arrive whole
// and in order through one reused buffer, which stops growing once it
// holds the longest.
func TestRecvInto(t *testing.T) {
	msgs := []string{`{"type":"welcome","player":"p"}`}
	for _, n := range []int{10, 700, 5000, 3, 70000, 64, 69999} {
		msgs = append(msgs, `{"type":"state","pad":"`+strings.Repeat("x", n)+`"}`)
	}
	msgs = append(msgs, `not json`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		for _, m := range msgs {
			if ws.Write(ctx, websocket.MessageText, []byte(m)) != nil {
				return
			}
		}
		ws.Read(ctx) // until the client closes
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var buf []byte
	longest := 0
	for i, want := range msgs[1:] {
		in, err := c.RecvInto(ctx, buf)
		if want == "not json" {
			if err == nil || string(in.Raw) != want {
				t.Fatalf("message %d: %q, %v; want its bytes and an error", i, in.Raw, err)
			}
			break
		}
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(in.Raw) != want || in.Type != TypeState {
			t.Fatalf("message %d: type %q, %d bytes; want state, %d bytes", i, in.Type, len(in.Raw), len(want))
		}
		if len(want) <= longest && cap(in.Raw) != cap(buf) {
			t.Errorf("message %d (%d bytes) grew the buffer from %d to %d bytes", i, len(want), cap(buf), cap(in.Raw))
		}
		longest = max(longest, len(want))
		buf = in.Raw
	}
}
