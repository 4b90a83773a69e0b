package linfit

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine/eval"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/data"
)

// TestFitRecoversPlantedWeights: targets made by known weights (other than the start) on
// positions of random games are fitted back to those weights.
func TestFitRecoversPlantedWeights(t *testing.T) {
	start := eval.DefaultWeights()
	planted := start
	planted.Board[ms.Pawn], planted.Board[ms.Silver], planted.Board[ms.Gold] = 150, 380, 420
	planted.Board[ms.Bishop], planted.Board[ms.Rook] = 700, 800
	planted.Hand[ms.Pawn], planted.Hand[ms.Gold] = 90, 640
	planted.Tempo, planted.KingEscape = 60, 5

	r := rand.New(rand.NewPCG(1, 2))
	e := eval.New(eval.DefaultConfig()) // the terms, Capture with the start's weights
	p := params(planted)
	var exs []data.Example
	var ml ms.MoveList
	for len(exs) < 4000 {
		pos := ms.StartPosition()
		for ply := 0; ply < 40; ply++ {
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			pos.MakeMove(ml.Moves[r.IntN(ml.N)])
			v := toVector(e.ValueTerms(&pos))
			var z float64
			for k := range v {
				z += p[k] * v[k]
			}
			target := float32(math.Tanh(z / float64(start.ValueScale)))
			exs = append(exs, data.Example{Pos: pos, Result: target, Value: target, Count: 1})
		}
	}
	got, res, err := Fit(exs[:3000], exs[3000:], start, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if !(res.HeldAfter < 1e-6 && res.HeldBefore > 1e-3) {
		t.Errorf("held-out loss %g before, %g after; want the planted weights' zero", res.HeldBefore, res.HeldAfter)
	}
	for _, c := range []struct {
		name      string
		got, want float32
	}{
		{"pawn", got.Board[ms.Pawn], 150}, {"silver", got.Board[ms.Silver], 380}, {"gold", got.Board[ms.Gold], 420},
		{"bishop", got.Board[ms.Bishop], 700}, {"rook", got.Board[ms.Rook], 800},
		{"pawn in hand", got.Hand[ms.Pawn], 90}, {"gold in hand", got.Hand[ms.Gold], 640},
		{"tempo", got.Tempo, 60}, {"king escape", got.KingEscape, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if math.Abs(float64(c.got-c.want)) > 1 {
				t.Errorf("%s: fitted %.2f, planted %.0f", c.name, c.got, c.want)
			}
		})
	}
}

// TestGradient checks loss's gradient against central differences.
func TestGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ss := make([]sample, 20)
	for i := range ss {
		for k := range ss[i].v {
			ss[i].v[k] = float64(r.IntN(5) - 2)
		}
		ss[i].t = r.Float64()*2 - 1
	}
	p := params(eval.DefaultWeights())
	g := make([]float64, numParams)
	loss(p, ss, 700, g)
	for k := range p {
		old := p[k]
		p[k] = old + 1e-3
		up := loss(p, ss, 700, nil)
		p[k] = old - 1e-3
		down := loss(p, ss, 700, nil)
		p[k] = old
		if num := (up - down) / 2e-3; math.Abs(num-g[k]) > 1e-8+1e-5*math.Abs(num) {
			t.Errorf("parameter %d: gradient %g, finite differences %g", k, g[k], num)
		}
	}
}

// TestResultJSONWithoutHeldOut: a fit with nothing held out has NaN held-out losses, which
// encoding/json refuses; they are written as null, and the other keys as they are.
func TestReportJSONWithoutHeldOut(t *testing.T) {
	nan := math.NaN()
	for _, v := range []any{
		Report{Train: 3, TrainBefore: 0.5, TrainAfter: 0.25, HeldBefore: nan, HeldAfter: nan, Evaluations: 7},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		want := `{"train":3,"held":0,"train_before":0.5,"train_after":0.25,"evaluations":7,"held_before":null,"held_after":null}`
		if string(b) != want {
			t.Errorf("%T:\n got %s\nwant %s", v, b, want)
		}
	}
	b, err := json.Marshal(Report{Held: 2, HeldBefore: 0.75, HeldAfter: 0.5})
	if err != nil || !strings.Contains(string(b), `"held_before":0.75,"held_after":0.5`) {
		t.Errorf("with held-out examples: %s, %v", b, err)
	}
}
