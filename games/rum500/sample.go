package rum500

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cardroom/game"
)

// Sample implements game.Engine: it rebuilds a full state from a view,
// dealing the unseen cards (the deck minus the observer's hand, the pile,
// the table, the cards other seats are known to hold, and a public stock)
// uniformly at random to the other hands (on top of their known cards) and
// the stock.
func (Engine) Sample(gv game.View, r *game.Rand) (game.State, error) {
	var v *View
	switch x := gv.(type) {
	case *View:
		v = x
	default:
		return nil, fmt.Errorf("rum500: not a 500 Rum view: %T", gv)
	}
	c, norm, err := parseConfig(v.Options)
	if err != nil {
		return nil, err
	}
	s := newState(c, norm)
	n := c.n
	if v.Players != n || len(v.Totals) != n {
		return nil, errors.New("rum500: view: player count does not match the options")
	}
	ph := -1
	for i, name := range phaseNames {
		if name == v.Phase {
			ph = i
		}
	}
	if ph < 0 {
		return nil, fmt.Errorf("rum500: view: unknown phase %q", v.Phase)
	}
	s.phase = phase(ph)
	s.handNo, s.dealer = v.HandNo, v.Dealer
	copy(s.totals[:n], v.Totals)
	for _, rd := range v.Rounds {
		if len(rd) != n {
			return nil, errors.New("rum500: view: bad round scores")
		}
		s.rounds = append(s.rounds, rd...)
	}
	if s.handNo == 0 {
		return s, nil
	}
	if v.ToAct >= 0 {
		s.toMove = v.ToAct
	}
	s.out = v.WentOut
	if len(v.HandSizes) != n || len(v.Known) != n || len(v.Table) != n {
		return nil, errors.New("rum500: view: per-seat lists of the wrong length")
	}

	// What is left of the deck once everything seen is taken out.
	var counts [53]int
	var full [maxCards]uint8
	total := s.fullDeck(&full)
	for _, x := range full[:total] {
		counts[x]++
	}
	take := func(what string, cs []string) ([]int, error) {
		var out []int
		for _, t := range cs {
			cc, err := game.Standard.Parse(t)
			if err != nil {
				return nil, fmt.Errorf("rum500: view: %s: %v", what, err)
			}
			i := ix(cc)
			counts[i]--
			if counts[i] < 0 {
				return nil, fmt.Errorf("rum500: view: %s: too many %s", what, t)
			}
			out = append(out, i)
		}
		return out, nil
	}

	pile, err := take("pile", v.Pile)
	if err != nil {
		return nil, err
	}
	for _, x := range pile {
		s.pile[s.pileN] = uint8(x)
		s.pileN++
	}
	for k, mv := range v.Melds {
		if mv.Number != k+1 || len(mv.Cards) != len(mv.Stands) || len(mv.Owners) != len(mv.Stands) {
			return nil, fmt.Errorf("rum500: view: meld %d malformed", k+1)
		}
		var faces, jk game.Mask
		var onTable []string
		acePos := -1
		for j, st := range mv.Stands {
			cc, err := game.Standard.Parse(st)
			if err != nil || cc == game.Joker {
				return nil, fmt.Errorf("rum500: view: meld %d: bad card %q", k+1, st)
			}
			f := ix(cc)
			faces |= game.Bit(f)
			if f%13 == 0 {
				acePos = j
			}
			if mv.Cards[j] == "JK" {
				jk |= game.Bit(f)
				onTable = append(onTable, "JK")
			} else {
				onTable = append(onTable, st)
			}
		}
		b := EndNone
		if len(mv.Stands) == 13 && mv.Kind == "run" {
			b = EndLow
			if acePos == 12 {
				b = EndHigh
			}
		}
		m, reason := shape(faces, jk, b)
		if reason != "" || m.run != (mv.Kind == "run") {
			return nil, fmt.Errorf("rum500: view: meld %d: %s", k+1, reason)
		}
		if _, err := take(fmt.Sprintf("meld %d", k+1), onTable); err != nil {
			return nil, err
		}
		for j, sl := range m.order(nil) {
			o := mv.Owners[j]
			if o < 0 || o >= n {
				return nil, fmt.Errorf("rum500: view: meld %d: bad owner %d", k+1, o)
			}
			m.owner[sl] = int8(o)
			f := m.slotFace(sl)
			s.table[o] += m.points(f, jk.Has(f), sl)
		}
		m.refresh()
		s.melds[s.meldsN] = m
		s.meldsN++
	}
	for i := 0; i < n; i++ {
		if s.table[i] != v.Table[i] {
			return nil, fmt.Errorf("rum500: view: seat %d's table points %d do not match its melds (%d)", i, v.Table[i], s.table[i])
		}
	}
	s.stockN = v.Stock
	if v.TurnedOver {
		s.turned = true
		sc, err := take("stock", v.StockCards)
		if err != nil {
			return nil, err
		}
		if len(sc) != v.Stock {
			return nil, errors.New("rum500: view: stock cards do not match the stock size")
		}
		for j, x := range sc {
			s.stock[len(sc)-1-j] = uint8(x)
		}
	}
	for _, t := range v.Moves {
		seat, mt, _ := strings.Cut(t, " ")
		si, err := strconv.Atoi(seat)
		if err != nil || si < 0 || si >= n {
			return nil, fmt.Errorf("rum500: view: bad move %q", t)
		}
		m, err := ParseMove(mt)
		if err != nil {
			return nil, fmt.Errorf("rum500: view: move %q: %v", t, err)
		}
		s.hist = append(s.hist, histEntry{int8(si), m})
	}

	// Hands.
	var fixed [maxSeats]bool
	if v.Shown != nil {
		if len(v.Shown) != n {
			return nil, errors.New("rum500: view: shown hands of the wrong length")
		}
		for i := 0; i < n; i++ {
			cs, err := take(fmt.Sprintf("seat %d's hand", i), v.Shown[i])
			if err != nil {
				return nil, err
			}
			for _, x := range cs {
				s.hands[i].add(x)
			}
			fixed[i] = true
		}
	} else if v.Seat >= 0 && v.Seat < n {
		cs, err := take("hand", v.Hand)
		if err != nil {
			return nil, err
		}
		for _, x := range cs {
			s.hands[v.Seat].add(x)
		}
		fixed[v.Seat] = true
	}
	for i := 0; i < n; i++ {
		for _, t := range v.Known[i] {
			cc, err := game.Standard.Parse(t)
			if err != nil {
				return nil, fmt.Errorf("rum500: view: known: %v", err)
			}
			s.known[i].add(ix(cc))
		}
		if fixed[i] {
			// The known cards must be in the hand shown.
			var k hand = s.known[i]
			for _, x := range k.indices(nil) {
				if s.hands[i].has(x) < k.has(x) {
					return nil, fmt.Errorf("rum500: view: seat %d is known to hold %s but does not", i, cardStr(x))
				}
			}
			continue
		}
		if _, err := take(fmt.Sprintf("seat %d's known cards", i), v.Known[i]); err != nil {
			return nil, err
		}
		s.hands[i] = s.known[i]
	}
	var pool []int
	for x := 0; x < 53; x++ {
		for k := 0; k < counts[x]; k++ {
			pool = append(pool, x)
		}
	}
	for i := len(pool) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	for i := 0; i < n; i++ {
		if fixed[i] {
			if s.hands[i].count() != v.HandSizes[i] {
				return nil, fmt.Errorf("rum500: view: seat %d holds %d cards, size says %d", i, s.hands[i].count(), v.HandSizes[i])
			}
			continue
		}
		need := v.HandSizes[i] - s.hands[i].count()
		if need < 0 || need > len(pool) {
			return nil, fmt.Errorf("rum500: view: seat %d: hand size %d does not fit", i, v.HandSizes[i])
		}
		for _, x := range pool[:need] {
			s.hands[i].add(x)
		}
		pool = pool[need:]
	}
	if !s.turned {
		if len(pool) != s.stockN {
			return nil, fmt.Errorf("rum500: view: %d unseen cards for a stock of %d", len(pool), s.stockN)
		}
		for j, x := range pool {
			s.stock[j] = uint8(x)
		}
	} else if len(pool) != 0 {
		return nil, fmt.Errorf("rum500: view: %d cards unaccounted for", len(pool))
	}
	return s, nil
}
