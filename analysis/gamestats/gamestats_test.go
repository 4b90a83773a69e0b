package gamestats

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

// The seven games of ../testdata/small.jsonl (see its README), counted by
// hand: results S S D S G G S by id are sente 0,3,6; gote 1,4,5; draw 2;
// lengths 4 3 4 3 2 1 1; six resignations and one max_plies draw.
func smallReport(t *testing.T) Report {
	t.Helper()
	s := New()
	_, err := selection.Stream([]string{"../testdata/small.jsonl"}, selection.Filter{}, selection.Options{},
		func(g *record.Game) error { s.Add(g); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return s.Report()
}

func TestResultsByHand(t *testing.T) {
	r := smallReport(t)
	if r.Games != 7 || r.SenteWins.Count != 3 || r.GoteWins.Count != 3 || r.Draws.Count != 1 {
		t.Fatalf("results %+v", r)
	}
	if r.SenteWins.Value != 3.0/7 || r.SenteScore.Value != 0.5 {
		t.Errorf("sente share %v score %v; want 3/7 and 1/2", r.SenteWins.Value, r.SenteScore.Value)
	}
	// Wilson for 3.5/7 in closed form: centre 1/2 exactly by symmetry,
	// half-width z·sqrt(1/28 + z²/196)/(1 + z²/7).
	z := score.Z95
	half := z * math.Sqrt(0.25/7+z*z/196) / (1 + z*z/7)
	if math.Abs(r.SenteScore.Interval[0]-(0.5-half)) > 1e-12 || math.Abs(r.SenteScore.Interval[1]-(0.5+half)) > 1e-12 {
		t.Errorf("score interval %v; want 0.5 ± %v", r.SenteScore.Interval, half)
	}
	if len(r.Terminations) != 2 {
		t.Fatalf("terminations %+v", r.Terminations)
	}
	res, maxp := r.Terminations[0], r.Terminations[1]
	if res.Termination != record.Resignation || res.Tally != (score.Tally{SenteWins: 3, GoteWins: 3}) || res.Share.Value != 6.0/7 {
		t.Errorf("first termination %+v; want resignation 3/3/0", res)
	}
	if maxp.Termination != record.MaxPlies || maxp.Tally != (score.Tally{Draws: 1}) {
		t.Errorf("second termination %+v; want max_plies 0/0/1", maxp)
	}
}

func TestLengthsByHand(t *testing.T) {
	r := smallReport(t)
	want := []Lengths{
		// all: 1 1 2 3 3 4 4
		{Result: "all", Games: 7, Mean: 18.0 / 7, Min: 1, Q1: 1, Median: 3, Q3: 4, P90: 4, Max: 4},
		{Result: "sente", Games: 3, Mean: 8.0 / 3, Min: 1, Q1: 1, Median: 3, Q3: 4, P90: 4, Max: 4}, // 1 3 4
		{Result: "gote", Games: 3, Mean: 2, Min: 1, Q1: 1, Median: 2, Q3: 3, P90: 3, Max: 3},        // 1 2 3
		{Result: "draw", Games: 1, Mean: 4, Min: 4, Q1: 4, Median: 4, Q3: 4, P90: 4, Max: 4},
	}
	if len(r.Lengths) != len(want) {
		t.Fatalf("lengths %+v", r.Lengths)
	}
	for i, w := range want {
		g := r.Lengths[i]
		if math.Abs(g.Mean-w.Mean) > 1e-12 {
			t.Errorf("%s mean %v; want %v", w.Result, g.Mean, w.Mean)
		}
		g.Mean = w.Mean
		if g != w {
			t.Errorf("lengths %+v; want %+v", g, w)
		}
	}
	hist := []Bin{
		{1, score.Tally{SenteWins: 1, GoteWins: 1}},
		{2, score.Tally{GoteWins: 1}},
		{3, score.Tally{SenteWins: 1, GoteWins: 1}},
		{4, score.Tally{SenteWins: 1, Draws: 1}},
	}
	if len(r.Histogram) != len(hist) {
		t.Fatalf("histogram %+v", r.Histogram)
	}
	for i := range hist {
		if r.Histogram[i] != hist[i] {
			t.Errorf("bin %+v; want %+v", r.Histogram[i], hist[i])
		}
	}
}

func TestEmpty(t *testing.T) {
	r := New().Report()
	if r.Games != 0 || len(r.Lengths) != 0 || len(r.Histogram) != 0 || r.SenteScore.Interval != [2]float64{0, 1} {
		t.Errorf("empty report %+v", r)
	}
}

// TestLengthsCaption: the caption of the seven small games states the counts of the
// README's table (lengths 4 3 4 3 2 1 1, six resignations and a max_plies draw) and, since
// their mcts configs do not name resign (records from before the setting), that the lengths
// count the plies to a proven loss.
func TestLengthsCaption(t *testing.T) {
	got := LengthsCaption(smallReport(t), "the seven small games")
	for _, want := range []string{"a histogram in bins of one ply, in the seven small games.", "Sente won 3, Gote 3, draws 1; Sente's score 0.500",
		"mean 2.6, median 3, quartiles 1 and 4, range 1–4", "Terminations: resignation 6, max_plies 1.", "(Resign=proven)", "plies to a proven loss"} {
		if !strings.Contains(got, want) {
			t.Errorf("the caption lacks %q:\n%s", want, got)
		}
	}
}

// TestResignNote: games by the rules their engines resigned by, as their configs say.
func TestResignNote(t *testing.T) {
	player := func(kind, resign string) record.Player {
		p := record.Player{Name: kind, Kind: kind}
		if resign != "" {
			p.Config = map[string]any{record.ConfigResign: resign}
		}
		return p
	}
	game := func(a, b record.Player) *record.Game {
		return &record.Game{Result: record.Draw, Termination: record.MaxPlies, Plies: 10, Players: record.Players{Sente: a, Gote: b}}
	}
	never, proven, old, usi := player(record.KindMCTS, "never"), player(record.KindMCTS, "proven"), player(record.KindMCTS, ""), player(record.KindUSI, "")
	for _, tc := range []struct {
		name  string
		games []*record.Game
		want  map[string]int
		note  string
	}{
		{"all never", []*record.Game{game(never, never), game(never, usi)}, map[string]int{"never": 2}, "The engines never resigned (Resign=never)"},
		{"proven, one of them recorded before the key", []*record.Game{game(proven, old)}, map[string]int{"proven": 1}, "Every game's engine resigned when"},
		{"mixed", []*record.Game{game(never, proven), game(proven, old), game(usi, usi)}, map[string]int{"never+proven": 1, "proven": 1},
			"Resign=never+proven in 1, Resign=proven in 1 of the 3 games (1 without the toolkit's engine)"},
		{"no engine of ours", []*record.Game{game(usi, usi)}, map[string]int{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			for _, g := range tc.games {
				s.Add(g)
			}
			r := s.Report()
			if !maps.Equal(r.Resign, tc.want) {
				t.Errorf("Resign %v; want %v", r.Resign, tc.want)
			}
			if note := ResignNote(r); tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("note %q; want one with %q", note, tc.note)
			}
		})
	}
}
