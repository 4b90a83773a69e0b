package ratings

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/record"
)

// eloPerNat converts natural-log strengths to Elo: π = 10^(r/400) = e^θ.
var eloPerNat = 400 / math.Ln10

// Model is a paired-comparison model with draws.
type Model string

const (
	Davidson  Model = "davidson"
	HalfPoint Model = "half-point"
)

// Options configure Fit.
type Options struct {
	Model  Model  // Davidson when empty
	Anchor string // the name of the player rated 0; empty for a mean of 0
}

// Collector accumulates results by pair of player configurations.
type Collector struct {
	index   map[string]int // configuration key -> player
	players []identity
	pairs   map[[2]int]*pair // i < j
	// order lists the keys of pairs as first met, so that sums over pairs, and so the
	// fit, are the same in every run (map order would change the rounding).
	order [][2]int
}

type identity struct {
	key, name, config string
}

// pair counts the games between players i < j from i's side.
type pair struct {
	wins, draws, losses float64
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{index: map[string]int{}, pairs: map[[2]int]*pair{}}
}

// Fields are the record fields Add reads: a reader need decode no other
// (selection.Options.Fields).
const Fields = record.FieldPlayers | record.FieldResult

// Add counts one game. Games a configuration plays against itself say
// nothing about ratings and are ignored.
func (c *Collector) Add(g *record.Game) {
	s, o := c.player(g.Players.Sente), c.player(g.Players.Gote)
	if s == o {
		return
	}
	i, j, win, loss := s, o, record.Sente, record.Gote
	if j < i {
		i, j, win, loss = o, s, record.Gote, record.Sente
	}
	p := c.pairs[[2]int{i, j}]
	if p == nil {
		p = new(pair)
		c.pairs[[2]int{i, j}] = p
		c.order = append(c.order, [2]int{i, j})
	}
	switch g.Result {
	case win:
		p.wins++
	case loss:
		p.losses++
	default:
		p.draws++
	}
}

func (c *Collector) player(p record.Player) int {
	config, err := json.Marshal(p.Config) // map keys come out sorted: a canonical form
	if err != nil {
		panic(fmt.Sprintf("ratings: player %q: config does not marshal: %v", p.Name, err)) // it came from JSON
	}
	if p.Config == nil {
		config = []byte("{}")
	}
	key := p.Name + "\x00" + p.Kind + "\x00" + string(config)
	i, ok := c.index[key]
	if !ok {
		i = len(c.players)
		c.index[key] = i
		c.players = append(c.players, identity{key: key, name: p.Name, config: p.Kind + " " + string(config)})
	}
	return i
}

// Rating is one player's rating (a player is a name with its kind and configuration).
type Rating struct {
	Name     string     `json:"name"` // the name, with kind and config when the name is ambiguous
	Elo      float64    `json:"elo"`
	StdErr   float64    `json:"std_err"`
	Interval [2]float64 `json:"interval"` // 95%
	Games    int        `json:"games"`
	Wins     int        `json:"wins"`
	Draws    int        `json:"draws"`
	Losses   int        `json:"losses"`
	Score    float64    `json:"score"` // points per game, a draw counting half
}

// Fit is the ratings a Collector fitted: the model, its anchor and its likelihood.
type Fit struct {
	Model  Model  `json:"model"`
	Anchor string `json:"anchor"` // the player rated 0, or "mean" for a mean of 0
	// Players, the strongest first.
	Players []Rating `json:"players"`
	// DrawParameter is Davidson's ν (0 with no draws; absent for HalfPoint).
	DrawParameter float64 `json:"draw_parameter,omitempty"`
	// LOS[i][j] is the probability that Players[i] is stronger than
	// Players[j] (NaN on the diagonal).
	LOS           [][]float64 `json:"-"`
	LogLikelihood float64     `json:"log_likelihood"`
}

// ErrNoMaximum reports results under which the likelihood has no maximum.
var ErrNoMaximum = errors.New("ratings: the likelihood has no maximum")

// Fit estimates the ratings of every player seen.
func (c *Collector) Fit(opts Options) (*Fit, error) {
	model := cmp.Or(opts.Model, Davidson)
	if model != Davidson && model != HalfPoint {
		return nil, fmt.Errorf("ratings: model %q is not %s or %s", model, Davidson, HalfPoint)
	}
	names := c.names()
	n := len(c.players)
	if n < 2 {
		return nil, fmt.Errorf("ratings: %d player configurations; ratings need two who played each other", n)
	}
	anchor := -1
	if opts.Anchor != "" {
		if anchor = slices.Index(names, opts.Anchor); anchor < 0 {
			return nil, fmt.Errorf("ratings: anchor %q is not one of the players (%s)", opts.Anchor, strings.Join(names, ", "))
		}
	}
	if err := c.checkConnected(names); err != nil {
		return nil, err
	}
	var draws, decisive float64
	for _, ij := range c.order {
		p := c.pairs[ij]
		draws += p.draws
		decisive += p.wins + p.losses
	}
	f := fitter{c: c, model: model, n: n, withDraw: model == Davidson && draws > 0}
	if model == Davidson && decisive == 0 {
		return nil, fmt.Errorf("%w: every game is a draw, so Davidson's draw parameter is infinite (try the %s model)", ErrNoMaximum, HalfPoint)
	}
	x, ll, err := f.maximise()
	if err != nil {
		return nil, err
	}
	cov, err := f.covariance(x)
	if err != nil {
		return nil, err
	}
	theta := append([]float64{0}, x[:n-1]...) // player 0 is fixed at 0 while fitting
	// Re-anchor: r' = A r with A = I - 1·aᵀ, a the weights of the anchor
	// (a unit vector, or 1/n each for the mean), and Σ' = A Σ Aᵀ.
	a := make([]float64, n)
	if anchor >= 0 {
		a[anchor] = 1
	} else {
		for i := range a {
			a[i] = 1 / float64(n)
		}
	}
	A := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			v := -a[j]
			if i == j {
				v++
			}
			A.Set(i, j, v)
		}
	}
	var shift float64
	for i := range n {
		shift += a[i] * theta[i]
	}
	var tmp, sigma mat.Dense
	tmp.Mul(A, cov)
	sigma.Mul(&tmp, A.T())

	res := &Fit{Model: model, Anchor: cmp.Or(opts.Anchor, "mean"), LogLikelihood: ll}
	if f.withDraw {
		res.DrawParameter = math.Exp(x[n-1])
	}
	counts := c.counts()
	for i := range n {
		elo := (theta[i] - shift) * eloPerNat
		se := math.Sqrt(math.Max(0, sigma.At(i, i))) * eloPerNat
		k := counts[i]
		games := k.wins + k.draws + k.losses
		res.Players = append(res.Players, Rating{Name: names[i], Elo: elo, StdErr: se,
			Interval: [2]float64{elo - zInterval*se, elo + zInterval*se},
			Games:    int(games), Wins: int(k.wins), Draws: int(k.draws), Losses: int(k.losses),
			Score: (k.wins + k.draws/2) / games})
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if c := cmp.Compare(res.Players[j].Elo, res.Players[i].Elo); c != 0 {
			return c
		}
		return cmp.Compare(res.Players[i].Name, res.Players[j].Name)
	})
	sorted := make([]Rating, n)
	res.LOS = make([][]float64, n)
	for oi, i := range order {
		sorted[oi] = res.Players[i]
		res.LOS[oi] = make([]float64, n)
		for oj, j := range order {
			if i == j {
				res.LOS[oi][oj] = math.NaN()
				continue
			}
			v := sigma.At(i, i) + sigma.At(j, j) - 2*sigma.At(i, j)
			res.LOS[oi][oj] = distuv.UnitNormal.CDF((theta[i] - theta[j]) / math.Sqrt(v))
		}
	}
	res.Players = sorted
	return res, nil
}

// zInterval is the normal quantile at 0.975, for 95% intervals.
var zInterval = distuv.UnitNormal.Quantile(0.975)

// names shows each configuration by its name, adding kind and config where
// one name has several configurations.
func (c *Collector) names() []string {
	seen := map[string]int{}
	for _, p := range c.players {
		seen[p.name]++
	}
	out := make([]string, len(c.players))
	for i, p := range c.players {
		out[i] = p.name
		if seen[p.name] > 1 {
			out[i] = p.name + " " + p.config
		}
	}
	return out
}

func (c *Collector) counts() []pair {
	out := make([]pair, len(c.players))
	for ij, p := range c.pairs {
		i, j := ij[0], ij[1]
		out[i].wins += p.wins
		out[i].draws += p.draws
		out[i].losses += p.losses
		out[j].wins += p.losses
		out[j].draws += p.draws
		out[j].losses += p.wins
	}
	return out
}

// checkConnected tests Ford's condition: in the graph with an edge i -> j
// when i took a point or half a point from j, every player reaches every
// other. It is enough that player 0 reaches all and all reach player 0.
func (c *Collector) checkConnected(names []string) error {
	n := len(c.players)
	forward := make([][]int, n)  // i -> j: i scored against j
	backward := make([][]int, n) // reversed
	for ij, p := range c.pairs {
		i, j := ij[0], ij[1]
		if p.wins+p.draws > 0 {
			forward[i] = append(forward[i], j)
			backward[j] = append(backward[j], i)
		}
		if p.losses+p.draws > 0 {
			forward[j] = append(forward[j], i)
			backward[i] = append(backward[i], j)
		}
	}
	reach := func(adj [][]int) []bool {
		seen := make([]bool, n)
		seen[0] = true
		stack := []int{0}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, j := range adj[i] {
				if !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	missing := func(seen []bool) string {
		var out []string
		for i, s := range seen {
			if !s {
				out = append(out, fmt.Sprintf("%q", names[i]))
			}
		}
		return strings.Join(out, ", ")
	}
	if m := missing(reach(forward)); m != "" {
		return fmt.Errorf("%w: %q scored no point against (any player who scored against) %s; they would be rated infinitely high", ErrNoMaximum, names[0], m)
	}
	if m := missing(reach(backward)); m != "" {
		return fmt.Errorf("%w: %s scored no point against (any player who scored against) %q; they would be rated infinitely low", ErrNoMaximum, m, names[0])
	}
	return nil
}

// fitter holds the log-likelihood in the free parameters x: θ_1..θ_{n-1}
// (θ_0 = 0) and, for Davidson with draws, ln ν last.
type fitter struct {
	c        *Collector
	model    Model
	n        int
	withDraw bool
}

func (f *fitter) dim() int {
	if f.withDraw {
		return f.n
	}
	return f.n - 1
}

// theta is player i's strength in x.
func (f *fitter) theta(x []float64, i int) float64 {
	if i == 0 {
		return 0
	}
	return x[i-1]
}

// pairTerms returns one pair's log-likelihood and its derivatives in d =
// θ_i - θ_j and in ln ν, with ν = e^lnNu (0 when the model has no draw
// parameter).
//
// Davidson, with the common factor sqrt(π_i π_j) cancelled:
// ℓ = (W-L)·d/2 + D·ln ν - n·ln(2cosh(d/2) + ν).
// HalfPoint, with s = W + D/2 and p = 1/(1+e^-d): ℓ = s·ln p + (n-s)·ln(1-p).
func (f *fitter) pairTerms(p *pair, d, nu float64) (ll, gd, gv, hdd, hdv, hvv float64) {
	n := p.wins + p.draws + p.losses
	if f.model == HalfPoint {
		s := p.wins + p.draws/2
		// ln p = -log1p(e^-d), ln(1-p) = -log1p(e^d), stable in both tails.
		ll = -s*math.Log1p(math.Exp(-d)) - (n-s)*math.Log1p(math.Exp(d))
		prob := 1 / (1 + math.Exp(-d))
		return ll, s - n*prob, 0, -n * prob * (1 - prob), 0, 0
	}
	ch, sh := math.Cosh(d/2), math.Sinh(d/2)
	c := 2*ch + nu
	ll = (p.wins-p.losses)*d/2 - n*math.Log(c)
	if p.draws > 0 {
		ll += p.draws * math.Log(nu)
	}
	gd = (p.wins-p.losses)/2 - n*sh/c
	hdd = -n * (ch*c/2 - sh*sh) / (c * c)
	if f.withDraw {
		gv = p.draws - n*nu/c
		hdv = n * sh * nu / (c * c)
		hvv = -n * nu * 2 * ch / (c * c)
	}
	return ll, gd, gv, hdd, hdv, hvv
}

// eval fills the log-likelihood, and grad and hess (of ℓ, not -ℓ) when not nil.
func (f *fitter) eval(x, grad []float64, hess *mat.SymDense) float64 {
	nu := 0.0
	if f.withDraw {
		nu = math.Exp(x[f.n-1])
	}
	for i := range grad {
		grad[i] = 0
	}
	if hess != nil {
		hess.Zero()
	}
	var ll float64
	v := f.n - 1 // index of ln ν in x
	for _, ij := range f.c.order {
		p := f.c.pairs[ij]
		i, j := ij[0], ij[1]
		l, gd, gv, hdd, hdv, hvv := f.pairTerms(p, f.theta(x, i)-f.theta(x, j), nu)
		ll += l
		// d = θ_i - θ_j: ∂d/∂θ_i = 1, ∂d/∂θ_j = -1; θ_0 is not a parameter.
		idx := [2]int{i - 1, j - 1}
		sign := [2]float64{1, -1}
		if grad != nil {
			for k := range 2 {
				if idx[k] >= 0 {
					grad[idx[k]] += sign[k] * gd
				}
			}
			if f.withDraw {
				grad[v] += gv
			}
		}
		if hess != nil {
			for a := range 2 {
				if idx[a] < 0 {
					continue
				}
				for b := range 2 {
					if idx[b] >= idx[a] {
						hess.SetSym(idx[a], idx[b], hess.At(idx[a], idx[b])+sign[a]*sign[b]*hdd)
					}
				}
				if f.withDraw {
					hess.SetSym(idx[a], v, hess.At(idx[a], v)+sign[a]*hdv)
				}
			}
			if f.withDraw {
				hess.SetSym(v, v, hess.At(v, v)+hvv)
			}
		}
	}
	return ll
}

// maximise finds the maximum-likelihood parameters.
func (f *fitter) maximise() (x []float64, ll float64, err error) {
	m := f.dim()
	problem := optimize.Problem{
		Func: func(x []float64) float64 { return -f.eval(x, nil, nil) },
		Grad: func(grad, x []float64) {
			f.eval(x, grad, nil)
			for i := range grad {
				grad[i] = -grad[i]
			}
		},
		Hess: func(hess *mat.SymDense, x []float64) {
			f.eval(x, nil, hess)
			hess.ScaleSym(-1, hess)
		},
	}
	x0 := make([]float64, m) // equal strengths; ν = 1 when fitted
	res, err := optimize.Minimize(problem, x0, &optimize.Settings{GradientThreshold: 1e-9}, &optimize.Newton{})
	if err != nil && res != nil && f.converged(res.X) {
		// Newton's line search can fail to improve once the gradient is down at the
		// rounding level of the sums; that point is the maximum.
		err = nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("ratings: maximising the likelihood: %w", err)
	}
	return res.X, -res.F, nil
}

// converged reports whether the gradient at x is negligible beside the number of games:
// each pair contributes terms of the order of its game count to the score equations.
func (f *fitter) converged(x []float64) bool {
	grad := make([]float64, f.dim())
	f.eval(x, grad, nil)
	var games float64
	for _, p := range f.c.pairs {
		games += p.wins + p.draws + p.losses
	}
	return floats.Norm(grad, math.Inf(1)) <= 1e-7*(1+games)
}

// covariance returns the covariance of θ_0..θ_{n-1} (row and column 0 zero:
// θ_0 was fixed) as the inverse of the observed information.
func (f *fitter) covariance(x []float64) (*mat.Dense, error) {
	m := f.dim()
	info := mat.NewSymDense(m, nil)
	f.eval(x, nil, info)
	info.ScaleSym(-1, info)
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, fmt.Errorf("%w: the observed information is singular at the fit", ErrNoMaximum)
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, fmt.Errorf("ratings: inverting the information: %w", err)
	}
	cov := mat.NewDense(f.n, f.n, nil)
	for i := 1; i < f.n; i++ {
		for j := 1; j < f.n; j++ {
			cov.Set(i, j, inv.At(i-1, j-1))
		}
	}
	return cov, nil
}
