package store

import (
	"context"
	"errors"
	"time"
)

// ChatLine is one stored chat line of a table (docs/protocol.md, "Chat").
// Seat is -1 for a spectator's line.
type ChatLine struct {
	Table   string
	ID      int64 // 1, 2, … per table
	Channel string
	Player  string
	Name    string
	Seat    int
	Text    string
	Phrase  string
	At      time.Time
}

// ChatReport is a reported line, kept for the operator with a copy of the
// line (the table keeps only its last lines).
type ChatReport struct {
	ID           int64
	Reporter     string
	ReporterName string
	Reason       string
	At           time.Time
	Line         ChatLine
}

// ErrDuplicate is returned by AddChatReport for a line the reporter has
// reported already.
var ErrDuplicate = errors.New("already reported")

// MaxReports bounds one ChatReports answer.
const MaxReports = 1000

// Chat is the persistence of table chat. It is an interface of its own,
// beside Store, so that a store without it still runs a room (the server
// then keeps chat in memory only).
type Chat interface {
	// AppendChat stores a line and deletes the table's lines older than
	// its last keep.
	AppendChat(ctx context.Context, l ChatLine, keep int) error
	// ChatLines returns a table's last limit lines, oldest first.
	ChatLines(ctx context.Context, table string, limit int) ([]ChatLine, error)
	// SpectatorChatOff reports whether the owner turned a table's
	// spectators' channel off; SetSpectatorChatOff stores that choice.
	SpectatorChatOff(ctx context.Context, table string) (bool, error)
	SetSpectatorChatOff(ctx context.Context, table string, off bool) error
	// AddChatReport stores a report (ErrDuplicate if the reporter reported
	// this line before).
	AddChatReport(ctx context.Context, r ChatReport) error
	// ChatReports lists the reports, newest first, at most limit (capped
	// at MaxReports).
	ChatReports(ctx context.Context, limit int) ([]ChatReport, error)
}

// FencedChat is Chat for the nodes of a cluster (the PostgreSQL store):
// AppendChatFenced stores a line, as AppendChat does, only while epoch is
// the table's current, unexpired lease, checked in the line's own
// transaction (Leases.AppendFenced's rule for moves); otherwise it
// returns ErrFenced and stores nothing. So a node that lost a table
// without noticing cannot write to its chat, not even in the moment
// between a check and the insert.
type FencedChat interface {
	AppendChatFenced(ctx context.Context, l ChatLine, keep int, epoch int64) error
}

var _ FencedChat = (*Postgres)(nil)
