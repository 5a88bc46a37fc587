package rum500

import (
	"encoding/json"
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
)

// The view carries the shared header (gametest.CheckHeader reads it).
var _ interface{ Head() *game.Header } = (*View)(nil)

// TestViewJSONGolden pins the JSON of one view: the header first, then the
// game's own fields with cards in canonical notation.
func TestViewJSONGolden(t *testing.T) {
	s := scenario2(t)
	b, err := json.Marshal(s.View(0))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"observer":0,"players":3,"phase":"play","to_act":[0],"hand_sizes":[3,3,3],"totals":[0,0,0],"round":1,"round_count":0,"round_scores":[],` +
		`"options":{"decks":"1","go_out_bonus":"0","jokers":"0","meld_jokers":"any","must_discard_to_go_out":"false","players":"3","stock_exhausted":"end_when_declined","target":"500","tie_resolution":"shared","top_discard_free":"false","two_player_hand":"13"},` +
		`"dealer":2,"hand":["9S","KH","2C"],"pile":[],"melds":[{"number":1,"kind":"run","cards":["4D","5D","6D","7D"],"stands":["4D","5D","6D","7D"],"owners":[1,1,1,0],"text":"4D 5D 6D 7D"}],` +
		`"stock":` + itoa(s.stockN) + `,"stock_cards":null,"turned_over":false,"known":[["2C"],[],[]],"moves":["0 take 7D layoff 1"],"table_points":[7,15,0],` +
		`"shown_hands":null,"went_out":-1,"winners":null,"settlement":null}`
	if string(b) != want {
		t.Errorf("view JSON\n got %s\nwant %s", b, want)
	}
}

// TestViewBeforeDeal: before the first deal the header still has one hand
// size per seat, nobody acts, the round is 0 and no hand is shown.
func TestViewBeforeDeal(t *testing.T) {
	st, err := Engine{}.New(game.Options{"players": "3"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []game.Seat{game.Spectator, 1} {
		b, err := json.Marshal(st.View(o))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"phase":"dealer"`, `"to_act":[]`, `"hand_sizes":[0,0,0]`, `"round":0,`, `"round_scores":[]`, `"hand":null`, `"known":null`, `"moves":null`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("view of %d lacks %s: %s", o, want, b)
			}
		}
	}
	if msg := gametest.CheckHeader(st); msg != "" {
		t.Error(msg)
	}
}

// oracleView is the view as plain strings, in the order MarshalJSON writes
// its fields: encoding/json marshals it as the reference for MarshalJSON.
type oracleView struct {
	Seat        int          `json:"observer"`
	Players     int          `json:"players"`
	Phase       string       `json:"phase"`
	ToAct       []int        `json:"to_act"`
	HandSizes   []int        `json:"hand_sizes"`
	Totals      []int        `json:"totals"`
	Round       int          `json:"round"`
	RoundCount  int          `json:"round_count"`
	RoundScores [][]int      `json:"round_scores"`
	Options     game.Options `json:"options"`
	Dealer      int          `json:"dealer"`
	Hand        []string     `json:"hand"`
	Pile        []string     `json:"pile"`
	Melds       []oracleMeld `json:"melds"`
	Stock       int          `json:"stock"`
	StockCards  []string     `json:"stock_cards"`
	TurnedOver  bool         `json:"turned_over"`
	Known       [][]string   `json:"known"`
	Moves       []string     `json:"moves"`
	Table       []int        `json:"table_points"`
	Shown       [][]string   `json:"shown_hands"`
	WentOut     int          `json:"went_out"`
	Winners     []int        `json:"winners"`
	Settlement  []Payment    `json:"settlement"`
}

type oracleMeld struct {
	Number int      `json:"number"`
	Kind   string   `json:"kind"`
	Cards  []string `json:"cards"`
	Stands []string `json:"stands"`
	Owners []int    `json:"owners"`
	Text   string   `json:"text"`
}

func oracle(v *View) oracleView {
	strs := func(cs []game.Card) []string {
		if cs == nil {
			return nil
		}
		out := []string{}
		for _, c := range cs {
			out = append(out, game.Standard.Format(c))
		}
		return out
	}
	ints := func(xs []game.Seat) []int {
		if xs == nil {
			return nil
		}
		out := []int{}
		for _, x := range xs {
			out = append(out, int(x))
		}
		return out
	}
	hands := func(hs []Hand) [][]string {
		if hs == nil {
			return nil
		}
		var out [][]string
		for _, h := range hs {
			out = append(out, h.strs())
		}
		return out
	}
	o := oracleView{Seat: int(v.Seat), Players: v.Players, Phase: v.Phase, ToAct: ints(v.ToAct), HandSizes: v.HandSizes,
		Totals: v.Totals, Round: v.Round, RoundCount: v.RoundCount, RoundScores: v.RoundScores, Options: v.Options,
		Dealer: int(v.Dealer), Pile: strs(v.Pile), Stock: v.Stock, StockCards: strs(v.StockCards), TurnedOver: v.TurnedOver,
		Known: hands(v.Known), Table: v.Table, Shown: hands(v.Shown), WentOut: int(v.WentOut), Winners: ints(v.Winners), Settlement: v.Settlement}
	if o.ToAct == nil {
		o.ToAct = []int{}
	}
	if v.HasHand() {
		o.Hand = v.Hand.strs()
	}
	if v.Melds != nil {
		o.Melds = []oracleMeld{}
	}
	for k := range v.Melds {
		m := &v.Melds[k]
		o.Melds = append(o.Melds, oracleMeld{Number: m.Number, Kind: m.Kind(), Cards: strs(m.Cards(nil)), Stands: strs(m.Stands), Owners: ints(m.Owners), Text: m.Text()})
	}
	if v.Moves != nil {
		o.Moves = []string{}
	}
	for _, p := range v.Moves {
		o.Moves = append(o.Moves, itoa(int(p.Seat))+" "+FormatMove(p.Move))
	}
	return o
}

// TestViewJSONOracle: over random games of several options, every view's
// JSON is exactly encoding/json's of the same view written as strings, and
// a view does not change when the game goes on.
func TestViewJSONOracle(t *testing.T) {
	for gi, opts := range []string{"players=2", "players=3 jokers=2 target=150", "players=3 stock_exhausted=turn_over_discards target=150", "players=6 jokers=2 target=100"} {
		o, _ := game.ParseOptions(opts)
		st, err := Engine{}.New(o)
		if err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(uint64(gi) + 5)
		var buf []game.Move
		for step := 0; step < 20000; step++ {
			var views []game.View
			var texts []string
			for obs := game.Spectator; int(obs) < st.Seats(); obs++ {
				v := st.View(obs)
				got, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := json.Marshal(oracle(v.(*View)))
				if string(got) != string(want) {
					t.Fatalf("%s step %d view of %d:\n got %s\nwant %s", opts, step, obs, got, want)
				}
				// The server's path writes the same bytes from reused memory
				// (which views of other games and sizes used before).
				if d := st.(*State).AppendViewJSON([]byte("x"), obs); string(d[1:]) != string(got) {
					t.Fatalf("%s step %d: AppendViewJSON of %d:\n%s\nwant the view's JSON:\n%s", opts, step, obs, d[1:], got)
				}
				views, texts = append(views, v), append(texts, string(got))
			}
			if st.Over() {
				break
			}
			if st.ChancePending() {
				st.RollChance(&r)
			} else {
				s := st.ToAct(nil)[0]
				buf = st.Legal(s, buf[:0])
				if err := st.Apply(s, buf[r.IntN(len(buf))]); err != nil {
					t.Fatal(err)
				}
			}
			for i, v := range views {
				if b, _ := json.Marshal(v); string(b) != texts[i] {
					t.Fatalf("%s step %d: a view changed when the game went on:\nbefore %s\nafter  %s", opts, step, texts[i], b)
				}
			}
		}
		if !st.Over() {
			t.Fatalf("%s: not over", opts)
		}
	}
}

// TestSampleOptions: Sample reads the options of the view (its cache of
// parsed options is keyed by every value) and refuses unknown ones.
func TestSampleOptions(t *testing.T) {
	s := scenario2(t)
	v := s.View(1).(*View)
	r := game.NewRand(1)
	for _, target := range []string{"500", "120", "500"} {
		w := *v
		w.Options = v.Options.Clone()
		w.Options["target"] = target
		st, err := Engine{}.Sample(&w, &r)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.(*State).cfg.target; itoa(got) != target || st.Options()["target"] != target {
			t.Fatalf("sample of a view with target %s has target %d", target, got)
		}
	}
	w := *v
	w.Options = v.Options.Clone()
	w.Options["colour"] = "red"
	if _, err := (Engine{}).Sample(&w, &r); err == nil {
		t.Fatal("a view with an unknown option was sampled")
	}
	w.Options = v.Options.Clone()
	w.Options["target"] = "0"
	if _, err := (Engine{}).Sample(&w, &r); err == nil {
		t.Fatal("a view with target=0 was sampled")
	}
}

// TestAppendViewJSONAllocs: once its memory has grown, writing a view
// allocates nothing (game.ViewJSONAppender).
func TestAppendViewJSONAllocs(t *testing.T) {
	s := scenario2(t)
	out := make([]byte, 0, 16384)
	obs := game.Seat(0)
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items: no allocation count")
	}
	allocs := testing.AllocsPerRun(100, func() {
		out = s.AppendViewJSON(out[:0], obs)
		if obs++; int(obs) >= s.Seats() { // every seat, then the spectator
			obs = game.Spectator
		}
	})
	if allocs != 0 {
		t.Fatalf("AppendViewJSON: %.1f allocations a view, want 0", allocs)
	}
}

// TestAppendJSON: AppendJSON appends MarshalJSON's bytes, which are valid JSON.
func TestAppendJSON(t *testing.T) {
	v := scenario2(t).View(1).(*View)
	m, _ := v.MarshalJSON()
	if got := v.AppendJSON([]byte("x")); string(got) != "x"+string(m) || !json.Valid(m) {
		t.Fatalf("AppendJSON %s, MarshalJSON %s", got, m)
	}
}
