package engine

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/shogilab/shogilab/datasets/evaluation"
	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/shogilab/shogilab/internal/sysmem"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Settings are the values of every engine setting: the player's configuration, and what
// the engine keeps besides it (the time held back per move, the game-end rules).
type Settings struct {
	Player       PlayerConfig
	MoveOverhead time.Duration
	ManageTime   bool // on a clock, let the time manager stop early or run on (TimeBudget)
	Rules        minishogi.GameOptions
	Ponder       bool // USI_Ponder: bestmove names the reply to ponder on
	// EvalLoaded says what EvalFile loaded (file, family, sizes), for the engine's info
	// string after the setting.
	EvalLoaded string
}

// DefaultSettings returns every setting at its default (the Default of its table entry).
func DefaultSettings() Settings {
	cfg := DefaultPlayerConfig()
	cfg.Search.MaxNodes = HashNodes(defaultHashMB)
	return Settings{Player: cfg, MoveOverhead: defaultOverheadMS * time.Millisecond, EvalLoaded: builtinLoaded()}
}

// The EvalFile values that name no file (a file of either name is given as ./NAME).
const (
	BuiltinEval = "builtin" // the shipped network, BuiltinNet
	HandSetEval = "handset" // eval.DefaultWeights, no network
)

const (
	defaultHashMB     = 256 // 8M nodes: about 500k playouts from the opening, some seconds of search
	defaultOverheadMS = 30
)

// MaxHashMB is the largest hash size the engine takes, in MiB (USI_Hash's maximum).
const MaxHashMB = 65536

// HashNodes is the node pool (mcts.Config.MaxNodes) that a hash of mb MiB holds, mb from
// 1 to MaxHashMB.
func HashNodes(mb int) int { return mb << 20 / mcts.NodeBytes }

// PlayoutNodes is the node pool of a player that searches playouts playouts a move and was
// given no USI_Hash: an expansion takes one node per legal move, and Minishogi positions
// have some tens of moves (more with pieces in hand), so 128 nodes a playout leave room for
// the tree kept from one move to the next; at least 64Ki nodes (2 MiB), at most 4Mi
// (128 MiB). Many such players run side by side in self-play, so the pool is kept small.
func PlayoutNodes(playouts int64) int {
	const perPlayout, least, most = 128, 1 << 16, 1 << 22
	if playouts > most/perPlayout {
		return most
	}
	return int(max(playouts*perPlayout, least))
}

// Kind is the type of a setting's value.
type Kind uint8

const (
	Int    Kind = iota // an integer within [Min, Max]: a USI spin
	Float              // a decimal number within its range: a USI string, since spins are integers
	Choice             // one of Choices: a USI combo
	Text               // any text, such as a file name: a USI string
	Check              // true or false: a USI check
)

// Setting is one engine setting: one USI option and one key of a player spec. The table of
// them (AllSettings) is the only place a setting is named, ranged, defaulted and
// documented; the USI engine, the player specs of package selfplay and the README's option
// table all come from it.
type Setting struct {
	// Name is the USI option name. Names are matched without regard to case, in USI
	// `setoption` and in player specs alike.
	Name    string
	Aliases []string // other names accepted for it
	Kind    Kind
	Min     int64    // Int: the smallest value
	Max     int64    // Int: the largest value
	Low     float64  // Float: the smallest value
	High    float64  // Float: the largest value (may be +Inf)
	OpenLow bool     // Float: Low itself is not allowed (a positive number)
	Choices []string // Choice: the values, the default among them
	Default string
	Doc     string
	// PerGame marks a setting that a match sets for every game (the seed, the game-end
	// rules): a player spec may not set it.
	PerGame bool
	// checkInt, if set, checks an Int value within its range further (USI_Hash against
	// the machine's memory).
	checkInt func(int64) error

	// Exactly one of these applies a checked value, by Kind.
	setInt   func(*Settings, int64)
	setFloat func(*Settings, float64)
	setText  func(*Settings, string) error
}

// settings is the table. To add a setting, add one entry: the USI engine, the player specs,
// the help texts and the README's table follow (a test holds the README to it).
var settings = []Setting{
	{Name: "Threads", Kind: Int, Min: 1, Max: mcts.MaxThreads, Default: "1",
		Doc:    "search goroutines sharing one tree; one keeps a game reproducible from its seed",
		setInt: func(s *Settings, n int64) { s.Player.Search.Threads = int(n) }},
	{Name: "USI_Hash", Aliases: []string{"Hash"}, Kind: Int, Min: 1, Max: MaxHashMB, Default: strconv.Itoa(defaultHashMB),
		Doc:      "node pool in MiB (32 bytes a node), refused beyond three quarters of the machine's free memory; a player spec without it sizes the pool from its playouts",
		checkInt: checkHash,
		setInt:   func(s *Settings, mb int64) { s.Player.Search.MaxNodes = HashNodes(int(mb)) }},
	{Name: "Seed", Kind: Int, Min: 0, Max: math.MaxInt64, Default: "0", PerGame: true,
		Doc:    "drives every random choice of the search; in a match each game has its own",
		setInt: func(s *Settings, n int64) { s.Player.Search.Seed = uint64(n) }},
	{Name: "CPuct", Kind: Float, Low: 0, OpenLow: true, High: math.Inf(1), Default: "1.8",
		Doc:      "weight of the prior against the mean value in PUCT selection",
		setFloat: func(s *Settings, x float64) { s.Player.Search.CPuct = float32(x) }},
	{Name: "FPUReduction", Kind: Float, Low: 0, High: math.Inf(1), Default: "0.4",
		Doc:      "value taken off the parent's for an unvisited child (first play urgency)",
		setFloat: func(s *Settings, x float64) { s.Player.Search.FPUReduction = float32(x) }},
	{Name: "VirtualLoss", Kind: Float, Low: 0, High: math.Inf(1), Default: "1",
		Doc:      "lost visits a playout in flight counts for, spreading parallel goroutines",
		setFloat: func(s *Settings, x float64) { s.Player.Search.VirtualLoss = float32(x) }},
	{Name: "Twins", Kind: Choice, Choices: []string{mcts.TwinsAuto.String(), mcts.TwinsOn.String(), mcts.TwinsOff.String()}, Default: mcts.TwinsAuto.String(),
		Doc: "expand a leaf's best sibling in the same descent (auto: with several threads)",
		setText: func(s *Settings, v string) (err error) {
			s.Player.Search.Twins, err = mcts.ParseTwins(v)
			return err
		}},
	{Name: "MateDepth", Kind: Choice, Choices: []string{"0", "1", "3", "5", "7"}, Default: "5",
		Doc: "mate search by checks, to mate in this many plies (0: off): to MateExpandDepth at every expansion, the rest once the search has visited the position DeepenVisits times",
		setText: func(s *Settings, v string) (err error) {
			s.Player.Eval.MateDepth, err = strconv.Atoi(v)
			return err
		}},
	{Name: "MateExpandDepth", Kind: Choice, Choices: []string{"0", "1", "3", "5", "7"}, Default: "1",
		Doc: "how much of MateDepth the mate search looks at when a position is expanded, in plies; the rest after DeepenVisits visits (MateDepth or more: all of it, as the engine of commit 6eb5e8e and earlier, to play its records again)",
		setText: func(s *Settings, v string) (err error) {
			s.Player.Eval.MateExpandDepth, err = strconv.Atoi(v)
			return err
		}},
	{Name: "DeepenVisits", Kind: Int, Min: 0, Max: math.MaxUint32, Default: "4",
		Doc:    "visits after which a position gets the rest of the mate search, beyond MateExpandDepth (0: never)",
		setInt: func(s *Settings, n int64) { s.Player.Search.DeepenVisits = int(n) }},
	{Name: "MateNodes", Kind: Int, Min: 0, Max: 1 << 30, Default: "1000",
		Doc:    "moves one mate search beyond mate in 1 may make before it gives up",
		setInt: func(s *Settings, n int64) { s.Player.Eval.MateNodes = int(n) }},
	{Name: "MateHistory", Kind: Choice, Choices: []string{MateHistoryExact.String(), MateHistoryFilter.String()}, Default: MateHistoryExact.String(),
		Doc: "how the mate search knows the game's earlier positions, whose lines it distrusts: exact, or filter (a 1,024-bucket filter alone, which also distrusts some positions that never occurred: the engine before 2026-12-06, to play its records again)",
		setText: func(s *Settings, v string) (err error) {
			s.Player.MateHistory, err = ParseMateHistory(v)
			return err
		}},
	{Name: "EvalCache", Kind: Int, Min: 0, Max: eval.MaxCacheMiB, Default: strconv.Itoa(eval.DefaultCacheMiB),
		Doc:    "MiB of each search thread's cache of the network's value and priors for positions met before (0: off); the search's tree is the same with it, only faster",
		setInt: func(s *Settings, n int64) { s.Player.Eval.CacheMiB = int(n) }},
	{Name: "RootMate", Kind: Int, Min: 0, Max: MaxTsumePlies, Default: "0",
		Doc:    "before each search, a df-pn search for a mate by checks of at most this many plies from the root, within a tenth of the think; a mate found is played (0: off); its two tables take 26 MiB beside USI_Hash",
		setInt: func(s *Settings, n int64) { s.Player.RootMate = int(n) }},
	{Name: "Resign", Kind: Choice, Choices: []string{ResignProven.String(), ResignNever.String()}, Default: ResignProven.String(),
		Doc: "when to resign: proven (when every move is proven lost) or never (a lost game is played to its end, so that game lengths count plies to the end, not to a proven loss)",
		setText: func(s *Settings, v string) (err error) {
			s.Player.Resign, err = ParseResign(v)
			return err
		}},
	{Name: "RepetitionLeaves", Kind: Check, Default: "false",
		Doc: "a position below the root that occurred before is valued by the repetition rule, not by the evaluator",
		setText: func(s *Settings, v string) error {
			s.Player.Search.RepetitionLeaves = v == "true"
			return nil
		}},
	{Name: "MinimaxWeight", Kind: Float, Low: 0, High: 1, Default: "0.3",
		Doc:      "weight of the implicit minimax value of the evaluations against the mean in selection (0: off)",
		setFloat: func(s *Settings, x float64) { s.Player.Search.MinimaxWeight = float32(x) }},
	{Name: "EvalFile", Kind: Text, Default: BuiltinEval,
		Doc: "the static evaluation: " + BuiltinEval + " (the shipped network, datasets/README.md), " + HandSetEval + " (the hand-set terms), or an evaluation file: a network written by train fit (engine/nnue; with a policy head it gives the priors too) or fitted hand-set weights written by train linear (engine/eval); an info string names what loaded (file, family, sizes)",
		setText: func(s *Settings, v string) error {
			switch v {
			case BuiltinEval, "", "<empty>": // USI's spelling of an empty string
				s.Player.Eval.Net, s.Player.Eval.Weights = BuiltinNet(), eval.DefaultWeights()
				s.EvalLoaded = builtinLoaded()
				return nil
			case HandSetEval:
				s.Player.Eval.Net, s.Player.Eval.Weights = nil, eval.DefaultWeights()
				s.EvalLoaded = HandSetEval + ": the hand-set terms, no file"
				return nil
			}
			// Both readers take regular files only, checked by size before they read (a
			// device, a FIFO or a huge file is refused at once), and the network reader
			// checks the magic before the rest: the command loop cannot hang on a load.
			if isWeightsFile(v) { // the linear family: fitted hand-set terms
				w, h, err := eval.ReadWeightsFile(v)
				if err != nil {
					return err
				}
				s.Player.Eval.Weights, s.Player.Eval.Net = w, nil
				s.EvalLoaded = fmt.Sprintf("%s: family %s, features %s (%d weights), generation %d", v, eval.WeightsFamily, eval.WeightsTerms, eval.NumWeights(), h.Generation)
				return nil
			}
			net, err := nnue.ReadFile(v)
			if err != nil {
				return err
			}
			s.Player.Eval.Net = net
			s.EvalLoaded = netLoaded(v, net)
			return nil
		}},
	{Name: "PolicyTemperature", Kind: Float, Low: 0, OpenLow: true, High: math.Inf(1), Default: "1.3",
		Doc:      "softmax temperature of the priors of an evaluation file's policy head (above 1 flatter, below 1 sharper); without a policy head the hand-set priors apply and it does nothing",
		setFloat: func(s *Settings, x float64) { s.Player.Eval.PolicyTemperature = float32(x) }},
	{Name: "Noise", Kind: Float, Low: 0, High: 1, Default: "0",
		Doc:      "weight of Dirichlet noise mixed into the root priors, for self-play (0: none)",
		setFloat: func(s *Settings, x float64) { s.Player.Search.DirichletEpsilon = x }},
	{Name: "TemperaturePlies", Kind: Int, Min: 0, Max: 100000, Default: "0",
		Doc:    "plies from the game's start during which moves are drawn in proportion to visits, for self-play",
		setInt: func(s *Settings, n int64) { s.Player.Search.TemperaturePlies = int(n) }},
	{Name: "GumbelMoves", Kind: Int, Min: 0, Max: 1000, Default: "0",
		Doc:    "for self-play: moves a Gumbel root samples and halves the playouts over (Danihelka et al. 2022), in place of Noise and TemperaturePlies; needs a playout budget (a search on time keeps PUCT) and starts a fresh tree each move (0: PUCT)",
		setInt: func(s *Settings, n int64) { s.Player.Search.GumbelMoves = int(n) }},
	{Name: "GumbelScale", Kind: Float, Low: 0, OpenLow: true, High: math.Inf(1), Default: "1",
		Doc:      "c_scale of a Gumbel root: how far searched values outweigh the priors, σ = (50 + max visits)·c_scale·q rescaled to [0, 1] (mctx's value_scale; 0.1 there gives softer policy targets but played worse here at 32-64 playouts)",
		setFloat: func(s *Settings, x float64) { s.Player.Search.GumbelScale = float32(x) }},
	{Name: "ForcedPlayouts", Kind: Float, Low: 0, High: math.Inf(1), Default: "0",
		Doc:      "for self-play with Noise: KataGo's k, a root move gets at least sqrt(k*prior*visits) visits, pruned from the policy target again (0: off; KataGo uses 2)",
		setFloat: func(s *Settings, x float64) { s.Player.Search.ForcedPlayouts = float32(x) }},
	{Name: "MoveOverhead", Kind: Int, Min: 0, Max: 10000, Default: strconv.Itoa(defaultOverheadMS),
		Doc:    "milliseconds held back from every search on a clock (and from a USI movetime) for the engine's own delays: ending the search, answering, the pipe to the GUI; the search's time counts from the moment the go is read",
		setInt: func(s *Settings, ms int64) { s.MoveOverhead = time.Duration(ms) * time.Millisecond }},
	{Name: "ManageTime", Kind: Check, Default: "false",
		Doc: "on a clock, stop early when the best move is settled and think up to three times longer while it is not (docs/tactics.md)",
		setText: func(s *Settings, v string) error {
			s.ManageTime = v == "true"
			return nil
		}},
	{Name: "Repetition", Kind: Choice, PerGame: true,
		Choices: []string{minishogi.FirstMoverLoses.String(), minishogi.GoteWins.String(), minishogi.RepetitionDraws.String()},
		Default: minishogi.FirstMoverLoses.String(),
		Doc:     "who loses a fourfold repetition without perpetual check (docs/rules.md)",
		setText: func(s *Settings, v string) (err error) {
			s.Rules.Repetition, err = minishogi.ParseRepetitionRule(v)
			return err
		}},
	{Name: "MaxPlies", Kind: Int, Min: 0, Max: 100000, Default: "0", PerGame: true,
		Doc:    "play limit after which a game is a draw (0: none)",
		setInt: func(s *Settings, n int64) { s.Rules.MaxPlies = int(n) }},
	{Name: "USI_Ponder", Kind: Check, Default: "false",
		Doc: "the GUI may ponder: bestmove then names the reply to ponder on (the time management is the same)",
		setText: func(s *Settings, v string) error {
			s.Ponder = v == "true"
			return nil
		}},
}

// netLoaded says what network EvalFile loaded from name: family, features, sizes (as train
// info writes them) and generation.
func netLoaded(name string, n *nnue.Net) string {
	h := n.Header
	return fmt.Sprintf("%s: family %s, features %s (%d inputs), sizes %d×2 → %d → 1, generation %d",
		name, h.Family, h.FeatureSet, nnue.NumFeatures, h.Hidden1, h.Hidden2, h.Generation)
}

func builtinLoaded() string {
	return netLoaded(BuiltinEval+" ("+evaluation.BuiltinName+")", BuiltinNet())
}

// isWeightsFile reports whether the file at path starts as a linear evaluation file;
// anything else (a missing file, or one that is not a regular file, too) is left to the
// network reader to judge. Each reader checks the size against its own limit.
func isWeightsFile(path string) bool {
	f, err := bounded.Open(path, math.MaxInt64) // a regular file: opening a FIFO would wait
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(eval.WeightsMagic))
	n, _ := io.ReadFull(f, head)
	return eval.IsWeightsFile(head[:n])
}

// checkHash checks a hash of mb MiB against the memory this machine has available, before
// it is allocated: Go cannot recover from a failed allocation (sysmem.Check). Where the
// available memory is unknown (not Linux) every size passes.
func checkHash(mb int64) error { return sysmem.Check(uint64(mb) << 20) }

// AllSettings returns the table of settings, in the order the USI engine announces them.
func AllSettings() []Setting { return append([]Setting(nil), settings...) }

// FindSetting returns the setting called name (or one of its aliases), matched without
// regard to case.
func FindSetting(name string) (Setting, bool) {
	for _, s := range settings {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
		for _, a := range s.Aliases {
			if strings.EqualFold(a, name) {
				return s, true
			}
		}
	}
	return Setting{}, false
}

// Set checks value and applies it to st; st is unchanged on error. Errors read "engine:
// option NAME: ...", naming the value and what was wanted.
func (s Setting) Set(st *Settings, value string) error {
	bad := func() error {
		return fmt.Errorf("engine: option %s: %q is not %s", s.Name, value, s.Range())
	}
	switch s.Kind {
	case Int:
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < s.Min || n > s.Max {
			return bad()
		}
		if s.checkInt != nil {
			if err := s.checkInt(n); err != nil {
				return fmt.Errorf("engine: option %s: %d: %w", s.Name, n, err)
			}
		}
		s.setInt(st, n)
	case Float:
		x, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < s.Low || x > s.High || s.OpenLow && x == s.Low {
			return bad()
		}
		if s.High == math.Inf(1) && x > math.MaxFloat32 {
			return bad() // the search keeps these as float32
		}
		s.setFloat(st, x)
	case Choice, Check:
		v, ok := s.choice(value)
		if !ok {
			return bad()
		}
		return s.apply(st, v)
	case Text:
		return s.apply(st, value)
	}
	return nil
}

// apply runs setText on a copy so that a failure leaves st as it was.
func (s Setting) apply(st *Settings, v string) error {
	c := *st
	if err := s.setText(&c, v); err != nil {
		return fmt.Errorf("engine: option %s: %w", s.Name, err)
	}
	*st = c
	return nil
}

// choice returns the Choices entry (true or false for a Check) equal to v without regard to
// case.
func (s Setting) choice(v string) (string, bool) {
	choices := s.Choices
	if s.Kind == Check {
		choices = []string{"true", "false"}
	}
	for _, c := range choices {
		if strings.EqualFold(c, strings.TrimSpace(v)) {
			return c, true
		}
	}
	return "", false
}

// Range says in words which values the setting takes: "an integer from 1 to 1024",
// "a number above 0", "one of auto, on, off".
func (s Setting) Range() string {
	switch s.Kind {
	case Int:
		return fmt.Sprintf("an integer from %d to %d", s.Min, s.Max)
	case Float:
		low := "from " + fmtNumber(s.Low)
		if s.OpenLow {
			low = "above " + fmtNumber(s.Low)
		}
		if math.IsInf(s.High, 1) {
			if s.OpenLow {
				return "a number " + low
			}
			return "a number of " + fmtNumber(s.Low) + " or more"
		}
		return "a number " + low + " to " + fmtNumber(s.High)
	case Choice:
		return "one of " + strings.Join(s.Choices, ", ")
	case Check:
		return "true or false"
	}
	return "a text"
}

func fmtNumber(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// USIOption is the setting as the USI engine announces it.
func (s Setting) USIOption() usi.Option {
	o := usi.Option{Name: s.Name, Default: s.Default}
	switch s.Kind {
	case Int:
		o.Type, o.Min, o.Max = "spin", s.Min, s.Max
	case Choice:
		o.Type, o.Vars = "combo", s.Choices
	case Check:
		o.Type = "check"
	default:
		o.Type = "string"
	}
	return o
}

// Value is value as a record stores it: an int64 for an Int, a float64 for a Float, the
// text otherwise. value must have passed Set.
func (s Setting) Value(value string) any {
	switch s.Kind {
	case Int:
		n, _ := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		return n
	case Float:
		x, _ := strconv.ParseFloat(strings.TrimSpace(value), 64)
		return x
	case Choice, Check:
		v, _ := s.choice(value)
		return v
	}
	return value
}

// IsDefault reports whether value is the setting's default.
func (s Setting) IsDefault(value string) bool {
	return reflect.DeepEqual(s.Value(value), s.Value(s.Default))
}

// Key is the setting's name in snake case, the key of a record's player config:
// Threads → threads, USI_Hash → usi_hash, CPuct → c_puct, FPUReduction → fpu_reduction.
func (s Setting) Key() string {
	r := []rune(s.Name)
	var b strings.Builder
	for i, c := range r {
		upper := unicode.IsUpper(c)
		// A word starts at an upper-case letter after a lower-case one, or at the last
		// upper-case letter of a run that a lower-case letter follows (FPU|Reduction).
		if i > 0 && upper && r[i-1] != '_' && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}
