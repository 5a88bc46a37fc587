package rum500

import (
	"cardroom/game"
)

// Read-only accessors and a fast determinization sampler for search bots.
// They change nothing in the rules: the accessors only read the state
// (where Result would allocate its copies), and a Sampler draws exactly what
// Engine.Sample draws from the same generator.

// RoundsPlayed is the number of hands scored so far
// (len(s.Result().Rounds), without building the result).
func (s *State) RoundsPlayed() int { return len(s.rounds) / s.cfg.n }

// AppendRoundScores appends the scores of scored hand k (0-based), one per
// seat, to buf and returns it (s.Result().Rounds[k] without the copies); buf
// is returned unchanged when hand k is not scored.
func (s *State) AppendRoundScores(buf []int, k int) []int {
	n := s.cfg.n
	if k < 0 || (k+1)*n > len(s.rounds) {
		return buf
	}
	return append(buf, s.rounds[k*n:(k+1)*n]...)
}

// Sampler draws determinizations of one view quickly: it reads the view
// once, and every Sample deals the unseen cards into a reused State exactly
// as Engine.Sample would with the same generator (same states, same random
// numbers consumed), without reading the view again or allocating once the
// reused history and scores have grown to what the playouts append.
//
// It gets there without a second copy of Sample's rules: NewSampler lets
// Engine.Sample rebuild the state once, then takes the dealt cards back out
// of it. Sample's pool is the multiset of unseen cards in index order, so
// the cards dealt to the hands that are not fixed (the hand less its known
// cards) plus the stock (unless turned over, when its order is public) are
// that same pool, and dealing it again with Sample's shuffle gives Sample's
// states. Sample's order of dealing (its pool, its shuffle, the hands in
// seat order, then the stock) is thus relied on here:
// TestSamplerMatchesSample holds the two together.
type Sampler struct {
	base  State           // the view's state, hidden hands holding only their known cards
	pool  [maxCards]uint8 // the unseen cards in index order, as Sample lists them
	poolN int             // their number
	seats [maxSeats]uint8 // the seats dealt to, in seat order
	need  [maxSeats]uint8 // how many cards each of them gets
	ns    int             // len of seats
	deal  [maxCards]uint8 // scratch: the pool being shuffled
	st    State           // the state Sample returns
	hist  []histEntry     // st's history buffer, kept from call to call
	score []int           // st's round-score buffer, kept from call to call
}

// NewSampler reads v. It returns the error Engine.Sample would return.
func NewSampler(v *View) (*Sampler, error) {
	r := game.NewRand(0) // any generator: the deal is taken back out
	gs, err := Engine{}.Sample(v, &r)
	if err != nil {
		return nil, err
	}
	s := gs.(*State)
	z := &Sampler{base: *s}
	b := &z.base
	if b.handNo > 0 {
		// The hands Sample takes from the view rather than deals (its
		// fixed): every hand when they are shown, else the observer's.
		var fixed [maxSeats]bool
		n := b.cfg.n
		if v.Shown != nil {
			for i := 0; i < n; i++ {
				fixed[i] = true
			}
		} else if v.Seat >= 0 && int(v.Seat) < n {
			fixed[v.Seat] = true
		}
		var counts [53]int
		for i := 0; i < n; i++ {
			if fixed[i] {
				continue
			}
			for x := 0; x < 53; x++ {
				counts[x] += s.hands[i].Has(x) - s.known[i].Has(x)
			}
			z.seats[z.ns] = uint8(i)
			z.need[z.ns] = uint8(s.hands[i].Count() - s.known[i].Count())
			z.ns++
			b.hands[i] = s.known[i]
		}
		if !s.turned {
			for j := 0; j < s.stockN; j++ {
				counts[s.stock[j]]++
			}
		}
		for x := 0; x < 53; x++ {
			for k := 0; k < counts[x]; k++ {
				z.pool[z.poolN] = uint8(x)
				z.poolN++
			}
		}
	}
	// Room for a hand's moves and a few more hands' scores: the buffers
	// then rarely grow, and every growth is kept.
	z.hist = make([]histEntry, 0, len(b.hist)+128)
	z.score = make([]int, 0, len(b.rounds)+8*b.cfg.n)
	return z, nil
}

// Sample returns a determinization. The State is reused: it is valid until
// the next call (Clone it to keep it).
func (z *Sampler) Sample(r *game.Rand) *State {
	s := &z.st
	// Keep the buffers the last state's moves and scores grew into.
	if cap(s.hist) > cap(z.hist) {
		z.hist = s.hist
	}
	if cap(s.rounds) > cap(z.score) {
		z.score = s.rounds
	}
	*s = z.base
	s.hist = append(z.hist[:0], z.base.hist...)
	s.rounds = append(z.score[:0], z.base.rounds...)
	if z.poolN == 0 {
		return s
	}
	pool := z.dealHands(r, s.hands[:s.cfg.n])
	if !s.turned {
		copy(s.stock[:len(pool)], pool)
	}
	return s
}

// dealHands is Sample's shuffle of its pool, then its deal of the hands in
// seat order (added to hands, which hold the base's); it returns the rest,
// the stock's cards.
func (z *Sampler) dealHands(r *game.Rand, hands []Hand) []uint8 {
	pool := z.deal[:z.poolN]
	copy(pool, z.pool[:z.poolN])
	for i := len(pool) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	for k := 0; k < z.ns; k++ {
		h := &hands[z.seats[k]]
		need := int(z.need[k])
		for _, x := range pool[:need] {
			h.add(int(x))
		}
		pool = pool[need:]
	}
	return pool
}

// Deal draws what Sample would draw from r (the same random numbers) but
// writes only the hands, one per seat, into h, without building the
// state: a search that rejects most deals (bot/rum500bot's evidence)
// looks at the hands first and builds the state of the deal it keeps.
func (z *Sampler) Deal(r *game.Rand, h []Hand) []Hand {
	h = append(h[:0], z.base.hands[:z.base.cfg.n]...)
	if z.poolN > 0 {
		z.dealHands(r, h)
	}
	return h
}

// HandOf is seat i's hand (a copy), without building a view.
func (s *State) HandOf(i int) Hand { return s.hands[i] }
