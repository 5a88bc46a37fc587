package pisyedilibot

import (
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// What the opponents' plays tell. The view records who played each card of
// the pile, in which situation, every hand size then and how many cards the
// player has received since (pisyedili.Play). A medium player plays its
// best-rated legal card (score); so a card it played says that, at that
// moment, it held none of the legal cards the rules surely rate higher: a
// 3♥ played on hearts says no higher plain heart, and in the opening round
// a 5♣ says no club worth more than 5. Its hand then was its hand now plus
// the cards it has played since, less the Since cards it received after:
// so now it holds at most Since of those cards, less the ones of them it
// has played since (they came after). The bot gives these voids to its
// sampler (pisyedili.Sampler.Suppose), which deals them as it deals the
// soft voids. Like those, they are true of a medium player only: against a
// player the rules do not describe a void may be wrong, and the sampler
// then deals where there is room rather than make the deal impossible.

// PlayEvidence makes the hard bot read the view's plays as evidence
// (playVoids; with Evidence > 0). Off: the bot deals as before. At
// positions of medium games it raises the share of an opponent's true
// cards that a determinization deals it from 27.1% (the soft voids and the
// jack's suit) to 28.8% (uniform: 25.4%; BenchmarkDealShare). Tuned on
// seeds 21 and 22 (hard:4000 against three medium players, 40 deals, hands
// won, hard − medium): before +20.6% / +13.8%, with it +20.6% / +16.9%
// (and −15.1 / −4.9 points a hand where the bot before had −10.1 / +7.9):
// the only variant not behind on either seed, by less than the noise
// (docs/bots.md, "The ceiling"). It costs nothing measurable a move.
var PlayEvidence = true

// playVoids calls add with every void the view's plays show about a seat
// other than the observer (see above). Only public fields of the view are
// read.
func playVoids(v *pisyedili.View, add func(seat game.Seat, lacks game.Mask, atMost int)) {
	n := v.Players
	if len(v.Plays) != len(v.Pile) || n < 2 || v.Stage < pisyedili.PhaseOpening || v.Stage > pisyedili.PhaseAceContinue {
		return
	}
	jackWild := v.Options.Bool("jack_wild")
	jackOnJack := v.Options.Bool("jack_on_jack")
	jokerAny := v.Options["joker_follow"] == "any"
	for i, pl := range v.Plays {
		q := pl.Seat
		if q < 0 || q == v.Seat || int(q) >= n || len(pl.Sizes) != n {
			continue
		}
		c := v.Pile[i]
		var legal game.Mask // what the seat could play then
		switch pl.Kind {
		case pisyedili.PlayOpening:
			legal = suitFaces[game.Clubs]
		case pisyedili.PlayNormal, pisyedili.PlayAceContinue:
			m, ok := matchBefore(v, i, jackWild, jackOnJack, jokerAny)
			if !ok {
				continue
			}
			legal = m
		default: // a chain's defence, a drawn card: the rules chose among no alternatives of note
			continue
		}
		size := pl.Sizes[q]
		in := Info{NextSize: pl.Sizes[(int(q)+1)%n], MinOpp: 99, Opening: pl.Kind == pisyedili.PlayOpening}
		for k, sz := range pl.Sizes {
			if k != int(q) {
				in.MinOpp = min(in.MinOpp, sz)
			}
		}
		ci := std.Index(c)
		base := score(c, &in, false)
		// The follow-up bonus (2 a card of the played card's suit held
		// besides it) separates cards of different suits by at most
		// 2·(size-1); in the opening round there is none.
		slack := 2 * (size - 1)
		if in.Opening {
			slack = 0
		}
		var lacks game.Mask
		for m := legal &^ game.Bit(ci); m != 0; m &= m - 1 {
			x := m.Lowest()
			xc := std.Card(x)
			d := score(xc, &in, false) - base
			same := c != game.Joker && xc != game.Joker && xc.Suit() == c.Suit()
			if d > slack || (same && d > 0) {
				lacks |= game.Bit(x)
			}
		}
		if lacks == 0 {
			continue
		}
		left := pl.Since
		for j := i + 1; j < len(v.Plays); j++ {
			if v.Plays[j].Seat == q && lacks.Has(std.Index(v.Pile[j])) {
				left--
			}
		}
		if left < 0 || left >= v.HandSizes[q] {
			continue // belied (not a medium player), or no longer says anything
		}
		add(q, lacks, left)
	}
}

// matchBefore is the set of faces that were playable on the pile before
// Pile[i] was played (§5): those of the active suit and rank then, jacks
// and jokers; ok is false when the view no longer shows that top (the
// bottom card of a reshuffled pile, or a joker on it).
func matchBefore(v *pisyedili.View, i int, jackWild, jackOnJack, jokerAny bool) (game.Mask, bool) {
	j := i - 1
	for j >= 0 && v.Pile[j] == game.Joker {
		if jokerAny && j == i-1 {
			return deckFaces, true
		}
		j-- // transparent: the card under the joker is matched (§5)
	}
	if j < 0 {
		return 0, false
	}
	top := v.Pile[j]
	suit, rank := top.Suit(), top.Rank()
	if pl := v.Plays[j]; pl.HasSuit {
		suit = pl.Suit
	} else if pl.Kind == pisyedili.PlayOpening {
		suit = game.Clubs
	}
	m := suitFaces[suit] | rankFaces[rank] | jokerFace
	if jackWild {
		m |= jackMask
	}
	if !jackOnJack && rank == game.Jack {
		m &^= jackMask
	}
	return m, true
}

var deckFaces game.Mask
var rankFaces [14]game.Mask

func init() {
	for i := 0; i < 53; i++ {
		deckFaces |= game.Bit(i)
		if c := std.Card(i); c != game.Joker {
			rankFaces[c.Rank()] |= game.Bit(i)
		}
	}
}

// playCheck is one play of a hidden seat that the medium rules can be
// checked against in a determinization (playFit): the seat's hand then is
// its dealt hand plus up (its plays from this one on), less since cards.
type playCheck struct {
	seat     game.Seat
	card     int       // the face played
	legal    game.Mask // what was playable then
	info     Info      // hand sizes then (Hand is set per check)
	since    int
	named    int // the suit a jack named, -1 if none
	up1, up2 game.Mask
	base     [53]int16 // score of each face without the follow-up bonus (score with no Hand)
}

// PlayTries is how many determinizations the hard bot draws at most to
// find one in which every checked play (playChecks) is what the medium
// rules would have played on the hand it reconstructs; the best deal
// found (the fewest misfits) is kept, so evidence that no deal can meet
// (a player the rules do not describe) costs tries, never the deal. 0 or
// 1: no check. The plays' voids (playVoids) are met by every deal already;
// this adds what they cannot say: the cards of other suits whose rating
// depends on the rest of the hand, and the suit a jack named. Off: it
// raises the share of true cards dealt from 28.8% to 29.7% (8 tries; 30.1%
// with 32), but on tuning seed 22 the bot won fewer hands with it
// (+9.4% with MaxSince 2, +8.1% with 0, against +16.9% without; seed 21:
// +21.2% and +21.9% against +20.6%), and 8 tries cost about 35 ms a move.
var PlayTries = 1

// MaxSince is the most cards a seat may have received since a play for
// the play to be checked (playChecks): the hand then is the hand now plus
// its plays since, less that many unknown cards.
var MaxSince = 2

// playChecks lists the plays of the seats other than the observer that
// playFit checks: normal turns and plays onto an ace (the opening round's
// plays are said exactly by playVoids), at most MaxSince cards ago.
func playChecks(v *pisyedili.View, buf []playCheck) []playCheck {
	n := v.Players
	if len(v.Plays) != len(v.Pile) || n < 2 || v.Stage < pisyedili.PhaseOpening || v.Stage > pisyedili.PhaseAceContinue {
		return buf
	}
	jackWild := v.Options.Bool("jack_wild")
	jackOnJack := v.Options.Bool("jack_on_jack")
	jokerAny := v.Options["joker_follow"] == "any"
	for i, pl := range v.Plays {
		q := pl.Seat
		if q < 0 || q == v.Seat || int(q) >= n || len(pl.Sizes) != n || pl.Since > MaxSince ||
			(pl.Kind != pisyedili.PlayNormal && pl.Kind != pisyedili.PlayAceContinue) || pl.Sizes[q] <= 1 {
			continue
		}
		legal, ok := matchBefore(v, i, jackWild, jackOnJack, jokerAny)
		if !ok {
			continue
		}
		pc := playCheck{seat: q, card: std.Index(v.Pile[i]), legal: legal, since: pl.Since, named: -1,
			info: Info{NextSize: pl.Sizes[(int(q)+1)%n], MinOpp: 99}}
		for k, sz := range pl.Sizes {
			if k != int(q) {
				pc.info.MinOpp = min(pc.info.MinOpp, sz)
			}
		}
		if pl.HasSuit {
			pc.named = int(pl.Suit)
		}
		for x := range pc.base {
			pc.base[x] = int16(score(std.Card(x), &pc.info, false))
		}
		for j := i; j < len(v.Plays); j++ {
			if v.Plays[j].Seat == q {
				msAdd(&pc.up1, &pc.up2, std.Index(v.Pile[j]))
			}
		}
		buf = append(buf, pc)
	}
	return buf
}

func msAdd(m1, m2 *game.Mask, i int) {
	if b := game.Bit(i); *m1&b != 0 {
		*m2 |= b
	} else {
		*m1 |= b
	}
}

// playFit counts the checked plays that the medium rules would not have
// made on the hands of determinization st: on the hand then (the dealt
// hand plus the plays since; exact when the seat has received nothing
// since, else a hand with since cards too many, of which that many
// better-rated cards are forgiven), a legal card rated higher than the one
// played, or for a jack a suit other than the one the rules would name.
// buf is scratch for the hand's cards.
func playFit(st *pisyedili.State, checks []playCheck, buf []game.Card) (int, []game.Card) {
	misfits := 0
	for k := range checks {
		pc := &checks[k]
		h1, h2 := st.HandMasks(pc.seat)
		// The multiset sum of the hand and the plays since (a face is held
		// at most twice: two decks).
		o1, o2 := h1|pc.up1, h2|pc.up2|(h1&pc.up1)
		// score's follow-up bonus: 2 for every other card of the suit (a
		// joker's suit is the jokers', whose copies score excludes).
		var cnt [4]int
		for su := range cnt {
			cnt[su] = (o1 & suitFaces[su]).Count() + (o2 & suitFaces[su]).Count()
		}
		rate := func(x int) int {
			v := int(pc.base[x])
			if x != jokerIdx {
				v += 2 * (cnt[std.Card(x).Suit()] - 1)
				if o2.Has(x) {
					v -= 2
				}
			}
			return v
		}
		mine := rate(pc.card)
		better := 0
		for m := o1 & pc.legal &^ game.Bit(pc.card); m != 0; m &= m - 1 {
			x := m.Lowest()
			if rate(x) > mine {
				better++
				if o2.Has(x) {
					better++
				}
			}
		}
		if better > pc.since {
			misfits++
			continue
		}
		if pc.named >= 0 && pc.since == 0 {
			buf = buf[:0]
			for m := o1; m != 0; m &= m - 1 {
				buf = append(buf, std.Card(m.Lowest()))
			}
			for m := o2; m != 0; m &= m - 1 {
				buf = append(buf, std.Card(m.Lowest()))
			}
			if bestSuit(buf, std.Card(pc.card)) != pc.named {
				misfits++
			}
		}
	}
	return misfits, buf
}

// jokerIdx is the joker's face index.
var jokerIdx = std.Index(game.Joker)
