package protocol

import (
	"strings"
	"testing"
)

// TestDecodeChat: the decoder's checks of the chat and rematch messages,
// and the text it hands on normalized.
func TestDecodeChat(t *testing.T) {
	cases := []struct {
		name, in string
		code     Code   // "" for accepted
		text     string // the normalized text of an accepted chat
	}{
		{"text", `{"type":"chat","table":"t_1","channel":"players","text":" hi "}`, "", "hi"},
		{"nfc", `{"type":"chat","table":"t_1","channel":"players","text":"cafe\u0301"}`, "", "café"},
		{"emoji sequence", `{"type":"chat","table":"t_1","channel":"spectators","text":"👍🏽 ❤️ 👨‍👩‍👧"}`, "", "👍🏽 ❤️ 👨‍👩‍👧"},
		{"phrase", `{"type":"chat","table":"t_1","channel":"players","phrase":"gg"}`, "", ""},
		{"no table", `{"type":"chat","channel":"players","text":"hi"}`, BadRequest, ""},
		{"bad channel", `{"type":"chat","table":"t_1","channel":"lobby","text":"hi"}`, BadRequest, ""},
		{"no channel", `{"type":"chat","table":"t_1","text":"hi"}`, BadRequest, ""},
		{"neither", `{"type":"chat","table":"t_1","channel":"players"}`, BadRequest, ""},
		{"both", `{"type":"chat","table":"t_1","channel":"players","text":"hi","phrase":"gg"}`, BadRequest, ""},
		{"unknown phrase", `{"type":"chat","table":"t_1","channel":"players","phrase":"<b>"}`, BadRequest, ""},
		{"too long", `{"type":"chat","table":"t_1","channel":"players","text":"` + strings.Repeat("a", MaxChatText+1) + `"}`, BadRequest, ""},
		{"escape", `{"type":"chat","table":"t_1","channel":"players","text":"a\u001b[31m"}`, BadRequest, ""},
		{"rtl override", `{"type":"chat","table":"t_1","channel":"players","text":"a\u202e"}`, BadRequest, ""},
		{"private use", `{"type":"chat","table":"t_1","channel":"players","text":"a\ue000"}`, BadRequest, ""},
		{"text as number", `{"type":"chat","table":"t_1","channel":"players","text":5}`, BadRequest, ""},
		{"chat field elsewhere", `{"type":"ping","text":"hi"}`, BadRequest, ""},
		{"settings", `{"type":"chat_settings","table":"t_1","show_spectators":false}`, "", ""},
		{"settings not bool", `{"type":"chat_settings","table":"t_1","spectator_chat":"off"}`, BadRequest, ""},
		{"report", `{"type":"chat_report","table":"t_1","line":3,"reason":"rude"}`, "", ""},
		{"report line 0", `{"type":"chat_report","table":"t_1","line":0}`, BadRequest, ""},
		{"report long reason", `{"type":"chat_report","table":"t_1","line":3,"reason":"` + strings.Repeat("a", MaxReportReason+1) + `"}`, BadRequest, ""},
		{"report bell", `{"type":"chat_report","table":"t_1","line":3,"reason":"\u0007"}`, BadRequest, ""},
		{"rematch", `{"type":"rematch","table":"t_1"}`, "", ""},
		{"decline", `{"type":"rematch","table":"t_1","accept":false}`, "", ""},
		{"rematch no table", `{"type":"rematch"}`, BadRequest, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, e := DecodeClient([]byte(tc.in))
			if tc.code != "" {
				if e == nil || e.Code != tc.code {
					t.Fatalf("got %v %v, want %s", m, e, tc.code)
				}
				return
			}
			if e != nil {
				t.Fatalf("refused: %v", e)
			}
			if c, ok := m.(*ChatReq); ok && c.Text != tc.text {
				t.Errorf("text %q, want %q", c.Text, tc.text)
			}
		})
	}
}

// TestChatRoundTrip: the server messages decode into their types.
func TestChatRoundTrip(t *testing.T) {
	for _, m := range []ServerMsg{ChatMsg{Table: "t_1", Channel: ChannelPlayers, Name: "a", Text: "x", Line: 1},
		ChatSettingsMsg{Table: "t_1"}, ChatReportMsg{Table: "t_1", Line: 1}, RematchMsg{Table: "t_1", State: RematchOffered}} {
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeServer(b)
		if err != nil || got.MessageType() != m.MessageType() {
			t.Errorf("%s: %T %v", b, got, err)
		}
		if _, unknown := got.(*UnknownMsg); unknown {
			t.Errorf("%s decoded as unknown", b)
		}
	}
}
