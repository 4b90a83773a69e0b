package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// OpeningSearch configures GenerateOpenings: random walks from the start,
// kept where a judge engine finds the position balanced.
type OpeningSearch struct {
	Count              int // openings to keep
	MinPlies, MaxPlies int // a walk's length is drawn uniformly from [MinPlies, MaxPlies]
	// Judge is a USI engine with a depth or node limit and one thread, so
	// that its verdicts are a function of the positions (each block of
	// JudgeBlock positions is judged by a new process of it).
	Judge PlayerSpec
	// Margin keeps a position whose score for the side to move is within
	// ±Margin centipawns; a mate score is never kept.
	Margin   int
	Seed     uint64
	MaxWalks int // give up after this many walks; 0 means 100·Count
	// Parallel is how many judges run at once (0 or 1: one). The openings do
	// not depend on it.
	Parallel int
	// Journal, if set, is a file of the verdicts given so far, one line each,
	// appended to as judges answer and read back at the start: a search that
	// was killed resumes where it stopped, judging only what it had not.
	Journal string
	// Progress, if set, is called after each walk judged.
	Progress func(kept, walks int)
}

// JudgedOpening is a kept position with the walk that reached it and the
// judge's score for the side to move.
type JudgedOpening struct {
	SFEN    string
	Moves   []string
	ScoreCP int
	Walk    int // the walk's number
	Block   int // the block of JudgeBlock positions it was judged in
}

// verdict is what the judge said of a walk's position: a score in
// centipawns, or a mate, or nothing usable.
type verdict struct {
	cp   int
	mate bool
	none bool
}

func (v verdict) balanced(margin int) bool { return !v.mate && !v.none && abs(v.cp) <= margin }

// candidate is a walk whose position is judged: the walk's number, its moves
// and the position it reached, and its number among the candidates.
type candidate struct {
	walk, index int
	line        []string
	pos         minishogi.Position
	key         string
}

// walks makes the walks in order and calls yield with each that is judged,
// until it returns false (walks then returns false) or maxWalks are made.
func (o OpeningSearch) walks(maxWalks int, yield func(candidate) bool) bool {
	start := minishogi.StartPosition()
	seen := map[string]bool{}
	var moves []minishogi.Move
	index := 0
	for walk := 0; walk < maxWalks; walk++ {
		rng := rand.New(rand.NewPCG(GameSeed(o.Seed, walk), 0x6f70656e)) // "open"
		g := minishogi.NewGame(start, minishogi.GameOptions{})
		var line []string
		plies := o.MinPlies + rng.IntN(o.MaxPlies-o.MinPlies+1)
		for range plies {
			if g.Result().Over() {
				break
			}
			pos := g.Position()
			moves = pos.LegalMoves(moves[:0])
			m := moves[rng.IntN(len(moves))]
			line = append(line, m.String())
			g.Play(m)
		}
		pos := g.Position()
		key := positionKey(pos)
		if g.Result().Over() || seen[key] {
			continue
		}
		seen[key] = true
		if !yield(candidate{walk: walk, index: index, line: line, pos: pos, key: key}) {
			return false
		}
		index++
	}
	return true
}

// Block is one block of judged positions, judged again (OpeningSearch.JudgeBlock).
type Block []JudgedPosition

// JudgedPosition is a position a walk reached and the judge's verdict on it.
type JudgedPosition struct {
	JudgedOpening
	Mate bool // the judge found a mate (ScoreCP is then 0)
	None bool // the judge gave no score
}

// JudgeBlock judges block number block of a search again, as GenerateOpenings
// judged it (the same positions, in order, by one new process of the judge),
// so that anyone can check a book's verdicts.
func (o OpeningSearch) JudgeBlock(ctx context.Context, block int) (Block, error) {
	maxWalks := o.MaxWalks
	if maxWalks == 0 {
		maxWalks = 100 * o.Count
	}
	var cands []candidate
	o.walks(maxWalks, func(c candidate) bool {
		if c.index/JudgeBlock == block {
			cands = append(cands, c)
		}
		return c.index < (block+1)*JudgeBlock-1
	})
	if len(cands) == 0 {
		return nil, fmt.Errorf("selfplay: openings: no block %d within %d walks", block, maxWalks)
	}
	lim := usi.GoParams{Nodes: o.Judge.Limits.Nodes, Depth: o.Judge.Limits.Depth}
	vs, err := judgeBlock(ctx, o.Judge, cands, lim)
	if err != nil {
		return nil, err
	}
	out := make(Block, len(cands))
	for i, c := range cands {
		out[i] = JudgedPosition{JudgedOpening: c.opening(vs[i]), Mate: vs[i].mate, None: vs[i].none}
	}
	return out, nil
}

// opening is the candidate as an opening with verdict v.
func (c candidate) opening(v verdict) JudgedOpening {
	return JudgedOpening{SFEN: c.pos.SFEN(), Moves: c.line, ScoreCP: v.cp, Walk: c.walk, Block: c.index / JudgeBlock}
}

// GenerateOpenings makes a balanced suite of openings. Walk i draws its
// moves uniformly among the legal ones with a generator seeded from
// GameSeed(Seed, i); a walk that ends the game, or reaches a position an
// earlier walk reached (the same board, hands and side to move, whatever
// the move order), is dropped unjudged. The openings are the first Count
// walks in walk order that the judge finds balanced, so the result does not
// depend on Parallel or on a resume, and a smaller Count gives a prefix of a
// larger one's openings.
func GenerateOpenings(ctx context.Context, o OpeningSearch) ([]JudgedOpening, error) {
	switch {
	case o.Count < 1:
		return nil, fmt.Errorf("selfplay: openings: count %d; need at least 1", o.Count)
	case o.MinPlies < 1 || o.MaxPlies < o.MinPlies:
		return nil, fmt.Errorf("selfplay: openings: plies %d-%d; need 1 <= min <= max", o.MinPlies, o.MaxPlies)
	case o.Margin < 0:
		return nil, fmt.Errorf("selfplay: openings: negative margin %d", o.Margin)
	case o.Parallel < 0:
		return nil, fmt.Errorf("selfplay: openings: negative parallel %d", o.Parallel)
	case o.Judge.Kind != record.KindUSI:
		return nil, fmt.Errorf("selfplay: openings: the judge must be a USI engine, which scores in centipawns")
	case o.Judge.Limits.Clock() || o.Judge.Limits.MoveTime > 0:
		return nil, fmt.Errorf("selfplay: openings: the judge needs a depth or node limit, not a time: a timed verdict does not repeat")
	}
	if err := o.Judge.Validate(); err != nil {
		return nil, fmt.Errorf("selfplay: openings: judge: %w", err)
	}
	maxWalks := o.MaxWalks
	if maxWalks == 0 {
		maxWalks = 100 * o.Count
	}
	if err := o.Judge.CheckEngine(ctx); err != nil {
		return nil, err // names the engine
	}
	known := map[int]journalEntry{}
	var journal *os.File
	if o.Journal != "" {
		var err error
		var whole int64
		if known, whole, err = readJournal(o.Journal); err != nil {
			return nil, err
		}
		if journal, err = os.OpenFile(o.Journal, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			return nil, fmt.Errorf("selfplay: openings: journal: %w", err)
		}
		// A line cut by a kill goes before anything is appended.
		if err := journal.Truncate(whole); err != nil {
			journal.Close()
			return nil, fmt.Errorf("selfplay: openings: journal: %w", err)
		}
		defer journal.Close()
	}
	workers := max(o.Parallel, 1)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }() // no judge outlives the search

	// The walks, in order, skipping those that end the game or repeat a
	// position: cheap, so one goroutine makes them all.
	candidates := make(chan candidate, 4*workers)
	walksDone := make(chan int, 1) // the number of walks made, when they ran out
	go func() {
		defer close(candidates)
		if o.walks(maxWalks, func(c candidate) bool {
			select {
			case candidates <- c:
				return true
			case <-ctx.Done():
				return false
			}
		}) {
			walksDone <- maxWalks
		}
	}()

	// The judges: each candidate in order gets a slot for its verdict, filled
	// by whichever judge takes its block.
	type judged struct {
		c   candidate
		v   verdict
		err error
	}
	type block struct {
		cands []candidate
		slots []chan judged
	}
	order := make(chan chan judged, 4*workers*JudgeBlock) // the slots, in walk order
	work := make(chan block)
	go func() {
		defer close(order)
		defer close(work)
		var b block
		flush := func() bool {
			if len(b.cands) == 0 {
				return true
			}
			if !journaled(known, b.cands) {
				select {
				case work <- b:
				case <-ctx.Done():
					return false
				}
			} else {
				for i, c := range b.cands {
					b.slots[i] <- judged{c: c, v: known[c.walk].v}
				}
			}
			for _, slot := range b.slots {
				select {
				case order <- slot:
				case <-ctx.Done():
					return false
				}
			}
			b = block{}
			return true
		}
		for c := range candidates {
			if e, ok := known[c.walk]; ok && e.key != c.key {
				slot := make(chan judged, 1)
				slot <- judged{c: c, err: fmt.Errorf("selfplay: openings: journal %s: walk %d reached %s, not %s: the journal is of other flags", o.Journal, c.walk, e.key, c.key)}
				order <- slot // after the blocks before it: the collector stops here
				return
			}
			b.cands, b.slots = append(b.cands, c), append(b.slots, make(chan judged, 1))
			if len(b.cands) == JudgeBlock && !flush() {
				return
			}
		}
		flush()
	}()
	lim := usi.GoParams{Nodes: o.Judge.Limits.Nodes, Depth: o.Judge.Limits.Depth}
	var journalMu sync.Mutex
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				vs, err := judgeBlock(ctx, o.Judge, b.cands, lim)
				if err == nil && journal != nil {
					journalMu.Lock()
					var text strings.Builder
					for i, c := range b.cands {
						fmt.Fprintf(&text, "%d\t%s\t%s\n", c.walk, c.key, vs[i])
					}
					_, err = journal.WriteString(text.String())
					journalMu.Unlock()
					if err != nil {
						err = fmt.Errorf("selfplay: openings: journal: %w", err)
					}
				}
				for i, c := range b.cands {
					j := judged{c: c, err: err}
					if err == nil {
						j.v = vs[i]
					}
					b.slots[i] <- j
				}
			}
		}()
	}
	var kept []JudgedOpening
	walks := 0
	for slot := range order {
		j := <-slot
		if j.err != nil {
			if err := ctx.Err(); err != nil {
				return kept, err
			}
			return kept, j.err
		}
		walks = j.c.walk + 1
		if j.v.balanced(o.Margin) {
			kept = append(kept, j.c.opening(j.v))
		}
		if o.Progress != nil {
			o.Progress(len(kept), walks)
		}
		if len(kept) == o.Count {
			return kept, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return kept, err
	}
	select {
	case walks = <-walksDone:
	default:
	}
	return kept, fmt.Errorf("selfplay: openings: %d walks kept only %d of %d openings; widen the margin or shorten the walks", walks, len(kept), o.Count)
}

// verdictOf reads a judge's answer.
func verdictOf(d Decision) verdict {
	switch {
	case d.Stats == nil:
		return verdict{none: true}
	case d.Stats.Mate != nil:
		return verdict{mate: true}
	case d.Stats.ScoreCP != nil:
		return verdict{cp: *d.Stats.ScoreCP}
	}
	return verdict{none: true}
}

// String is the verdict as the journal writes it: "cp N", "mate" or "none".
func (v verdict) String() string {
	switch {
	case v.mate:
		return "mate"
	case v.none:
		return "none"
	}
	return "cp " + strconv.Itoa(v.cp)
}

// journalEntry is one line of a journal: the position a walk reached and its
// verdict.
type journalEntry struct {
	key string
	v   verdict
}

// readJournal reads the verdicts of a journal (none if the file does not
// exist) and the length of its whole lines. A last line without its newline
// was cut by a kill and is left out (the caller cuts it off the file before it
// appends, or the first new line would be glued to it); any other bad line is
// an error naming it.
func readJournal(path string) (map[int]journalEntry, int64, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[int]journalEntry{}, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("selfplay: openings: journal: %w", err)
	}
	whole := int64(strings.LastIndexByte(string(data), '\n') + 1)
	known := map[int]journalEntry{}
	lines := strings.Split(string(data), "\n")
	lines = lines[:len(lines)-1] // after the last newline: empty, or a line a kill cut
	for i, line := range lines {
		f := strings.Split(line, "\t")
		walk, err := strconv.Atoi(f[0])
		if len(f) != 3 || err != nil || walk < 0 {
			return nil, 0, fmt.Errorf("selfplay: openings: journal %s:%d: want WALK<tab>POSITION<tab>VERDICT", path, i+1)
		}
		var v verdict
		switch text := f[2]; {
		case text == "mate":
			v.mate = true
		case text == "none":
			v.none = true
		case strings.HasPrefix(text, "cp "):
			if v.cp, err = strconv.Atoi(text[3:]); err != nil {
				return nil, 0, fmt.Errorf("selfplay: openings: journal %s:%d: score %q", path, i+1, text)
			}
		default:
			return nil, 0, fmt.Errorf("selfplay: openings: journal %s:%d: verdict %q is not cp N, mate or none", path, i+1, text)
		}
		known[walk] = journalEntry{key: f[1], v: v}
	}
	return known, whole, nil
}

// JudgeBlock is how many positions one process of the judge judges, in walk
// order, before it is replaced by a new one. A judge's verdict depends on what
// the process searched before, even after usinewgame (Fairy-Stockfish 11.1
// scored 11 of 40 positions differently at depth 12 in one process than each
// in a new process), so the verdicts are a function of the flags only if each
// block starts a new process; starting one costs some tenths of a second of
// CPU, which a block of 20 spreads thin.
const JudgeBlock = 20

// journaled reports whether the journal holds a verdict for every candidate
// of a block: a block a kill cut short is judged again from its start, by a
// new process, so that its verdicts are those of an unbroken run.
func journaled(known map[int]journalEntry, cands []candidate) bool {
	for _, c := range cands {
		if _, ok := known[c.walk]; !ok {
			return false
		}
	}
	return true
}

// judgeBlock asks a new process of the judge for its verdicts on a block of
// positions, in order, with usinewgame before each. A judge that fails (on a
// loaded machine an engine can miss a deadline) is replaced and the whole
// block asked again, twice at most, so that every verdict comes from one
// unbroken process.
func judgeBlock(ctx context.Context, spec PlayerSpec, cands []candidate, lim usi.GoParams) ([]verdict, error) {
	var err error
	for range 3 {
		var vs []verdict
		if vs, err = judgeOnce(ctx, spec, cands, lim); err == nil {
			return vs, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return nil, fmt.Errorf("selfplay: openings: judge on %s: %w", cands[0].pos.SFEN(), err)
}

func judgeOnce(ctx context.Context, spec PlayerSpec, cands []candidate, lim usi.GoParams) ([]verdict, error) {
	judge, err := newUSIPlayer(ctx, spec) // sends the first usinewgame
	if err != nil {
		return nil, err
	}
	defer judge.Close()
	vs := make([]verdict, len(cands))
	for i, c := range cands {
		if i > 0 {
			if err := judge.client.NewGame(); err != nil {
				return nil, err
			}
			if err := judge.client.IsReady(ctx); err != nil {
				return nil, err
			}
		}
		d, err := judge.Move(ctx, minishogi.NewGame(c.pos, minishogi.GameOptions{}), lim)
		if err != nil {
			return nil, err
		}
		vs[i] = verdictOf(d)
	}
	return vs, nil
}

// positionKey is an SFEN without its move number: two walks that reach one
// board, hands and side to move reach one opening.
func positionKey(pos minishogi.Position) string {
	f := strings.Fields(pos.SFEN())
	return strings.Join(f[:3], " ")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// WriteOpenings writes an openings file that ReadOpenings reads: the
// header lines as '#' comments, then one SFEN a line with, after a '#', the
// walk's moves, the judge's score, the walk's number and the block it was
// judged in.
func WriteOpenings(w io.Writer, header []string, openings []JudgedOpening) error {
	var b strings.Builder
	for _, h := range header {
		if strings.ContainsAny(h, "\n\r") {
			return errors.New("selfplay: openings: a header line holds a line break")
		}
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, o := range openings {
		fmt.Fprintf(&b, "%s # %s, cp %d, walk %d, block %d\n", o.SFEN, strings.Join(o.Moves, " "), o.ScoreCP, o.Walk, o.Block)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
