package game

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONAsEncodingJSON: the hand-written JSON pieces write exactly
// what encoding/json writes, escapes included.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "7H", `a"b`, `c\d`, "<&>", "é", "tab\t", "\x7f", "\u2028"} {
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("AppendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
	for _, o := range []Options{nil, {}, {"players": "4", "a<": "x&y", "rounds": "2"}} {
		want, _ := json.Marshal(o)
		if got := o.AppendJSON(nil); string(got) != string(want) {
			t.Errorf("%v.AppendJSON = %s, want %s", o, got, want)
		}
	}
}
