package game

import (
	"encoding/json"
	"slices"
)

// The engines write their views' JSON by hand (View.AppendJSON) and the
// server its state messages: these are the pieces they share, each writing
// exactly the bytes encoding/json would.

// AppendJSONString appends s as a JSON string: printable ASCII other than
// the quote, the backslash and the characters encoding/json escapes for
// HTML is written as it is; any other string goes through encoding/json.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendJSON appends the options as encoding/json writes the map: keys in
// order, null for nil options.
func (o Options) AppendJSON(b []byte) []byte {
	if o == nil {
		return append(b, "null"...)
	}
	var buf [16]string
	keys := buf[:0]
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, k)
		b = append(b, ':')
		b = AppendJSONString(b, o[k])
	}
	return append(b, '}')
}
