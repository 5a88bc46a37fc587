package game

import "testing"

// TestEntryPauses: the table pauses its bots after the entries that close
// something people watch (a trick, a round or hand, a chain's draw), and
// only after those.
func TestEntryPauses(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want bool
	}{
		{Entry{Kind: KindTrick}, true},
		{Entry{Kind: KindRound}, true},
		{Entry{Kind: KindHand}, true},
		{Entry{Kind: KindPenalty, Why: WhySeven}, true},
		{Entry{Kind: KindDraw, Why: WhySeven}, true},
		{Entry{Kind: KindDraw, Why: WhyJoker}, true},
		{Entry{Kind: KindDraw, Why: WhyAce}, false},
		{Entry{Kind: KindDraw, Why: WhyTurn}, false},
		{Entry{Kind: KindPlay}, false},
		{Entry{Kind: KindMeld}, false},
		{Entry{Kind: "something new"}, false},
	} {
		if got := tc.e.Pauses(); got != tc.want {
			t.Errorf("%s/%s: Pauses = %v, want %v", tc.e.Kind, tc.e.Why, got, tc.want)
		}
	}
}

// TestEntryJSON: optional fields are omitted when zero, except that a
// recipient seat 0 and spades are written when set (HasTo, HasSuit).
func TestEntryJSON(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Seat: Spectator, Kind: KindDeal}, `{"seat":-1,"kind":"deal"}`},
		{Entry{Seat: 3, Kind: KindPass, Count: 5, To: 0, HasTo: true}, `{"seat":3,"kind":"pass","count":5,"to":0}`},
		{Entry{Seat: 3, Kind: KindPass, Count: 5}, `{"seat":3,"kind":"pass","count":5}`},
		{Entry{Seat: 1, Kind: KindPlay, Cards: []Card{NewCard(Spades, Jack)}, Suit: Spades, HasSuit: true, By: ByTimeout}, `{"seat":1,"kind":"play","cards":["JS"],"suit":"S","by":"timeout"}`},
		{Entry{Seat: -1, Kind: KindHand, Scores: []int{0, -7}, Hands: [][]Card{{}, {Joker, NewCard(Hearts, 10)}}}, `{"seat":-1,"kind":"hand","scores":[0,-7],"hands":[[],["JK","10H"]]}`},
		{Entry{Seat: 0, Kind: KindLayoff, Cards: []Card{Joker}, As: []Card{NewCard(Clubs, 8)}, Meld: 2, Points: 15}, `{"seat":0,"kind":"layoff","cards":["JK"],"points":15,"meld":2,"as":["8C"]}`},
	} {
		if got := string(tc.e.AppendJSON(nil, Standard)); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}
