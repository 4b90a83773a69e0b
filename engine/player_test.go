package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

func newTestPlayer(t testing.TB, threads int, seed uint64) *Player {
	t.Helper()
	cfg := DefaultPlayerConfig()
	cfg.Search.Threads = threads
	cfg.Search.Seed = seed
	cfg.Search.MaxNodes = 1 << 18
	p, err := NewPlayer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func gameAt(t testing.TB, sfen string) *minishogi.Game {
	t.Helper()
	pos, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	return minishogi.NewGame(pos, minishogi.GameOptions{})
}

// replyMates reports whether the side to move after m has a mate in one (any move after
// which the mover's opponent has no legal move), found by trying every reply.
func replyMates(pos minishogi.Position, m minishogi.Move) bool {
	pos.MakeMove(m)
	for _, r := range pos.LegalMoves(nil) {
		u := pos.MakeMove(r)
		mated := len(pos.LegalMoves(nil)) == 0
		pos.UnmakeMove(r, u)
		if mated {
			return true
		}
	}
	return false
}

func TestThinkFindsMates(t *testing.T) {
	for _, c := range []struct {
		sfen, move string
		mate       int
	}{
		// Drop mate in 1 (see engine/eval's TestMates for the derivation): G*1b.
		{"4k/5/4P/5/K4 b Gs 1", "G*1b", 1},
		// Mate in 3 by R*2a (engine/eval's TestMates): the score is mate in 3 plies.
		{"4k/5/5/5/K2R1 b Rg 1", "R*2a", 3},
	} {
		t.Run(c.sfen, func(t *testing.T) {
			p := newTestPlayer(t, 1, 1)
			d, err := p.Think(context.Background(), gameAt(t, c.sfen), mcts.Limits{Playouts: 5000})
			if err != nil {
				t.Fatal(err)
			}
			if d.Move.String() != c.move || d.Score.Mate != c.mate || d.Stop != mcts.StopProven {
				t.Errorf("%s: %s score %s stop %v, want %s mate %d, proven", c.sfen, d.Move, d.Score, d.Stop, c.move, c.mate)
			}
		})
	}
}

// TestThinkAvoidsMateInOne: in 4k/5/1g3/5/K4 b Pg 1 Gote threatens G*5d, a mate guarded by
// the gold on 4c (the king on 5e has 4e and 4d, both covered). Only the checking drop P*1b
// keeps Gote busy; replyMates confirms that every other move allows a mate in one. (P*1b
// only delays the mate, which the solver may prove: then the engine resigns, but the move
// it would play is still the longest resistance.)
func TestThinkAvoidsMateInOne(t *testing.T) {
	const sfen = "4k/5/1g3/5/K4 b Pg 1"
	g := gameAt(t, sfen)
	pos := g.Position()
	var safe []string
	for _, m := range pos.LegalMoves(nil) {
		if !replyMates(pos, m) {
			safe = append(safe, m.String())
		}
	}
	if !reflect.DeepEqual(safe, []string{"P*1b"}) {
		t.Fatalf("moves without a mating reply: %v, want only P*1b", safe)
	}
	p := newTestPlayer(t, 1, 7)
	d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if d.Move.String() != "P*1b" {
		t.Errorf("played %s, want P*1b", d.Move)
	}
	for _, s := range d.Top {
		if want := (mcts.Proof{Outcome: outcome.Loss, Plies: 2}); s.Move.String() != "P*1b" && s.Proof != want {
			t.Errorf("%s: proof %v, want %v", s.Move, s.Proof, want)
		}
	}
}

// TestResignsOnlyWhenLost: in 4k/1S3/5/4r/K4 b g 1 every Sente move allows a mate in one
// (replyMates checks each); the engine resigns. At the start it never does.
func TestResignsOnlyWhenLost(t *testing.T) {
	const sfen = "4k/1S3/5/4r/K4 b g 1"
	g := gameAt(t, sfen)
	pos := g.Position()
	for _, m := range pos.LegalMoves(nil) {
		if !replyMates(pos, m) {
			t.Fatalf("%s has no mating reply: the test position is wrong", m)
		}
	}
	e := New()
	if err := e.SetPosition(sfen, nil); err != nil {
		t.Fatal(err)
	}
	best, err := e.Go(context.Background(), usi.GoParams{Nodes: 3000}, func(usi.SearchInfo) {})
	if err != nil || best.Move != "resign" {
		t.Errorf("bestmove %s, %v; want resign", best.Move, err)
	}
	if err := e.SetPosition("", nil); err != nil {
		t.Fatal(err)
	}
	if best, _ := e.Go(context.Background(), usi.GoParams{Nodes: 500}, func(usi.SearchInfo) {}); best.Move == "resign" || best.Move == "win" {
		t.Errorf("bestmove %s at the start", best.Move)
	}
}

// TestResignNever: with Resign=never the engine plays on in the lost position of
// TestResignsOnlyWhenLost, a legal move, and still reports the proven loss.
func TestResignNever(t *testing.T) {
	const sfen = "4k/1S3/5/4r/K4 b g 1"
	e := New()
	if err := e.SetOption("Resign", "never"); err != nil {
		t.Fatal(err)
	}
	if err := e.SetPosition(sfen, nil); err != nil {
		t.Fatal(err)
	}
	var last string
	best, err := e.Go(context.Background(), usi.GoParams{Nodes: 3000}, func(in usi.SearchInfo) { last = in.Format() })
	if err != nil {
		t.Fatal(err)
	}
	pos := gameAt(t, sfen).Position()
	if _, err := pos.ParseMove(best.Move); err != nil {
		t.Errorf("bestmove %s with Resign=never; want a legal move (%v)", best.Move, err)
	}
	if !strings.Contains(last, "score mate -") {
		t.Errorf("the last info line %q does not report the proven loss", last)
	}
}

// playGame lets p play both sides for plies moves and returns every decision.
func playGame(t *testing.T, p *Player, plies int) []Decision {
	t.Helper()
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	var ds []Decision
	for range plies {
		d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 400})
		if err != nil {
			t.Fatal(err)
		}
		d.Elapsed = 0 // the only field that depends on the clock
		ds = append(ds, d)
		if err := g.Play(d.Move); err != nil {
			t.Fatal(err)
		}
		if g.Result().Over() {
			break
		}
	}
	return ds
}

// TestReproducible: two single-goroutine players with one seed, with root noise and
// temperature on, play the same moves with the same statistics; NewGame with the seed
// restores the first run exactly.
func TestReproducible(t *testing.T) {
	newSelfPlay := func() *Player {
		cfg := DefaultPlayerConfig()
		cfg.Search.MaxNodes = 1 << 18
		cfg.Search.Seed = 42
		cfg.Search.DirichletEpsilon = 0.25
		cfg.Search.TemperaturePlies = 6
		p, err := NewPlayer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := newSelfPlay(), newSelfPlay()
	first := playGame(t, a, 12)
	if second := playGame(t, b, 12); !reflect.DeepEqual(first, second) {
		t.Fatalf("two runs differ:\n%+v\n%+v", first, second)
	}
	a.NewGame(42)
	if again := playGame(t, a, 12); !reflect.DeepEqual(first, again) {
		t.Fatal("NewGame(seed) does not restart the random choices")
	}
	a.NewGame(43)
	other := playGame(t, a, 12)
	same := len(other) == len(first)
	for i := 0; same && i < len(other); i++ {
		same = other[i].Move == first[i].Move && other[i].Value == first[i].Value
	}
	if same {
		t.Error("another seed gives the same game: the seed does not reach the search")
	}
	// Without temperature, root noise is the only random choice of one search goroutine
	// (the evaluator does not sample): two seeds play alike without it and not with it.
	for _, eps := range []float64{0, 0.25} {
		var games [2][]Decision
		for i, seed := range []uint64{42, 43} {
			cfg := DefaultPlayerConfig()
			cfg.Search.MaxNodes = 1 << 18
			cfg.Search.Seed = seed
			cfg.Search.DirichletEpsilon = eps
			p, err := NewPlayer(cfg)
			if err != nil {
				t.Fatal(err)
			}
			games[i] = playGame(t, p, 6)
		}
		differ := false
		for i := range games[0] {
			for j := range min(len(games[0][i].Top), len(games[1][i].Top)) {
				differ = differ || games[0][i].Top[j].Prior != games[1][i].Top[j].Prior
			}
		}
		if differ != (eps > 0) {
			t.Errorf("root noise %v: seeds 42 and 43 give different priors: %v", eps, differ)
		}
	}
}

// TestParallelThink runs four search goroutines on one tree (run with -race) and checks
// that the statistics add up.
func TestParallelThink(t *testing.T) {
	p := newTestPlayer(t, 4, 3)
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	for range 3 {
		d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 3000})
		if err != nil {
			t.Fatal(err)
		}
		var visits int64
		for _, s := range d.Top {
			visits += int64(s.Visits)
		}
		if visits+1 != d.RootVisits {
			t.Errorf("root visits %d, children's %d + 1", d.RootVisits, visits)
		}
		if err := g.Play(d.Move); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStopEndsInfiniteThink(t *testing.T) {
	p := newTestPlayer(t, 2, 1)
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond) // the pool holds about 16,000 playouts
	defer cancel()
	d, err := p.Think(ctx, g, mcts.Limits{})
	if err != nil || d.Stop != mcts.StopCancelled {
		t.Errorf("stop %v, error %v", d.Stop, err)
	}
}

func TestTimeBudget(t *testing.T) {
	ms := time.Millisecond
	margin := 30 * ms
	for _, c := range []struct {
		name   string
		p      usi.GoParams
		stm    minishogi.Color
		manage bool
		want   mcts.Limits
	}{
		{"nodes", usi.GoParams{Nodes: 1000}, minishogi.Sente, false, mcts.Limits{Playouts: 1000}},
		{"movetime", usi.GoParams{MoveTime: 100 * ms}, minishogi.Sente, false, mcts.Limits{Time: 70 * ms}},
		// 60 s left: 60000/20 = 3000 ms, plus 1000 ms increment, less 30 ms.
		{"clock sente", usi.GoParams{BTime: 60000 * ms, WTime: 1000 * ms, BInc: 1000 * ms}, minishogi.Sente, false, mcts.Limits{Time: 3970 * ms}},
		// Gote's clock: 1000/20 = 50 ms, no increment, less 30 ms.
		{"clock gote", usi.GoParams{BTime: 60000 * ms, WTime: 1000 * ms, BInc: 1000 * ms}, minishogi.Gote, false, mcts.Limits{Time: 20 * ms}},
		// Byoyomi only: 1000 ms less the margin.
		{"byoyomi", usi.GoParams{Byoyomi: 1000 * ms}, minishogi.Gote, false, mcts.Limits{Time: 970 * ms}},
		// 10 ms left and no byoyomi: the floor of one millisecond.
		{"flagging", usi.GoParams{BTime: 10 * ms}, minishogi.Sente, false, mcts.Limits{Time: ms}},
		{"infinite", usi.GoParams{Infinite: true, MoveTime: 5 * ms}, minishogi.Sente, false, mcts.Limits{}},

		// Managed: aim at the same time; the bound is the least of three times the
		// unmargined aim, a fifth of the clock plus increment and byoyomi, and the clock
		// plus byoyomi, less the margin.
		// 60 s + 1 s: min(3·4000, 12000+1000, 60000) - 30 = 11970 ms.
		{"managed clock", usi.GoParams{BTime: 60000 * ms, WTime: 1000 * ms, BInc: 1000 * ms}, minishogi.Sente, true, mcts.Limits{Time: 3970 * ms, MaxTime: 11970 * ms}},
		// 2 s + 50 ms (the SPRT's clock): aim 100+50-30 = 120; min(450, 400+50, 2000) - 30 = 420.
		{"managed short", usi.GoParams{BTime: 2000 * ms, WTime: 2000 * ms, BInc: 50 * ms, WInc: 50 * ms}, minishogi.Gote, true, mcts.Limits{Time: 120 * ms, MaxTime: 420 * ms}},
		// 1 s + 1 s: aim min(50+1000, 1000) - 30 = 970; bound min(3000, 200+1000, 1000) - 30
		// = 970, no more than the aim: no time manager.
		{"managed no room", usi.GoParams{BTime: 1000 * ms, BInc: 1000 * ms}, minishogi.Sente, true, mcts.Limits{Time: 970 * ms}},
		// Byoyomi only: min(3000, 1000, 1000) - 30 = 970 = the aim: byoyomi is spent whole.
		{"managed byoyomi", usi.GoParams{Byoyomi: 1000 * ms}, minishogi.Gote, true, mcts.Limits{Time: 970 * ms}},
		{"managed movetime", usi.GoParams{MoveTime: 100 * ms}, minishogi.Sente, true, mcts.Limits{Time: 70 * ms}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := TimeBudget(c.p, c.stm, margin, c.manage); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
			}
		})
	}
}

// TestTreeReuse: after our move and the reply the search expected most, the next think
// starts from the visits the tree already had below that reply.
func TestTreeReuse(t *testing.T) {
	p := newTestPlayer(t, 1, 5)
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.PV) < 2 {
		t.Fatalf("PV %v too short", d.PV)
	}
	for _, m := range d.PV[:2] {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	next, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 100})
	if err != nil {
		t.Fatal(err)
	}
	if next.RootVisits <= next.Playouts+1 {
		t.Errorf("root visits %d after %d playouts: the tree was not kept", next.RootVisits, next.Playouts)
	}
}

// TestFullPoolStartsAfresh: a search that fills a small pool, then a search of the same
// position (which keeps the whole tree), still gets its playouts on a fresh tree.
func TestFullPoolStartsAfresh(t *testing.T) {
	cfg := DefaultPlayerConfig()
	cfg.Search.MaxNodes = 20000
	p, err := NewPlayer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 100000})
	if err != nil || d.Stop != mcts.StopPoolFull {
		t.Fatalf("stop %v, error %v; want a full pool", d.Stop, err)
	}
	again, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 300})
	if err != nil || again.Playouts != 300 {
		t.Errorf("second search: %d playouts, stop %v, error %v; want 300", again.Playouts, again.Stop, err)
	}
}
