package protocol

import "strconv"

// Pick describes a seat's legal moves when they are too many to list
// (game.Pick): every move is Verb followed by N distinct cards of From, in
// any order, and nothing else is legal. A state message that has one
// lists only the first few of those moves in legal (legal_count is the
// total), so a simple bot can still play one of them; a client that lets
// a player choose uses the pick. It is sent only to the seat it is for
// (From is that seat's own cards).
type Pick struct {
	Verb string   `json:"verb"`
	N    int      `json:"n"`
	From []string `json:"from"`
}

// PickListed is how many of a Pick's moves a state message still lists.
const PickListed = 8

// AppendPick writes `,"pick":{…}` for p, or nothing when p is nil: the
// field after legal_count in the hand-written state head (StateMsg.Pick).
func AppendPick(b []byte, p *Pick) []byte {
	if p == nil {
		return b
	}
	b = append(b, `,"pick":{"verb":`...)
	b = AppendString(b, p.Verb)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(p.N), 10)
	b = append(b, `,"from":`...)
	b = AppendLegal(b, p.From...)
	return append(b, '}')
}
