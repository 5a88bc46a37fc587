package table

import (
	"maps"
	"sync"

	"cardroom/game"
)

// standIns remembers which steps of the log a bot made for a seat's
// player (game.ByAway, game.ByTimeout): the post-game analysis must not
// count those moves as the player's (docs/bots.md, "Post-game analysis").
// The record does not keep them, so only the running table knows them: a
// table restored after a restart knows the marks of the steps made since.
// It holds one entry per stand-in move, no more than the log's steps. The
// table's events write it; the server reads it from its own goroutines
// (StandIns), hence the lock.
type standIns struct {
	mu    sync.Mutex
	steps map[int]game.By // 1-based step (len(log) after the move) → who chose
	since int             // the steps up to this one were made before the table ran (restored)
}

// noteStandIn records that the step just logged was chosen by a stand-in.
func (t *Table) noteStandIn(by game.By) {
	if by == "" {
		return
	}
	t.standInMarks.mu.Lock()
	defer t.standInMarks.mu.Unlock()
	if t.standInMarks.steps == nil {
		t.standInMarks.steps = map[int]game.By{}
	}
	t.standInMarks.steps[t.log.len()] = by
}

// StandIns returns a copy of the stand-in marks of the game's steps: step
// (1-based, as the record's entries and the analysis count them) → who
// chose the move; and since, the steps up to which the table does not
// know (0 for a table that ran the whole game; a restored table's log
// length at its restore). Safe from any goroutine.
func (t *Table) StandIns() (marks map[int]game.By, since int) {
	t.standInMarks.mu.Lock()
	defer t.standInMarks.mu.Unlock()
	return maps.Clone(t.standInMarks.steps), t.standInMarks.since
}
