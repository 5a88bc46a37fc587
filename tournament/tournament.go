// Package tournament is the arithmetic of duplicate tournaments
// (docs/tournaments.md), with no I/O: the schedule (each deal's seed and
// the seat every entrant plays it from), the deadlines, and the standings,
// which compare each entrant with the others who held the same cards.
//
// A deal is one game of a fixed seed and fixed options. A table draws its
// chance outcomes from its seed and the step number (package table), so
// every table of one deal starts with the same dealer and the same hands;
// every entrant plays the deal from the same seat, and bots of one level
// hold the others. The seat rotates from deal to deal, so nobody keeps the
// seat that happens to be dealt well.
package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"time"
)

// Bounds of a tournament's settings. The server's flags may lower the
// entrant bound, never raise it.
const (
	MinDeals       = 1
	MaxDeals       = 12
	MaxEntrants    = 64
	MinDealTime    = 5 * time.Minute
	MaxDealTime    = 7 * 24 * time.Hour
	MaxStartDelay  = 30 * 24 * time.Hour // how far ahead a start time may be
	DefaultLevel   = "medium"
	DefaultDealMin = 60 // minutes, the deadline per deal when none is given
)

// Statuses of a tournament. Open takes entrants; running is played;
// finished has final standings; cancelled never started (nobody joined
// by its start time, or it was not full in time).
const (
	Open      = "open"
	Running   = "running"
	Finished  = "finished"
	Cancelled = "cancelled"
)

// IsUnfinished reports whether a tournament of this status still counts
// against the bounds (open or running).
func IsUnfinished(status string) bool { return status == Open || status == Running }

// DealSeed is the seed of deal d of a tournament seeded with seed (the
// tournament's secret): a SHA-256 of both, so that one deal's seed tells
// nothing of the tournament's seed or of another deal's. (It was a
// splitmix64 step, which is a bijection: anyone who learnt one deal's seed
// could undo it and compute every deal still to be played.)
func DealSeed(seed uint64, d int) uint64 {
	var b [len(dealSeedTag) + 16]byte
	copy(b[:], dealSeedTag)
	binary.LittleEndian.PutUint64(b[len(dealSeedTag):], seed)
	binary.LittleEndian.PutUint64(b[len(dealSeedTag)+8:], uint64(d))
	h := sha256.Sum256(b[:])
	return binary.LittleEndian.Uint64(h[:8])
}

const dealSeedTag = "cardroom tournament deal\x00"

// Seat is the seat every entrant plays deal d from at a table of seats
// seats: deal 0 from seat 0, deal 1 from seat 1, and so on round the table.
func Seat(d, seats int) int {
	if seats <= 0 {
		return 0
	}
	return d % seats
}

// Deadline is when deal d closes for a tournament started at started with
// dealTime per deal: deal d is due dealTime×(d+1) after the start, so an
// entrant who keeps pace plays one deal per period, and one who is ahead
// may play the next deals early.
func Deadline(started time.Time, dealTime time.Duration, d int) time.Time {
	return started.Add(dealTime * time.Duration(d+1))
}

// Check validates a tournament's numbers: deals, the entrant bound (at most
// maxEntrants, itself at most MaxEntrants) and the time per deal.
func Check(deals, entrants, maxEntrants int, dealTime time.Duration) error {
	maxEntrants = min(maxEntrants, MaxEntrants)
	switch {
	case deals < MinDeals || deals > MaxDeals:
		return fmt.Errorf("deals must be %d to %d", MinDeals, MaxDeals)
	case entrants < 1 || entrants > maxEntrants:
		return fmt.Errorf("max_entrants must be 1 to %d", maxEntrants)
	case dealTime < MinDealTime || dealTime > MaxDealTime:
		return fmt.Errorf("the time per deal must be %v to %v", MinDealTime, MaxDealTime)
	}
	return nil
}

// Outcome is one entrant's result on one deal.
type Outcome struct {
	Done   bool // the game was played to its end
	Points int  // the entrant's total in that game, when Done
}

// Deal is every entrant's outcome on one deal (in entrant order) and
// whether the deal is closed: its deadline has passed, or every entrant
// has played it.
type Deal struct {
	Outcomes []Outcome
	Closed   bool
}

// Cell states.
const (
	Played  = "played"  // the game ended: compared with the field
	Missed  = "missed"  // not played by the deadline: scored as the field's worst
	Pending = "pending" // not played yet, the deal still open: left out
)

// Cell is one entrant's line on one deal of the standings.
type Cell struct {
	State  string  `json:"state"`
	Points int     `json:"points"` // the game's points (Missed: the field's worst)
	Score  float64 `json:"score"`  // against the field's average; positive is better
}

// Row is one entrant's standing: their total, rank (1 is first; ties
// share a rank) and each deal.
type Row struct {
	Entrant int     `json:"-"`
	Total   float64 `json:"total"`
	Rank    int     `json:"rank"`
	Deals   []Cell  `json:"deals"`
}

// Standings compares the entrants deal by deal. On each deal, the entrants
// who played it (and, once the deal is closed, those who did not, scored
// at the worst points any entrant made on it) are compared with their
// average: an entrant's score is average − points where lower points are
// better (Papayoo, Pis Yedili) and points − average where higher are
// (500 Rum), so a deal's scores sum to zero and beating the field by 10
// points is +10 whichever cards the deal gave. An entrant's total is the
// sum of their scores. Scores are rounded to hundredths.
//
// The rows come back in entrant order (Row.Entrant), each with its rank.
func Standings(entrants int, deals []Deal, higherWins bool) []Row {
	rows := make([]Row, entrants)
	for i := range rows {
		rows[i] = Row{Entrant: i, Deals: make([]Cell, len(deals))}
	}
	for d, dl := range deals {
		var field []int // the entrants in this deal's comparison
		worst, any := 0, false
		for i := 0; i < entrants && i < len(dl.Outcomes); i++ {
			o := dl.Outcomes[i]
			if !o.Done {
				continue
			}
			if !any || higherWins && o.Points < worst || !higherWins && o.Points > worst {
				worst = o.Points
			}
			any = true
		}
		for i := range rows {
			c := &rows[i].Deals[d]
			switch {
			case i < len(dl.Outcomes) && dl.Outcomes[i].Done:
				c.State, c.Points = Played, dl.Outcomes[i].Points
				field = append(field, i)
			case dl.Closed && any:
				c.State, c.Points = Missed, worst
				field = append(field, i)
			case dl.Closed:
				c.State = Missed // nobody played it: nothing to compare
			default:
				c.State = Pending
			}
		}
		if len(field) == 0 {
			continue
		}
		sum := 0
		for _, i := range field {
			sum += rows[i].Deals[d].Points
		}
		avg := float64(sum) / float64(len(field))
		for _, i := range field {
			c := &rows[i].Deals[d]
			c.Score = avg - float64(c.Points)
			if higherWins {
				c.Score = -c.Score
			}
			c.Score = round2(c.Score)
		}
	}
	for i := range rows {
		t := 0.0
		for _, c := range rows[i].Deals {
			t += c.Score
		}
		rows[i].Total = round2(t)
	}
	order := make([]int, entrants)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]].Total > rows[order[b]].Total })
	for k, i := range order {
		rows[i].Rank = k + 1
		if k > 0 && rows[order[k-1]].Total == rows[i].Total {
			rows[i].Rank = rows[order[k-1]].Rank
		}
	}
	return rows
}

func round2(x float64) float64 {
	r := math.Round(x*100) / 100
	if r == 0 {
		return 0 // no "-0" in the standings
	}
	return r
}
