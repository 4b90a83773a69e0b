package label

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// Position is one position to label, with where it was first found.
type Position struct {
	SFEN string // as first found, with that occurrence's move number
	// Source is the file it was first found in, as Collect's Name gave it.
	Source string
	// GameID and Ply say where in a record file it was first found: the
	// game's id and the moves played before it. Both are -1 for a position
	// of an SFEN file.
	GameID int64
	Ply    int
	// Line is the 1-based line of an SFEN file it was first found on, or -1
	// for a position of a record file.
	Line int
	// Score is the outcome of the game it was first found in for the side to
	// move, as the positions table's score column (1 win, 0.5 draw, 0 loss),
	// or NaN when there is no game (an SFEN file).
	Score float64
	// Occurrences counts every time the position was found in the sources,
	// in games and SFEN files alike, before any sample.
	Occurrences int
}

// HasScore reports whether the position came from a game with a result.
func (p Position) HasScore() bool { return !math.IsNaN(p.Score) }

// Sources are where Collect finds positions.
type Sources struct {
	// Files are record files (JSON Lines, plain or gzip) or games tables
	// (.parquet), read by table.NewReader, and SFEN files (a name ending
	// in .sfen or .sfen.gz), read by selfplay.ReadOpenings, in order.
	Files []string
	// Name is the name a file goes by in Position.Source; nil keeps the
	// path as given.
	Name func(path string) string
	// Sample, in (0, 1], keeps each distinct position with this probability,
	// by a hash of the position and Seed alone: the same positions whatever
	// the order or the other files. 0 or 1 keeps all.
	Sample float64
	Seed   uint64
	// Limit, when positive, keeps the first Limit positions of the list.
	Limit int
	// Context, if not nil, stops the reading when cancelled.
	Context context.Context
}

// CollectStats counts what Collect read.
type CollectStats struct {
	Games     int // games read from record files
	Lines     int // positions read from SFEN files
	Found     int // positions found, duplicates and positions without a move included
	Distinct  int // distinct positions with a legal move, before the sample
	NoMove    int // positions found whose side to move has no legal move (not labelled)
	Sampled   int // distinct positions the sample kept
	Positions int // positions in the list: Sampled, cut to Limit
}

// IsSFENFile reports whether path is read as an SFEN file, by its name.
func IsSFENFile(path string) bool {
	return strings.HasSuffix(path, ".sfen") || strings.HasSuffix(path, ".sfen.gz")
}

// Collect returns the distinct positions of the sources in a deterministic
// order: file after file in the order given, in a record file game after
// game and ply after ply (the start, the position before each move, and the
// position after the last move), in an SFEN file line after line. A
// position is its board, hands and side to move (minishogi.Code), not its
// move number: one found again, in any file, counts as an occurrence of the
// first. A position whose side to move has no legal move (the final
// position of a game won by checkmate or stalemate) is counted and left
// out: it has no move to learn and its value is the rules'.
func Collect(src Sources) ([]Position, CollectStats, error) {
	var st CollectStats
	if !(src.Sample >= 0 && src.Sample <= 1) {
		return nil, st, fmt.Errorf("label: sample %v is not in [0, 1]", src.Sample)
	}
	name := src.Name
	if name == nil {
		name = func(p string) string { return p }
	}
	ctx := src.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var list []Position
	seen := map[minishogi.Code]int{} // index in list
	add := func(pos *minishogi.Position, p Position) {
		st.Found++
		if !pos.HasLegalMove() {
			st.NoMove++
			return
		}
		code := pos.Code()
		if i, ok := seen[code]; ok {
			list[i].Occurrences++
			return
		}
		seen[code] = len(list)
		p.SFEN, p.Occurrences = pos.SFEN(), 1
		list = append(list, p)
	}
	var records []string
	flush := func() error {
		if len(records) == 0 {
			return nil
		}
		err := collectRecords(ctx, records, name, add, &st)
		records = records[:0]
		return err
	}
	for _, path := range src.Files {
		if !IsSFENFile(path) {
			records = append(records, path)
			continue
		}
		if err := flush(); err != nil {
			return nil, st, err
		}
		openings, err := selfplay.ReadOpenings(path)
		if err != nil {
			return nil, st, fmt.Errorf("label: %w", err)
		}
		for _, o := range openings {
			pos, err := minishogi.ParseSFEN(o.SFEN)
			if err != nil { // ReadOpenings checked it
				return nil, st, fmt.Errorf("label: %s: %w", path, err)
			}
			var line int
			fmt.Sscanf(o.Name, "opening:%d", &line)
			st.Lines++
			add(&pos, Position{Source: name(path), GameID: -1, Ply: -1, Line: line, Score: math.NaN()})
		}
	}
	if err := flush(); err != nil {
		return nil, st, err
	}
	st.Distinct = len(list)
	if src.Sample > 0 && src.Sample < 1 {
		kept := list[:0]
		for _, p := range list {
			if sampled(p.SFEN, src.Seed, src.Sample) {
				kept = append(kept, p)
			}
		}
		list = kept
	}
	st.Sampled = len(list)
	if src.Limit > 0 && len(list) > src.Limit {
		list = list[:src.Limit]
	}
	st.Positions = len(list)
	return list, st, nil
}

// sampled decides whether the sample keeps the position with this SFEN: by
// FNV-1a (64 bits) of the seed and the SFEN without its move number, mixed
// by MurmurHash3's finaliser, below fraction of the range. A hash of its own
// rather than maphash: a sample must be the same in every process and Go
// release.
func sampled(sfen string, seed uint64, fraction float64) bool {
	key := sfenKey(sfen)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h := uint64(14695981039346656037)
	for _, c := range append(b[:], key...) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	// Mix the last bytes into the high bits, which the comparison reads.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return float64(h>>11)/(1<<53) < fraction
}

// sfenKey is an SFEN without its move number: board, side to move, hands.
func sfenKey(sfen string) string {
	f := strings.Fields(sfen)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

// collectRecords adds the positions of record files and games tables.
func collectRecords(ctx context.Context, paths []string, name func(string) string, add func(*minishogi.Position, Position), st *CollectStats) error {
	r := table.NewReader(paths, table.Options{
		Fields:  record.FieldID | record.FieldVariant | record.FieldStart | record.FieldMoves | record.FieldResult,
		Context: ctx,
	})
	defer r.Close()
	for {
		g, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("label: %w", err)
		}
		file, _ := r.Position()
		if g.Variant != "minishogi" {
			return fmt.Errorf("label: %s: game %d: variant %q: only minishogi positions are labelled", file, g.ID, g.Variant)
		}
		pos, err := minishogi.ParseSFEN(g.Start)
		if err != nil {
			return fmt.Errorf("label: %s: game %d: %w", file, g.ID, err)
		}
		st.Games++
		for ply := 0; ; ply++ {
			add(&pos, Position{Source: name(file), GameID: int64(g.ID), Ply: ply, Line: -1, Score: moverScore(g.Result, pos.SideToMove())})
			if ply == len(g.Moves) {
				break
			}
			m, err := pos.ParseMove(g.Moves[ply])
			if err != nil {
				return fmt.Errorf("label: %s: game %d: moves[%d]: %w", file, g.ID, ply, err)
			}
			pos.MakeMove(m)
		}
	}
}

// moverScore is a game's result for side as the positions table has it
// (datasets/README.md): 1 if it won, 0.5 for a draw, 0 if it lost.
func moverScore(result record.Result, side minishogi.Color) float64 {
	switch {
	case result == record.Draw:
		return 0.5
	case string(result) == side.String():
		return 1
	case result == record.Sente || result == record.Gote:
		return 0
	}
	return math.NaN()
}
