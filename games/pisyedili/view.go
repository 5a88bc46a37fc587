package pisyedili

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"cardroom/game"
)

// View is what one observer knows. It embeds the header every game shares
// (game.Header: observer, players, phase, seats to act, hand sizes, totals,
// round = the current or last hand, round_count = the hands in the game,
// round_scores = each finished hand's penalties). Cards are typed values:
// a hand or a set of cards is a Cards multiset (both physical copies of a
// face), Pile is in the order the cards were played (bottom first, top
// last). MarshalJSON writes the cards in canonical notation, sets in the
// notation's sort order.
type View struct {
	game.Header
	Options     game.Options // the game's options (normalized)
	Dealer      game.Seat    // -1 before the first dealer is drawn
	Stage       Phase        // the phase (Header.Phase is its name: deal, opening, normal, after_draw, ace_continue, hand_over, over)
	Chance      ChanceKind   // the pending chance outcome (dealer, deal, shuffle), ChanceNone if none
	Turn        game.Seat    // the player to move (or whose turn is in progress); -1 if none
	TurnReason  Reason       // why Turn has the turn
	Direction   Direction    // where the turn goes after a plain card
	Next        game.Seat    // the seat after Turn in the direction of play (after a plain card, a pass, a penalty or end); -1 if none
	OpeningLeft int          // opening-round turns still to play
	Top         game.Card    // the top card of the discard pile; game.NoCard if the pile is empty
	ActiveSuit  game.Suit    // the suit to follow (named by a jack, kept under a joker); 0 if the pile is empty
	ActiveRank  int          // the rank that may be matched; 0 if the pile is empty
	AnyFollows  bool         // joker_follow=any: any card may follow the joker on top
	Chain       *Chain       // the pending penalty chain, if any
	DeadPasses  int          // consecutive forced passes (the hand is blocked at Players)
	Hand        Cards        // the observer's hand (empty for a spectator: JSON null)
	Drawn       game.Card    // after a voluntary draw: the card drawn (the drawer only); game.NoCard otherwise
	StockSize   int          //
	Pile        []game.Card  // the discard pile, bottom first (public history since the last reshuffle)
	Plays       []Play       // Plays[i]: who played Pile[i] and what every seat saw then (parallel to Pile)
	StockPool   *Cards       // the cards the stock was formed from at the last reshuffle; nil = the whole deck (since the deal)
	Shown       []Void       // what passes and opening draws showed about hidden hands
	Drawing     *Drawing     // a multi-card draw waiting for a reshuffle
	Revealed    []Cards      // every hand, once the hand is over (end-of-hand draws in progress)
	Ending      *HandResult  // the hand being ended (phase hand_over)
	Finished    []HandResult // finished hands
	Winners     []game.Seat  // once the game is over
	// optsJSON is the state's options' JSON: set by AppendViewJSON only,
	// whose view nobody keeps (a holder of a View may change its Options).
	optsJSON []byte
}

// Direction is the direction of play.
type Direction int8

// The directions.
const (
	Clockwise        Direction = 1
	Counterclockwise Direction = -1
)

func (d Direction) String() string {
	if d < 0 {
		return "counterclockwise"
	}
	return "clockwise"
}

// Cards is a multiset of the cards of two decks over the standard deck
// indices (game.Standard.Card(i), i < 53): Once holds the faces present at
// least once, Twice those present twice (Twice is inside Once).
type Cards struct {
	Once, Twice game.Mask
}

// Len is the number of cards.
func (c Cards) Len() int { return c.Once.Count() + c.Twice.Count() }

// Count is the number of copies of card x (0, 1 or 2).
func (c Cards) Count(x game.Card) int {
	i := idx(x)
	if i < 0 {
		return 0
	}
	n := 0
	if c.Once.Has(i) {
		n++
	}
	if c.Twice.Has(i) {
		n++
	}
	return n
}

// Add adds one copy of card x (a card of the standard deck).
func (c *Cards) Add(x game.Card) {
	if i := idx(x); i >= 0 {
		msAdd(&c.Once, &c.Twice, i)
	}
}

// List appends the cards to buf in the notation's sort order, the two
// copies of a face together, and returns it.
func (c Cards) List(buf []game.Card) []game.Card {
	for m := c.Once; m != 0; m &= m - 1 {
		i := m.Lowest()
		buf = append(buf, faceCard[i])
		if c.Twice.Has(i) {
			buf = append(buf, faceCard[i])
		}
	}
	return buf
}

// Strings is the cards in canonical notation, in List order; never nil.
func (c Cards) Strings() []string {
	out := make([]string, 0, c.Len())
	for m := c.Once; m != 0; m &= m - 1 {
		i := m.Lowest()
		out = append(out, faceName[i])
		if c.Twice.Has(i) {
			out = append(out, faceName[i])
		}
	}
	return out
}

// String is the cards in canonical notation, separated by spaces.
func (c Cards) String() string { return strings.Join(c.Strings(), " ") }

// Void is a public inference about a hand: at some moment Seat held none of
// Lacks (a forced pass: no playable card; a draw in the opening round: no
// plain club), and it has received Since cards since then, so it holds at
// most Since of them now. Shown only while Since is below the hand size.
// The soft kinds (VoidKind.Soft: drew, took_penalty, ended) say the same
// of a seat that plays as the rule-based bots do: it chose to draw, take a
// penalty or end its turn although the rules let it play any of Lacks it
// held, which such a player does only when it holds none. They come after
// the seat's hard voids, at most softSlots of them a seat.
type Void struct {
	Seat  game.Seat
	Why   VoidKind  // forced_pass, opening_draw; soft: drew, took_penalty, ended
	Lacks game.Mask // faces, over the standard deck indices
	Since int
}

// Play is the public record of one card of the pile, Pile[i]: every seat
// saw who played it, on which top (Pile[i-1]; for the bottom card of a
// reshuffled pile, no longer shown) and every hand size. So a seat's hand
// at that play was its hand now, plus the cards it has played since (its
// later plays), less Since of them (the cards it received after it): the
// evidence a bot may weigh against its model of the players (it says
// nothing hidden: the draws' cards never enter it).
type Play struct {
	Seat    game.Seat // who played it; -1 if not recorded (positions set up by hand)
	Kind    PlayKind  // opening, normal, chain, after_draw, ace_continue
	Suit    game.Suit // the suit a jack named (HasSuit)
	HasSuit bool
	Since   int   // cards Seat has received since it played it
	Sizes   []int // every hand size just before the play
}

// Chain is a pending penalty chain.
type Chain struct {
	Kind  ChainKind // seven or joker
	Count int       // k, the number of cards in the chain
	Draw  int       // the cards the player to move draws with `penalty`
}

// Drawing is a multi-card draw waiting for a reshuffle.
type Drawing struct {
	Kind      DrawKind  // opening, voluntary, penalty, ace, finish_chain, finish_ace, end_of_hand
	Seat      game.Seat // who draws now
	Left      int       // cards that seat still draws (end of hand: including triggers so far)
	Owner     game.Seat // the player who caused the draws (ace, finisher; -1 for a blocked hand)
	SeatsLeft int       // seats still to draw, including Seat
}

// HandResult is a finished (or ending) hand.
type HandResult struct {
	Hand       int
	Finisher   game.Seat // -1: blocked hand
	Card       game.Card // the finishing card; game.NoCard for a blocked hand
	Multiplier int
	EndDraws   []Cards // the end-of-hand draws per seat
	Hands      []Cards // the hands scored (finished hands only)
	Points     []int   // the penalties (finished hands only)
}

// faceName is the canonical text of each face (game.Standard.Card(i)).
var faceName [53]string

func init() {
	for i := range faceName {
		faceName[i] = game.Standard.Format(faceCard[i])
	}
}

func fmtCard(c game.Card) string {
	if c == game.NoCard {
		return ""
	}
	if i := idx(c); i >= 0 {
		return faceName[i]
	}
	return game.Standard.Format(c)
}

func cardsOf(m1, m2 game.Mask) Cards { return Cards{Once: m1, Twice: m2} }

// View implements game.State.
func (s *State) View(obs game.Seat) game.View {
	v := s.buildView(obs, new(viewMem))
	v.Options = s.opts.Clone()
	return v
}

// viewMem is the memory a view is built in: fresh for View, reused from
// one view to the next for AppendViewJSON (a pool), since the server
// writes every seat's view on every move, and a Pis Yedili view (every
// play of the pile with its hand sizes) is the longest of the three
// games'.
type viewMem struct {
	v         View
	ints      []int
	cards     []game.Card
	plays     []Play
	seats     []game.Seat
	shown     []Void
	hands     []Cards
	finished  []HandResult
	rows      [][]int
	chain     Chain
	drawing   Drawing
	stockPool Cards
	ending    HandResult
}

var viewMems = sync.Pool{New: func() any { return new(viewMem) }}

// AppendViewJSON implements game.ViewJSONAppender: the JSON of View(obs)
// (its AppendJSON bytes), built in reused memory.
func (s *State) AppendViewJSON(b []byte, obs game.Seat) []byte {
	m := viewMems.Get().(*viewMem)
	v := s.buildView(obs, m)
	v.optsJSON = s.optsJSON
	b = v.AppendJSON(b)
	m.v = View{} // keep nothing of this state
	viewMems.Put(m)
	return b
}

// buildView builds obs's view in m's memory (m.v), sharing the state's
// options: the caller clones them if it keeps the view.
func (s *State) buildView(obs game.Seat, m *viewMem) *View {
	v := &m.v
	nf := len(s.hist)
	if s.hasCur {
		nf++
	}
	// One backing array per element type: the hand sizes and totals, every
	// play's hand sizes, and every finished hand's points and round scores
	// (the same numbers, not shared).
	ints := game.Scratch(&m.ints, 2*s.n+s.pileN*s.n+2*nf*s.n)
	// The revealed hands, the ending's draws and every finished hand's
	// draws and hands.
	nc := 0
	if s.ph == PhaseHandOver {
		nc = 2 * s.n
	}
	hands := game.Scratch(&m.hands, nc+2*nf*s.n)
	*v = View{
		Header: game.Header{
			Seat:       obs,
			Players:    s.n,
			Phase:      phaseNames[s.ph],
			HandSizes:  ints[:s.n:s.n],
			Totals:     ints[s.n : 2*s.n : 2*s.n],
			Round:      s.hand,
			RoundCount: s.cfg.hands,
		},
		Options:     s.opts,
		Dealer:      game.Seat(s.dealer),
		Stage:       s.ph,
		Chance:      s.chance,
		Turn:        game.Seat(s.turn),
		TurnReason:  s.why,
		Direction:   Direction(s.dir),
		Next:        -1,
		OpeningLeft: s.openLeft,
		DeadPasses:  s.dead,
		Top:         game.NoCard,
		Drawn:       game.NoCard,
		StockSize:   s.stockN,
		Pile:        game.Scratch(&m.cards, s.pileN),
	}
	ints = ints[2*s.n:]
	if s.acting() {
		v.ToAct = game.Scratch(&m.seats, 1)
		v.ToAct[0] = game.Seat(s.turn)
	}
	if s.turn >= 0 {
		v.Next = game.Seat(s.step(s.turn, 1))
	}
	if s.pileN > 0 {
		v.Top = s.pile[s.pileN-1]
		v.ActiveSuit = s.suit
		v.ActiveRank = s.rank
		v.AnyFollows = s.anyFollows
	}
	if s.chain != ChainNone {
		m.chain = Chain{Kind: s.chain, Count: s.chainK, Draw: s.chainCards()}
		v.Chain = &m.chain
	}
	if obs >= 0 && int(obs) < s.n {
		v.Hand = cardsOf(s.h1[obs], s.h2[obs])
		if s.ph == PhaseAfterDraw && int(obs) == s.turn {
			v.Drawn = s.drawn
		}
	}
	copy(v.HandSizes, s.hn[:s.n])
	copy(v.Totals, s.totals[:s.n])
	copy(v.Pile, s.pile[:s.pileN])
	v.Plays = game.Scratch(&m.plays, s.pileN)
	for i := range v.Plays {
		v.Plays[i] = s.playView(i, ints[:s.n:s.n])
		ints = ints[s.n:]
	}
	if s.pool1 != s.full1 || s.pool2 != s.full2 {
		m.stockPool = Cards{Once: s.pool1, Twice: s.pool2}
		v.StockPool = &m.stockPool
	}
	if s.ph >= PhaseOpening && s.ph <= PhaseAceContinue {
		v.Shown = m.shown[:0]
		for p := 0; p < s.n; p++ {
			for w, vd := range s.voids[p] {
				if vd.f != 0 && vd.k < s.hn[p] {
					v.Shown = append(v.Shown, Void{Seat: game.Seat(p), Why: VoidKind(w), Lacks: vd.f, Since: vd.k})
				}
			}
			for _, vd := range s.soft[p] {
				if vd.f != 0 && int(vd.k) < s.hn[p] {
					v.Shown = append(v.Shown, Void{Seat: game.Seat(p), Why: vd.why, Lacks: vd.f, Since: int(vd.k)})
				}
			}
		}
		m.shown = v.Shown[:0] // grown: kept for the next view
		if len(v.Shown) == 0 {
			v.Shown = nil // none shown: null, as in a fresh view
		}
	}
	if s.job != DrawNone {
		m.drawing = Drawing{Kind: s.job, Seat: game.Seat(s.jobSeat), Left: s.jobLeft, Owner: game.Seat(s.jobOwner), SeatsLeft: s.seatsLeft}
		v.Drawing = &m.drawing
	}
	if s.ph == PhaseHandOver {
		v.Revealed = hands[:s.n:s.n]
		for p := 0; p < s.n; p++ {
			v.Revealed[p] = cardsOf(s.h1[p], s.h2[p])
		}
		m.ending = s.resultView(&s.cur, s.hand, false, hands[s.n:2*s.n:2*s.n])
		v.Ending = &m.ending
		hands = hands[2*s.n:]
	}
	v.Finished = game.Scratch(&m.finished, nf)[:0]
	v.RoundScores = game.Scratch(&m.rows, nf)[:0]
	if nf > 0 {
		pts := ints
		add := func(r *result, hand int) {
			h := s.resultView(r, hand, true, hands[:2*s.n:2*s.n])
			hands = hands[2*s.n:]
			h.Points = pts[:s.n:s.n]
			rs := pts[nf*s.n : nf*s.n+s.n : nf*s.n+s.n]
			copy(h.Points, r.points[:s.n])
			copy(rs, r.points[:s.n])
			pts = pts[s.n:]
			v.Finished = append(v.Finished, h)
			v.RoundScores = append(v.RoundScores, rs)
		}
		for i := range s.hist {
			add(&s.hist[i], i+1)
		}
		if s.hasCur {
			add(&s.cur, len(s.hist)+1)
		}
	}
	if s.ph == PhaseOver {
		v.Winners = s.Result().Winners
	}
	return v
}

// playView is the record of pile[i], its hand sizes written into sizes.
func (s *State) playView(i int, sizes []int) Play {
	r := &s.plays[i]
	pl := Play{Seat: game.Seat(r.by) - 1, Kind: r.kind, Sizes: sizes}
	if r.by > 0 {
		pl.Since = int(s.recv[r.by-1] - r.at)
	}
	if r.suit > 0 {
		pl.Suit, pl.HasSuit = game.Suit(r.suit-1), true
	}
	for q := range sizes {
		sizes[q] = int(r.sizes[q])
	}
	return pl
}

// resultView is hand result r, in cs (n Cards, 2n when done); done adds
// the hands scored (Points are left to the caller).
func (s *State) resultView(r *result, hand int, done bool, cs []Cards) HandResult {
	h := HandResult{Hand: hand, Finisher: game.Seat(r.finisher), Card: r.card, Multiplier: r.mult}
	if !done {
		h.EndDraws = cs[:s.n:s.n]
	} else {
		h.EndDraws, h.Hands = cs[:s.n:s.n], cs[s.n:2*s.n:2*s.n]
		for p := 0; p < s.n; p++ {
			h.Hands[p] = cardsOf(r.final1[p], r.final2[p])
		}
	}
	for p := 0; p < s.n; p++ {
		h.EndDraws[p] = cardsOf(r.drawn1[p], r.drawn2[p])
	}
	return h
}

// String renders the view for people.
func (v *View) String() string {
	var b strings.Builder
	who := "spectator"
	if v.Seat >= 0 {
		who = fmt.Sprintf("seat %d", v.Seat)
	}
	fmt.Fprintf(&b, "Pis Yedili, %d players, hand %d of %d, view of %s\n", v.Players, v.Round, v.RoundCount, who)
	fmt.Fprintf(&b, "phase %s", v.Phase)
	if v.Chance != ChanceNone {
		fmt.Fprintf(&b, ", waiting for chance: %s", v.Chance)
	}
	if v.Turn >= 0 {
		fmt.Fprintf(&b, ", seat %d to move (%s), then seat %d (%s)", v.Turn, v.TurnReason, v.Next, v.Direction)
	}
	b.WriteString("\n")
	if v.Stage == PhaseOpening {
		fmt.Fprintf(&b, "opening round: %d club turns left\n", v.OpeningLeft)
	}
	if v.Top != game.NoCard {
		fmt.Fprintf(&b, "top %s, active suit %s, rank %s", fmtCard(v.Top), v.ActiveSuit, rankName(v.ActiveRank))
		if v.AnyFollows {
			b.WriteString(", any card may follow")
		}
		b.WriteString("\n")
	}
	if v.Chain != nil {
		fmt.Fprintf(&b, "%s chain of %d: %d cards to draw\n", v.Chain.Kind, v.Chain.Count, v.Chain.Draw)
	}
	if v.Seat >= 0 && int(v.Seat) < v.Players {
		fmt.Fprintf(&b, "hand: %s\n", v.Hand)
	}
	if v.Drawn != game.NoCard {
		fmt.Fprintf(&b, "drawn: %s\n", fmtCard(v.Drawn))
	}
	fmt.Fprintf(&b, "hand sizes %v, stock %d, dead passes %d\n", v.HandSizes, v.StockSize, v.DeadPasses)
	fmt.Fprintf(&b, "pile: %s\n", strings.Join(cardStrings(v.Pile), " "))
	if len(v.Plays) > 0 {
		b.WriteString("plays:")
		for i, pl := range v.Plays {
			c := ""
			if i < len(v.Pile) {
				c = fmtCard(v.Pile[i])
			}
			fmt.Fprintf(&b, " %s by %d", c, pl.Seat)
			if pl.HasSuit {
				fmt.Fprintf(&b, " naming %s", pl.Suit)
			}
			fmt.Fprintf(&b, " (%s, sizes %v, %d received since)", pl.Kind, pl.Sizes, pl.Since)
		}
		b.WriteString("\n")
	}
	if v.Drawing != nil {
		fmt.Fprintf(&b, "drawing (%s): seat %d draws %d more, %d seats left\n", v.Drawing.Kind, v.Drawing.Seat, v.Drawing.Left, v.Drawing.SeatsLeft)
	}
	for _, vd := range v.Shown {
		fmt.Fprintf(&b, "seat %d showed (%s) it held none of %s, and has received %d cards since\n", vd.Seat, vd.Why, Cards{Once: vd.Lacks}, vd.Since)
	}
	for p, h := range v.Revealed {
		fmt.Fprintf(&b, "seat %d shows: %s\n", p, h)
	}
	for _, h := range v.Finished {
		fmt.Fprintf(&b, "hand %d: ", h.Hand)
		if h.Finisher < 0 {
			b.WriteString("blocked")
		} else {
			fmt.Fprintf(&b, "seat %d out with %s", h.Finisher, fmtCard(h.Card))
		}
		fmt.Fprintf(&b, " (x%d), penalties %v\n", h.Multiplier, h.Points)
	}
	fmt.Fprintf(&b, "totals %v", v.Totals)
	if len(v.Winners) > 0 {
		fmt.Fprintf(&b, ", winners %v", v.Winners)
	}
	b.WriteString("\n")
	return b.String()
}

func cardStrings(cs []game.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmtCard(c)
	}
	return out
}

// MarshalJSON writes the view in the protocol's text (the fields of
// docs/games/pisyedili.md, in that order): cards in canonical notation,
// sets in the notation's sort order, enums by name, empty lists as [], the
// hand of a spectator and the stock pool of a stock formed from the whole
// deck as null.
func (v *View) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(make([]byte, 0, 2048)), nil
}

// AppendJSON appends the view's JSON (MarshalJSON's bytes) to b: the fast
// path for the server, which writes views itself (encoding/json re-scans a
// Marshaler's output).
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, `{"observer":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"options":`...)
	if v.optsJSON != nil {
		b = append(b, v.optsJSON...) // AppendViewJSON's: the state's options, written once
	} else {
		b = v.Options.AppendJSON(b)
	}
	b = appendIntField(b, "players", v.Players)
	b = appendIntField(b, "round", v.Round)
	b = appendIntField(b, "round_count", v.RoundCount)
	b = appendIntField(b, "dealer", int(v.Dealer))
	b = appendStringField(b, "phase", v.Phase)
	b = appendStringField(b, "chance", v.Chance.String())
	b = append(b, `,"to_act":[`...)
	for i, p := range v.ToAct {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p), 10)
	}
	b = append(b, ']')
	b = appendIntField(b, "turn", int(v.Turn))
	b = appendStringField(b, "turn_reason", v.TurnReason.String())
	b = appendStringField(b, "direction", v.Direction.String())
	b = appendIntField(b, "next", int(v.Next))
	b = appendIntField(b, "opening_left", v.OpeningLeft)
	b = appendStringField(b, "top", fmtCard(v.Top))
	suit, rank := "", ""
	if v.Top != game.NoCard {
		suit, rank = v.ActiveSuit.String(), rankName(v.ActiveRank)
	}
	b = appendStringField(b, "active_suit", suit)
	b = appendStringField(b, "active_rank", rank)
	b = append(b, `,"any_follows":`...)
	b = strconv.AppendBool(b, v.AnyFollows)
	if c := v.Chain; c != nil {
		b = append(b, `,"chain":{"kind":`...)
		b = game.AppendJSONString(b, c.Kind.String())
		b = appendIntField(b, "count", c.Count)
		b = appendIntField(b, "draw", c.Draw)
		b = append(b, '}')
	}
	b = appendIntField(b, "dead_passes", v.DeadPasses)
	b = append(b, `,"hand":`...)
	if v.Seat >= 0 && int(v.Seat) < v.Players {
		b = appendCards(b, v.Hand)
	} else {
		b = append(b, "null"...)
	}
	b = appendStringField(b, "drawn", fmtCard(v.Drawn))
	b = append(b, `,"hand_sizes":`...)
	b = appendInts(b, v.HandSizes)
	b = appendIntField(b, "stock_size", v.StockSize)
	b = append(b, `,"pile":[`...)
	for i, c := range v.Pile {
		if i > 0 {
			b = append(b, ',')
		}
		b = game.AppendJSONString(b, fmtCard(c))
	}
	b = append(b, `],"plays":[`...)
	for i := range v.Plays {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPlay(b, &v.Plays[i])
	}
	b = append(b, `],"stock_pool":`...)
	if v.StockPool != nil {
		b = appendCards(b, *v.StockPool)
	} else {
		b = append(b, "null"...)
	}
	if len(v.Shown) > 0 {
		b = append(b, `,"shown":[`...)
		for i, vd := range v.Shown {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(vd.Seat), 10)
			b = appendStringField(b, "why", vd.Why.String())
			b = append(b, `,"lacks":`...)
			b = appendCards(b, Cards{Once: vd.Lacks})
			b = appendIntField(b, "since", vd.Since)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if d := v.Drawing; d != nil {
		b = append(b, `,"drawing":{"kind":`...)
		b = game.AppendJSONString(b, d.Kind.String())
		b = appendIntField(b, "seat", int(d.Seat))
		b = appendIntField(b, "left", d.Left)
		b = appendIntField(b, "owner", int(d.Owner))
		b = appendIntField(b, "seats_left", d.SeatsLeft)
		b = append(b, '}')
	}
	if len(v.Revealed) > 0 {
		b = append(b, `,"revealed":`...)
		b = appendCardsList(b, v.Revealed)
	}
	if v.Ending != nil {
		b = append(b, `,"ending":`...)
		b = appendHandResult(b, v.Ending)
	}
	b = append(b, `,"finished":[`...)
	for i := range v.Finished {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendHandResult(b, &v.Finished[i])
	}
	b = append(b, `],"totals":`...)
	b = appendInts(b, v.Totals)
	b = append(b, `,"round_scores":[`...)
	for i, r := range v.RoundScores {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInts(b, r)
	}
	b = append(b, ']')
	if len(v.Winners) > 0 {
		b = append(b, `,"winners":[`...)
		for i, p := range v.Winners {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(p), 10)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendPlay(b []byte, pl *Play) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(pl.Seat), 10)
	b = appendStringField(b, "kind", pl.Kind.String())
	if pl.HasSuit {
		b = appendStringField(b, "suit", pl.Suit.String())
	}
	b = appendIntField(b, "since", pl.Since)
	b = append(b, `,"sizes":`...)
	b = appendInts(b, pl.Sizes)
	return append(b, '}')
}

func appendHandResult(b []byte, h *HandResult) []byte {
	b = append(b, `{"hand":`...)
	b = strconv.AppendInt(b, int64(h.Hand), 10)
	b = appendIntField(b, "finisher", int(h.Finisher))
	if h.Card != game.NoCard {
		b = appendStringField(b, "card", fmtCard(h.Card))
	}
	b = appendIntField(b, "multiplier", h.Multiplier)
	b = append(b, `,"end_draws":`...)
	if h.EndDraws == nil {
		b = append(b, "null"...)
	} else {
		b = appendCardsList(b, h.EndDraws)
	}
	if len(h.Hands) > 0 {
		b = append(b, `,"hands":`...)
		b = appendCardsList(b, h.Hands)
	}
	if len(h.Points) > 0 {
		b = append(b, `,"points":`...)
		b = appendInts(b, h.Points)
	}
	return append(b, '}')
}

// appendCards writes a multiset as a list of card texts.
func appendCards(b []byte, c Cards) []byte {
	b = append(b, '[')
	first := true
	for m := c.Once; m != 0; m &= m - 1 {
		i := m.Lowest()
		for k := 0; k < 1+int((c.Twice>>uint(i))&1); k++ {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = game.AppendJSONString(b, faceName[i])
		}
	}
	return append(b, ']')
}

func appendCardsList(b []byte, cs []Cards) []byte {
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCards(b, c)
	}
	return append(b, ']')
}

// appendInts writes a list of ints as encoding/json does (nil is null).
func appendInts(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func appendIntField(b []byte, name string, x int) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(x), 10)
}

func appendStringField(b []byte, name, s string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return game.AppendJSONString(b, s)
}
