package cluster

import (
	"bytes"
	"testing"
)

func TestFramesRoundTrip(t *testing.T) {
	for _, msgs := range [][][]byte{
		{},
		{[]byte(`{"type":"ack"}`)},
		{[]byte(`a`), {}, []byte(`{"type":"state","x":"\n"}`)},
	} {
		b := AppendFrames(nil, msgs...)
		got, err := Frames(b)
		if err != nil || len(got) != len(msgs) {
			t.Fatalf("Frames(AppendFrames(%q)) = %q, %v", msgs, got, err)
		}
		for i := range msgs {
			if !bytes.Equal(got[i], msgs[i]) {
				t.Errorf("frame %d: %q, want %q", i, got[i], msgs[i])
			}
		}
	}
}

func TestFramesRefuseDamage(t *testing.T) {
	good := AppendFrames(nil, []byte("hello"), []byte("world"))
	for name, b := range map[string][]byte{
		"short length": good[:2],
		"cut body":     good[:len(good)-1],
		"huge length":  {0xff, 0xff, 0xff, 0xff, 'x'},
	} {
		if _, err := Frames(b); err != ErrFrame {
			t.Errorf("%s: %v, want ErrFrame", name, err)
		}
	}
}

func FuzzFrames(f *testing.F) {
	f.Add(AppendFrames(nil, []byte("a"), []byte("bc")))
	f.Add([]byte{0, 0, 0, 9, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		msgs, err := Frames(b)
		if err != nil {
			return
		}
		if again := AppendFrames(nil, msgs...); !bytes.Equal(again, b) {
			t.Fatalf("frames %q re-encode to %q, not %q", msgs, again, b)
		}
	})
}

func TestNamesAndSubjects(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"n1", true}, {"node-a_2", true}, {"", false}, {"a.b", false}, {"a b", false}, {"*", false}, {">", false},
		{string(make([]byte, 65)), false}} {
		if err := CheckNode(c.name); (err == nil) != c.ok {
			t.Errorf("CheckNode(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
	if CheckRoom("cardroom.test-1") != nil || CheckRoom("a..b") == nil || CheckRoom("a.>") == nil {
		t.Error("CheckRoom: want dotted tokens accepted, empty tokens and wildcards refused")
	}
	s := Subjects{Room: "cr"}
	if got := s.Table("t_abc"); got != "cr.t.t_abc.in" {
		t.Errorf("Table: %s", got)
	}
	subj := s.Conn("n2", 42)
	if n, ok := s.ConnOf(subj); !ok || n != 42 || subj != "cr.n.n2.c.42" {
		t.Errorf("Conn/ConnOf: %s → %d %v", subj, n, ok)
	}
	if _, ok := s.ConnOf("cr.n.n2.c.x"); ok {
		t.Error("ConnOf accepted a non-number")
	}
	if TableOK("t_a.b") || !TableOK("t_ab2") {
		t.Error("TableOK: a dot must be refused, an id accepted")
	}
}

func TestCommandRoundTrip(t *testing.T) {
	for _, c := range []Command{
		{Op: OpMsg, Node: "n1", Conn: 7, Player: "p_abc", Token: "deadbeef", Name: "Ala ma kota"},
		{Op: OpBye, Node: "node-2", Conn: 0},
		{Op: OpMsg, Node: "n3", Conn: 1 << 60, Player: "", Token: "", Name: ""},
	} {
		msg := []byte(`{"type":"move","table":"t_x","move":"play 7H"}`)
		if c.Op == OpBye {
			msg = nil
		}
		got, body, err := ParseCommand(AppendCommand(nil, c, msg))
		if err != nil || got != c || !bytes.Equal(body, msg) {
			t.Errorf("round trip of %+v: %+v %q %v", c, got, body, err)
		}
	}
	// A newline in a name cannot end the envelope early.
	got, body, err := ParseCommand(AppendCommand(nil, Command{Op: OpMsg, Node: "n1", Conn: 1, Name: "a\nb"}, []byte("{}")))
	if err != nil || got.Name != "a b" || string(body) != "{}" {
		t.Errorf("name with a newline: %+v %q %v", got, body, err)
	}
	for _, bad := range []string{"", "msg n1 1 p t\n", "zap n1 1 p t n\n{}", "msg n.1 1 p t n\n", "msg n1 x p t n\n", "msg n1 1 p t n"} {
		if _, _, err := ParseCommand([]byte(bad)); err != ErrCommand {
			t.Errorf("ParseCommand(%q) = %v, want ErrCommand", bad, err)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	f.Add(AppendCommand(nil, Command{Op: OpMsg, Node: "n1", Conn: 3, Player: "p", Token: "t", Name: "N"}, []byte("{}")))
	f.Add([]byte("bye n2 9 - - \n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, body, err := ParseCommand(b)
		if err != nil {
			return
		}
		again, body2, err := ParseCommand(AppendCommand(nil, c, body))
		if err != nil || again != c || !bytes.Equal(body, body2) {
			t.Fatalf("%q parses to %+v, which does not round-trip: %+v %v", b, c, again, err)
		}
	})
}
