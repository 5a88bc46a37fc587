package papayoo

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"cardroom/game"
)

// viewFields are the view's JSON names in order: the shared header's
// (observer, players, phase, to_act, hand_sizes, totals, round, round_count,
// round_scores) among Papayoo's own.
var viewFields = []string{"observer", "options", "players", "hand_size", "pass_size", "round_count", "round", "phase",
	"dealer", "to_act", "hand", "hand_sizes", "passed", "my_pass", "received", "die", "papayoo", "trick", "tricks",
	"voids", "points", "round_scores", "totals", "winners"}

// jsonKeys lists the top-level keys of a JSON object in order.
func jsonKeys(t *testing.T, b []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", b)
	}
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestViewJSON: over random games of every size, every view's JSON has the
// documented fields in order, is valid JSON whose header decodes to the
// view's header, decodes back to a view that marshals to the same JSON and
// prints the same text, and a state sampled from the decoded view shows the
// same JSON again.
func TestViewJSON(t *testing.T) {
	for n := 3; n <= 8; n++ {
		s := mustNew(t, "players="+string(rune('0'+n))+" rounds=2")
		r := game.NewRand(uint64(n))
		checked := map[string]bool{}
		for step := 0; ; step++ {
			for o := game.Spectator; int(o) < n; o++ {
				v := s.view(o)
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if !json.Valid(b) {
					t.Fatalf("invalid JSON: %s", b)
				}
				if keys := jsonKeys(t, b); !reflect.DeepEqual(keys, viewFields) {
					t.Fatalf("fields %v, want %v", keys, viewFields)
				}
				var w View
				if err := json.Unmarshal(b, &w); err != nil {
					t.Fatalf("view does not decode: %v\n%s", err, b)
				}
				if b2, _ := json.Marshal(&w); !bytes.Equal(b2, b) {
					t.Fatalf("decoded view marshals differently:\n%s\n%s", b, b2)
				}
				if w.String() != v.String() {
					t.Fatalf("decoded view prints differently:\n%s\n%s", v, &w)
				}
				if w.Hand != v.Hand || w.MyPass != v.MyPass || w.Received != v.Received || w.Papayoo != v.Papayoo || !reflect.DeepEqual(w.Voids, v.Voids) {
					t.Fatalf("decoded view's typed fields differ:\n%s", b)
				}
				checked[v.Phase] = true
				if step%5 != 0 {
					continue
				}
				rr := game.NewRand(uint64(step))
				st, err := Engine{}.Sample(&w, &rr)
				if err != nil {
					t.Fatalf("Sample of a decoded view: %v\n%s", err, b)
				}
				if b3, _ := json.Marshal(st.View(o)); !bytes.Equal(b3, b) {
					t.Fatalf("Sample(decoded v).View differs:\n%s\n%s", b, b3)
				}
			}
			if s.Over() {
				break
			}
			randomStep(t, s, &r)
		}
		for _, ph := range []string{PhaseDealer, PhasePass, PhaseDie, PhasePlay, PhaseRoundOver, PhaseOver} {
			if !checked[ph] {
				t.Fatalf("players %d: no view in phase %s", n, ph)
			}
		}
	}
}

// TestViewJSONExample pins one view's JSON: a spectator and seat 1 in the
// middle of the first trick of a constructed position.
func TestViewJSONExample(t *testing.T) {
	p := position(t, 4, 0, int(game.Hearts), 0, "4D 1S", "17P 7S", "5D 1H", "6D 1C")
	mustApply(t, p, 0, "play 4D")
	mustApply(t, p, 1, "play 17P")
	b, _ := json.Marshal(p.View(1))
	got := string(b)
	for _, want := range []string{
		`"players":4,"hand_size":2,"pass_size":5,"round_count":4,"round":1,"phase":"play","dealer":0,"to_act":[2],"hand":["7S"],"hand_sizes":[1,1,2,2]`,
		`"die":"H","papayoo":"7H","trick":{"leader":0,"cards":["4D","17P"],"winner":-1,"points":0},"tricks":[],"voids":[[],["D"],[],[]],"points":[0,0,0,0],"round_scores":[],"totals":[0,0,0,0],"winners":null}`,
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("view JSON\n%s\nlacks\n%s", got, want)
		}
	}
	if strings.Contains(got, `"rounds":4`) {
		t.Fatalf("the old rounds field is still there: %s", got)
	}
	b, _ = json.Marshal(p.View(game.Spectator))
	if !strings.Contains(string(b), `"observer":-1,`) || !strings.Contains(string(b), `"hand":null,`) {
		t.Fatalf("spectator JSON %s", b)
	}
}

// TestViewJSONRejects: UnmarshalJSON refuses bad cards, repeated cards and a
// die that disagrees with the Papayoo.
func TestViewJSONRejects(t *testing.T) {
	for _, bad := range []string{
		`{"hand":["7X"]}`, `{"hand":["7S","7S"]}`, `{"my_pass":["21P"]}`, `{"die":"H","papayoo":"7S"}`,
		`{"die":"P","papayoo":"7P"}`, `{"die":"H"}`, `{"trick":{"cards":["0S"]}}`, `{"voids":[["X"]]}`,
	} {
		var v View
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
