package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

// docExample is one JSON value of a json block of docs/protocol.md.
type docExample struct {
	line    int    // where its block starts
	heading string // the last heading above it
	dir     string // "client", "server" or "" (outside the message sections)
	raw     json.RawMessage
}

// docExamples reads every JSON value of every ```json block of the doc.
// A json block must hold only JSON: that is what makes it checkable.
func docExamples(t *testing.T) ([]docExample, string) {
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var out []docExample
	var heading, dir string
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "## "):
			heading, dir = l, ""
		case strings.HasPrefix(l, "### "):
			heading, dir = l, ""
			if strings.Contains(l, "Server → client") {
				dir = "server"
			} else if strings.Contains(l, "Client → server") {
				dir = "client"
			}
		case strings.HasPrefix(l, "#### "):
			heading = l
		case l == "```json":
			start := i + 1
			var block strings.Builder
			for i++; i < len(lines) && lines[i] != "```"; i++ {
				block.WriteString(lines[i] + "\n")
			}
			dec := json.NewDecoder(strings.NewReader(block.String()))
			for {
				var v json.RawMessage
				err := dec.Decode(&v)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("docs/protocol.md:%d: a json block that is not JSON: %v", start, err)
					break
				}
				out = append(out, docExample{line: start, heading: heading, dir: dir, raw: v})
			}
		}
	}
	return out, doc
}

// messageTypes maps a direction and a type to its Go type.
func messageTypes() map[string]map[string]reflect.Type {
	return map[string]map[string]reflect.Type{
		"client": {
			TypeLobby: reflect.TypeFor[LobbyReq](), TypeCreate: reflect.TypeFor[CreateReq](), TypeJoin: reflect.TypeFor[JoinReq](),
			TypeLeave: reflect.TypeFor[LeaveReq](), TypeAddBot: reflect.TypeFor[AddBotReq](), TypeRemoveBot: reflect.TypeFor[RemoveBotReq](),
			TypeWatch: reflect.TypeFor[WatchReq](), TypeUnwatch: reflect.TypeFor[UnwatchReq](), TypeMove: reflect.TypeFor[MoveReq](),
			TypeHint: reflect.TypeFor[HintReq](), TypePing: reflect.TypeFor[PingReq](),
			TypeChat: reflect.TypeFor[ChatReq](), TypeChatSettings: reflect.TypeFor[ChatSettingsReq](),
			TypeChatReport: reflect.TypeFor[ChatReportReq](), TypeRematch: reflect.TypeFor[RematchReq](),
		},
		"server": {
			TypeWelcome: reflect.TypeFor[WelcomeMsg](), TypeState: reflect.TypeFor[StateMsg](), TypeAck: reflect.TypeFor[AckMsg](),
			TypeError: reflect.TypeFor[ErrorMsg](), TypeLobby: reflect.TypeFor[LobbyMsg](), TypeCreated: reflect.TypeFor[CreatedMsg](),
			TypeJoined: reflect.TypeFor[JoinedMsg](), TypeHint: reflect.TypeFor[HintMsg](), TypePong: reflect.TypeFor[PongMsg](),
			TypeChat: reflect.TypeFor[ChatMsg](), TypeChatSettings: reflect.TypeFor[ChatSettingsMsg](),
			TypeChatReport: reflect.TypeFor[ChatReportMsg](), TypeRematch: reflect.TypeFor[RematchMsg](),
		},
	}
}

func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// TestDocExamples: docs/protocol.md shows every message type of the
// package with an example, in the section of its direction, and every
// example decodes into its type without an unknown field (so a field
// renamed or removed in the types, or misspelt in the doc, fails here);
// the HTTP error body and the table summary too. It also lists every error
// code.
func TestDocExamples(t *testing.T) {
	examples, doc := docExamples(t)
	types := messageTypes()
	if len(types["client"]) != len(ClientTypes()) || len(types["server"]) != len(ServerTypes()) {
		t.Fatal("messageTypes and ClientTypes/ServerTypes disagree")
	}
	seen := map[string]int{}
	checked := 0
	for _, ex := range examples {
		var probe map[string]json.RawMessage
		if json.Unmarshal(ex.raw, &probe) != nil {
			continue // an array or a scalar: no message
		}
		typ := ""
		if tb, ok := probe["type"]; ok {
			json.Unmarshal(tb, &typ)
		}
		switch {
		case typ != "":
			if ex.dir == "" {
				t.Errorf("docs/protocol.md:%d (%s): a %q example outside the message sections", ex.line, ex.heading, typ)
				continue
			}
			rt, ok := types[ex.dir][typ]
			if !ok {
				t.Errorf("docs/protocol.md:%d: %s message %q is not a type of package protocol", ex.line, ex.dir, typ)
				continue
			}
			v := reflect.New(rt)
			if err := strictDecode(ex.raw, v.Interface()); err != nil {
				t.Errorf("docs/protocol.md:%d: %s example does not decode into %s: %v\n%s", ex.line, typ, rt.Name(), err, ex.raw)
				continue
			}
			if got := v.Elem().FieldByName("Type").String(); got != typ {
				t.Errorf("docs/protocol.md:%d: decoded type %q", ex.line, got)
			}
			seen[ex.dir+" "+typ]++
		case probe["error"] != nil:
			var e ErrorBody
			if err := strictDecode(ex.raw, &e); err != nil || !e.Error.Code.Known() {
				t.Errorf("docs/protocol.md:%d: HTTP error body: %v (code %q)\n%s", ex.line, err, e.Error.Code, ex.raw)
			}
			seen["http error"]++
		case strings.Contains(ex.heading, "GET /api/games"):
			var g GamesList
			if err := strictDecode(ex.raw, &g); err != nil || len(g.Games) == 0 {
				t.Errorf("docs/protocol.md:%d: games list: %v", ex.line, err)
			}
			seen["games"]++
		case strings.Contains(ex.heading, "Replay"):
			// The view is the engine's: decoded raw here.
			var r struct {
				Replay
				View json.RawMessage `json:"view"`
			}
			if err := strictDecode(ex.raw, &r); err != nil || r.Entry == nil {
				t.Errorf("docs/protocol.md:%d: replay: %v", ex.line, err)
			}
			seen["replay"]++
		case probe["games"] != nil:
			var h History
			if err := strictDecode(ex.raw, &h); err != nil || len(h.Games) == 0 {
				t.Errorf("docs/protocol.md:%d: history: %v", ex.line, err)
			}
			seen["history"]++
		case strings.Contains(ex.heading, "Table summary"):
			var s Summary
			if err := strictDecode(ex.raw, &s); err != nil {
				t.Errorf("docs/protocol.md:%d: table summary: %v", ex.line, err)
			}
			seen["summary"]++
		default:
			continue
		}
		checked++
	}
	for dir, ts := range types {
		for typ := range ts {
			if seen[dir+" "+typ] == 0 {
				t.Errorf("docs/protocol.md has no example of the %s message %q (a ```json block in the %s section)", dir, typ, dir)
			}
		}
	}
	if seen["http error"] == 0 || seen["summary"] == 0 || seen["games"] == 0 || seen["replay"] == 0 || seen["history"] == 0 {
		t.Errorf("docs/protocol.md: no example of the HTTP error body or of the table summary (%v)", seen)
	}
	for _, c := range Codes() {
		if !strings.Contains(doc, "| `"+string(c)+"`") && !strings.Contains(doc, ", `"+string(c)+"`") {
			t.Errorf("docs/protocol.md: the code table lacks %q", c)
		}
	}
	if !strings.Contains(doc, "# Cardroom protocol (version "+itoa(Version)+")") {
		t.Errorf("docs/protocol.md: the title does not name version %d", Version)
	}
	if checked < 20 {
		t.Errorf("only %d examples checked", checked)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
