package rum500

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"cardroom/game"
)

// Sample implements game.Engine: it rebuilds a full state from a view,
// dealing the unseen cards (the deck minus the observer's hand, the pile,
// the table, the cards other seats are known to hold, and a public stock)
// uniformly at random to the other hands (on top of their known cards) and
// the stock.
func (Engine) Sample(gv game.View, r *game.Rand) (game.State, error) {
	v, ok := gv.(*View)
	if !ok {
		return nil, fmt.Errorf("rum500: not a 500 Rum view: %T", gv)
	}
	c, norm, err := sampleConfig(v.Options)
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
	s.handNo, s.dealer = v.Round, int(v.Dealer)
	copy(s.totals[:n], v.Totals)
	s.rounds = make([]int, 0, len(v.RoundScores)*n)
	for _, rd := range v.RoundScores {
		if len(rd) != n {
			return nil, errors.New("rum500: view: bad round scores")
		}
		s.rounds = append(s.rounds, rd...)
	}
	if s.handNo == 0 {
		return s, nil
	}
	if len(v.ToAct) > 0 {
		s.toMove = int(v.ToAct[0])
	}
	s.out = int(v.WentOut)
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
	// take removes card index i from the unseen cards; what and k (a
	// seat or a meld number, if what has a %d) say where it was seen.
	take := func(what string, k, i int) error {
		if i >= 0 {
			counts[i]--
			if counts[i] >= 0 {
				return nil
			}
		}
		where := what
		if strings.Contains(what, "%d") {
			where = fmt.Sprintf(what, k)
		}
		if i < 0 {
			return fmt.Errorf("rum500: view: %s: not a card", where)
		}
		return fmt.Errorf("rum500: view: %s: too many %s", where, cardStr(i))
	}
	takeHand := func(what string, k int, h Hand) error {
		if h.Two&^h.One != 0 || h.One>>52 != 0 {
			return fmt.Errorf("rum500: view: "+what+": not a hand", k)
		}
		for _, m := range [2]game.Mask{h.One, h.Two} {
			for ; m != 0; m &= m - 1 {
				if err := take(what, k, m.Lowest()); err != nil {
					return err
				}
			}
		}
		for j := 0; j < int(h.Jokers); j++ {
			if err := take(what, k, jokerIx); err != nil {
				return err
			}
		}
		return nil
	}

	if len(v.Pile) > maxCards {
		return nil, errors.New("rum500: view: pile too large")
	}
	for _, c := range v.Pile {
		if err := take("pile", 0, ix(c)); err != nil {
			return nil, err
		}
		s.pile[s.pileN] = uint8(ix(c))
		s.pileN++
	}
	if len(v.Melds) > maxMelds {
		return nil, errors.New("rum500: view: too many melds")
	}
	for k := range v.Melds {
		mv := &v.Melds[k]
		if mv.Number != k+1 || len(mv.Owners) != len(mv.Stands) {
			return nil, fmt.Errorf("rum500: view: meld %d malformed", k+1)
		}
		var faces game.Mask
		acePos := -1
		for j, st := range mv.Stands {
			f := ix(st)
			if f < 0 || st == game.Joker || faces.Has(f) {
				return nil, fmt.Errorf("rum500: view: meld %d: bad card %q", k+1, game.Standard.Format(st))
			}
			faces |= game.Bit(f)
			if f%13 == 0 {
				acePos = j
			}
		}
		jk := mv.Jokers
		b := EndNone
		if len(mv.Stands) == 13 && mv.Run {
			b = EndLow
			if acePos == 12 {
				b = EndHigh
			}
		}
		m, reason := shape(faces, jk, b)
		if reason != "" || m.run != mv.Run {
			return nil, fmt.Errorf("rum500: view: meld %d: %s", k+1, reason)
		}
		for _, st := range mv.Stands {
			f := ix(st)
			if jk.Has(f) {
				f = jokerIx
			}
			if err := take("meld %d", k+1, f); err != nil {
				return nil, err
			}
		}
		var slots [14]int
		for j, sl := range m.order(slots[:0]) {
			o := mv.Owners[j]
			if o < 0 || int(o) >= n {
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
	if v.Stock < 0 || v.Stock > maxCards {
		return nil, fmt.Errorf("rum500: view: bad stock size %d", v.Stock)
	}
	s.stockN = v.Stock
	if v.TurnedOver {
		s.turned = true
		if len(v.StockCards) != v.Stock {
			return nil, errors.New("rum500: view: stock cards do not match the stock size")
		}
		for j, c := range v.StockCards {
			if err := take("stock", 0, ix(c)); err != nil {
				return nil, err
			}
			s.stock[v.Stock-1-j] = uint8(ix(c))
		}
	}
	s.hist = make([]histEntry, len(v.Moves))
	for i, p := range v.Moves {
		if p.Seat < 0 || int(p.Seat) >= n || !canonical(p.Move) {
			return nil, fmt.Errorf("rum500: view: bad move %d %s", p.Seat, FormatMove(p.Move))
		}
		s.hist[i] = histEntry{int8(p.Seat), p.Move}
	}

	// Hands.
	var fixed [maxSeats]bool
	if v.Shown != nil {
		if len(v.Shown) != n {
			return nil, errors.New("rum500: view: shown hands of the wrong length")
		}
		for i := 0; i < n; i++ {
			if err := takeHand("seat %d's hand", i, v.Shown[i]); err != nil {
				return nil, err
			}
			s.hands[i] = v.Shown[i]
			fixed[i] = true
		}
	} else if v.Seat >= 0 && int(v.Seat) < n {
		if err := takeHand("hand", 0, v.Hand); err != nil {
			return nil, err
		}
		s.hands[v.Seat] = v.Hand
		fixed[v.Seat] = true
	}
	for i := 0; i < n; i++ {
		k := v.Known[i]
		if k.Two&^k.One != 0 || k.One>>52 != 0 {
			return nil, fmt.Errorf("rum500: view: seat %d's known cards: not a hand", i)
		}
		s.known[i] = k
		if fixed[i] {
			// The known cards must be in the hand shown.
			var buf [maxCards]int
			for _, x := range k.Indices(buf[:0]) {
				if s.hands[i].Has(x) < k.Has(x) {
					return nil, fmt.Errorf("rum500: view: seat %d is known to hold %s but does not", i, cardStr(x))
				}
			}
			continue
		}
		if err := takeHand("seat %d's known cards", i, k); err != nil {
			return nil, err
		}
		s.hands[i] = k
	}
	var poolBuf [maxCards]int
	pool := poolBuf[:0]
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
			if s.hands[i].Count() != v.HandSizes[i] {
				return nil, fmt.Errorf("rum500: view: seat %d holds %d cards, size says %d", i, s.hands[i].Count(), v.HandSizes[i])
			}
			continue
		}
		need := v.HandSizes[i] - s.hands[i].Count()
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

// The options of the views a bot samples from are few and repeat for every
// search iteration, so Sample keeps their parsed form: normalizing them is
// most of the cost of a sample otherwise. The cached normalized options are
// shared by the sampled states, which never modify them.
var (
	cfgMu    sync.RWMutex
	cfgCache = map[string]cachedConfig{}
	specs    = Engine{}.OptionSpecs()
)

const cfgCacheMax = 256

type cachedConfig struct {
	c    config
	norm game.Options
}

// sampleConfig is parseOptions(o), cached.
func sampleConfig(o game.Options) (config, game.Options, error) {
	// The key lists the value of every option (0 when absent); an option
	// the engine does not know is left to parseOptions to refuse.
	var buf [256]byte
	key := buf[:0]
	found := 0
	for _, sp := range specs {
		if v, ok := o[sp.Name]; ok {
			key = append(key, v...)
			found++
		} else {
			key = append(key, 0)
		}
		key = append(key, 1)
	}
	if found == len(o) {
		cfgMu.RLock()
		cc, ok := cfgCache[string(key)]
		cfgMu.RUnlock()
		if ok {
			return cc.c, cc.norm, nil
		}
	}
	c, norm, err := parseOptions(o)
	if err != nil || found != len(o) {
		return c, norm, err
	}
	cfgMu.Lock()
	if len(cfgCache) < cfgCacheMax {
		cfgCache[string(key)] = cachedConfig{c, norm}
	}
	cfgMu.Unlock()
	return c, norm, nil
}
