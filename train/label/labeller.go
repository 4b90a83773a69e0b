package label

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/labels"
	"github.com/shogilab/shogilab/usi"
)

// Labeller is the engine that labels positions: a usi player spec
// (selfplay.ParsePlayerSpec) with a depth or node limit and nothing timed,
// so that a label is a function of the position and what the process
// searched before it (see Run, Block).
type Labeller struct {
	Spec selfplay.PlayerSpec
	// KeepState sends usinewgame before a block's first position only, so
	// that the engine keeps its hash and histories from one position to the
	// next: a label then depends on the block's earlier positions too. At
	// depth 8 Fairy-Stockfish 11.1 spends about half its CPU a position in
	// usinewgame (clearing its tables), and its moves agree with a depth-13
	// search about as often either way (datasets/README.md, "The labels
	// table").
	KeepState bool
}

// ParseLabeller reads a labeller's spec, as usi:COMMAND,depth=N,option.NAME=VALUE...
func ParseLabeller(text string) (Labeller, error) {
	s, err := selfplay.ParsePlayerSpec(text, selfplay.PlayerSpec{})
	if err != nil {
		return Labeller{}, fmt.Errorf("label: %w", err)
	}
	l := s.Limits
	switch {
	case s.Kind != record.KindUSI:
		return Labeller{}, fmt.Errorf("label: labeller %q is not a USI engine (usi:COMMAND,depth=N,...)", text)
	case l.MoveTime > 0 || l.Clock():
		return Labeller{}, fmt.Errorf("label: labeller %q: a timed search gives labels that depend on the machine's load; give depth or nodes", text)
	case l.Depth == 0 && l.Nodes == 0:
		return Labeller{}, fmt.Errorf("label: labeller %q: give depth or nodes", text)
	}
	return Labeller{Spec: s}, nil
}

// Go is the labeller's search limit.
func (l Labeller) Go() usi.GoParams {
	return usi.GoParams{Depth: l.Spec.Limits.Depth, Nodes: l.Spec.Limits.Nodes}
}

// String is the spec without the engine's directory, for provenance: the
// command's base name, then the limits and options as given.
func (l Labeller) String() string {
	s := l.Spec
	argv := append([]string{filepath.Base(s.Argv[0])}, s.Argv[1:]...)
	parts := []string{"usi:" + strings.Join(argv, " ")}
	if s.Limits.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth=%d", s.Limits.Depth))
	}
	if s.Limits.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes=%d", s.Limits.Nodes))
	}
	if s.Name != "" {
		parts = append(parts, "name="+s.Name)
	}
	for _, o := range s.Options {
		parts = append(parts, "option."+o.Name+"="+o.Value)
	}
	return strings.Join(parts, ",")
}

// Identify starts the engine once and returns its `id name` and the
// options a labelling process sets ("Name=Value", UCI_Variant first when
// the engine has it): a command that is not a USI engine, or an option it
// does not have, is then one error before any work.
func (l Labeller) Identify(ctx context.Context) (name string, options []string, err error) {
	c, info, err := l.Spec.StartUSI(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("label: %w", err)
	}
	defer c.Close()
	if opt, ok := info.Option("UCI_Variant"); ok {
		options = append(options, opt.Name+"=minishogi")
	}
	for _, o := range l.Spec.Options {
		options = append(options, o.Name+"="+o.Value)
	}
	return info.Name, options, nil
}

// searchLimit is the longest one search may take before the engine counts
// as hung: far beyond any depth a labelling run affords.
const searchLimit = 5 * time.Minute

// labelBlock labels positions, in order, with one new process of the
// engine, `usinewgame` and `isready` before each (before the first only
// with KeepState), calling fn with each row (Index from first). A process
// is used for one block only: Fairy-Stockfish 11.1's answer depends on what
// the process searched before, even after usinewgame (selfplay.JudgeBlock),
// so rows are a function of the block's positions only when every block
// starts a new process.
func (l Labeller) labelBlock(ctx context.Context, positions []Position, first int64, fn func(labels.Row) error) error {
	c, _, err := l.Spec.StartUSI(ctx) // sends the first usinewgame
	if err != nil {
		return err
	}
	defer c.Close()
	for i, p := range positions {
		if i > 0 && !l.KeepState {
			if err := c.NewGame(); err != nil {
				return err
			}
			if err := c.IsReady(ctx); err != nil {
				return err
			}
		}
		row, err := l.label(ctx, c, p)
		if err != nil {
			return err
		}
		row.Index = first + int64(i)
		if err := fn(row); err != nil {
			return err
		}
	}
	return nil
}

// label searches one position.
func (l Labeller) label(ctx context.Context, c *usi.Client, p Position) (labels.Row, error) {
	pos, err := minishogi.ParseSFEN(p.SFEN)
	if err != nil {
		return labels.Row{}, fmt.Errorf("label: %w", err)
	}
	// The SFEN, never startpos: an engine of many variants may read startpos as another's.
	if err := c.Position(p.SFEN, nil); err != nil {
		return labels.Row{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, searchLimit)
	defer cancel()
	var last usi.SearchInfo
	bm, err := c.Go(ctx, l.Go(), func(in usi.SearchInfo) {
		if in.HasScore() {
			last = in
		}
	})
	if err != nil {
		return labels.Row{}, err
	}
	if _, err := pos.ParseMove(bm.Move); err != nil {
		return labels.Row{}, fmt.Errorf("label: %s answered bestmove %q in %s: %w", c.Name(), bm.Move, p.SFEN, err)
	}
	if !last.HasScore() {
		return labels.Row{}, fmt.Errorf("label: %s gave no score for %s", c.Name(), p.SFEN)
	}
	st := selfplay.USIStats(last)
	row := labels.Row{
		SFEN: p.SFEN, Side: pos.SideToMove().String(), Move: bm.Move,
		ScoreCP: st.ScoreCP, Mate: st.Mate, Value: st.Value, Depth: last.Depth, Nodes: last.Nodes,
		Source: p.Source, Occurrences: p.Occurrences,
	}
	if p.HasScore() {
		s := p.Score
		row.Score = &s
	}
	if p.GameID >= 0 {
		id, ply := p.GameID, p.Ply
		row.GameID, row.Ply = &id, &ply
	}
	if p.Line >= 0 {
		line := p.Line
		row.Line = &line
	}
	return row, nil
}
