package table

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// RowGroupGames is the number of games in a row group of either table (a
// row group of the positions table holds their moves), fewer when their moves
// or top moves would pass MaxGroupValues. A reader holds about one row group
// of the columns it reads: some megabytes.
const RowGroupGames = 4096

// Writer writes records as a games table and its positions table, each a
// Parquet file compressed with zstd. The files are written under temporary
// names beside their own (package atomicfile) and put into place by Close:
// a games table already there is removed first, then the positions table
// and the games table are renamed in that order. A kill at any moment thus
// leaves the old pair, or the new positions table without a games table, or
// the new pair: never a games table with another table's positions. Both
// tables carry the digest of the games they were written from (PairKey),
// which every reader of a pair compares.
type Writer struct {
	games, positions *FileWriter
	settings         []SettingColumn
	inGroup          int // games in the row group being built
	groupMoves       int // their moves: the games table's move values, the positions table's rows
	groupTop         int // their top or policy moves: values of the positions table's list columns
	written          int
	digest           hash.Hash
}

// Create starts the tables games and positions (file paths; by convention
// games-*.parquet and positions-*.parquet beside it). The games table
// records its positions table's file name in its metadata, and has a typed
// column for each of settings in its players' structs, beside config.
func Create(games, positions string, settings ...SettingColumn) (*Writer, error) {
	gs, err := gamesSchema(settings)
	if err != nil {
		return nil, err
	}
	w := &Writer{settings: settings, digest: sha256.New()}
	if w.positions, err = newTable(positions, PositionsSchema, map[string]string{TableKey: PositionsTable, FormatKey: format}); err != nil {
		return nil, err
	}
	meta := map[string]string{TableKey: GamesTable, FormatKey: format, PositionsKey: filepath.Base(positions)}
	if w.games, err = newTable(games, gs, meta); err != nil {
		w.positions.Abort()
		return nil, err
	}
	return w, nil
}

// newTable is CreateFile with this package's name on its errors.
func newTable(path string, schema *arrow.Schema, meta map[string]string) (*FileWriter, error) {
	t, err := CreateFile(path, schema, meta)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	return t, nil
}

// Write validates g, replays its moves for the positions, and adds it.
func (w *Writer) Write(g *record.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	sfens, err := replay(g)
	if err != nil {
		return err
	}
	top := 0 // the values of the longer of the top and policy columns
	for _, st := range g.Stats {
		top += max(len(st.Top), len(st.Policy))
	}
	if top > MaxGroupValues { // a valid record cannot have so many (record.MaxGamePlies, MaxLineBytes)
		return fmt.Errorf("table: game %d: %d top or policy moves, more than a row group holds (%d)", g.ID, top, MaxGroupValues)
	}
	if w.inGroup > 0 && (w.groupMoves+len(g.Moves) > MaxGroupValues || w.groupTop+top > MaxGroupValues) {
		// The row group ends early, before a column passes what a reader decodes at once.
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.groupMoves += len(g.Moves)
	w.groupTop += top
	if err := w.appendGame(g); err != nil {
		return err
	}
	w.appendPositions(g, sfens)
	// The digest covers what ties a positions row to its game, the id and the
	// moves, as the line "ID MOVE MOVE ...\n" (PairKey).
	fmt.Fprintf(w.digest, "%d %s\n", g.ID, strings.Join(g.Moves, " "))
	w.written++
	if w.inGroup++; w.inGroup == RowGroupGames {
		return w.flush()
	}
	return nil
}

func (w *Writer) flush() error {
	w.inGroup, w.groupMoves, w.groupTop = 0, 0, 0
	err := w.games.Flush()
	if err == nil {
		err = w.positions.Flush()
	}
	if err != nil {
		return fmt.Errorf("table: %w", err)
	}
	return nil
}

// Close writes what is buffered and the files' footers, and puts both
// files into place (see Writer); it returns the number of games written.
func (w *Writer) Close() (int, error) {
	if err := w.flush(); err != nil {
		w.Abort()
		return 0, err
	}
	pair := map[string]string{PairKey: hex.EncodeToString(w.digest.Sum(nil))}
	if err := w.positions.Finish(pair); err != nil {
		w.games.Abort()
		return 0, fmt.Errorf("table: %w", err)
	}
	if err := w.games.Finish(pair); err != nil {
		w.positions.Abort()
		return 0, fmt.Errorf("table: %w", err)
	}
	// The old games table goes before its positions table is replaced: it would
	// name positions that are no longer its own.
	if err := os.Remove(w.games.Path()); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.positions.Abort()
		w.games.Abort()
		return 0, fmt.Errorf("table: %w", err)
	}
	if err := w.positions.Commit(); err != nil {
		w.games.Abort()
		return 0, fmt.Errorf("table: %w", err)
	}
	if err := w.games.Commit(); err != nil {
		return 0, fmt.Errorf("table: %w", err)
	}
	return w.written, nil
}

// Abort removes the temporary files; neither table is written.
func (w *Writer) Abort() {
	w.games.Abort()
	w.positions.Abort()
}

// before is the position before a move: its SFEN and the side to move.
type before struct{ sfen, side string }

// replay returns the position before each move of g.
func replay(g *record.Game) ([]before, error) {
	if g.Variant != "minishogi" {
		return nil, fmt.Errorf("table: game %d: variant %q: only minishogi games can be replayed for their positions", g.ID, g.Variant)
	}
	pos, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		return nil, fmt.Errorf("table: game %d: %w", g.ID, err)
	}
	sfens := make([]before, len(g.Moves))
	for i, text := range g.Moves {
		sfens[i] = before{pos.SFEN(), pos.SideToMove().String()}
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("table: game %d: moves[%d]: %w", g.ID, i, err)
		}
		pos.MakeMove(m)
	}
	return sfens, nil
}

func (w *Writer) appendGame(g *record.Game) error {
	b := w.games.Builder()
	b.Field(0).(*array.Int64Builder).Append(int64(g.ID))
	b.Field(1).(*array.Uint64Builder).Append(g.Seed)
	b.Field(2).(*array.StringBuilder).Append(g.Variant)
	b.Field(3).(*array.StringBuilder).Append(g.Start)
	appendOptionalString(b.Field(4).(*array.StringBuilder), g.StartName)
	moves := b.Field(5).(*array.ListBuilder)
	moves.Append(true)
	mv := moves.ValueBuilder().(*array.StringBuilder)
	for _, m := range g.Moves {
		mv.Append(m)
	}
	b.Field(6).(*array.StringBuilder).Append(string(g.Result))
	b.Field(7).(*array.StringBuilder).Append(string(g.Termination))
	b.Field(8).(*array.Int32Builder).Append(int32(g.Plies))
	players := b.Field(9).(*array.StructBuilder)
	players.Append(true)
	for i, p := range []record.Player{g.Players.Sente, g.Players.Gote} {
		pb := players.FieldBuilder(i).(*array.StructBuilder)
		pb.Append(true)
		pb.FieldBuilder(0).(*array.StringBuilder).Append(p.Name)
		pb.FieldBuilder(1).(*array.StringBuilder).Append(p.Kind)
		config := pb.FieldBuilder(2).(*array.ExtensionBuilder).StorageBuilder().(*array.StringBuilder)
		if p.Config == nil {
			config.AppendNull()
		} else {
			text, err := json.Marshal(p.Config) // keys sorted: one text per configuration
			if err != nil {
				return fmt.Errorf("table: game %d: player %q: config: %w", g.ID, p.Name, err)
			}
			config.Append(string(text))
		}
		appendSettings(pb, 3, w.settings, p.Config)
	}
	rules := b.Field(10).(*array.StructBuilder)
	rules.Append(true)
	rules.FieldBuilder(0).(*array.StringBuilder).Append(g.Rules.Repetition)
	rules.FieldBuilder(1).(*array.Int32Builder).Append(int32(g.Rules.MaxPlies))
	b.Field(11).(*array.StringBuilder).Append(g.Version)
	appendOptionalString(b.Field(12).(*array.StringBuilder), g.Detail)
	started := b.Field(13).(*array.TimestampBuilder)
	if g.StartedAt.IsZero() {
		started.AppendNull() // timing fields that are zero are absent, as in JSON
	} else {
		started.Append(arrow.Timestamp(g.StartedAt.UnixNano()))
	}
	seconds := b.Field(14).(*array.Float64Builder)
	if g.Seconds == 0 {
		seconds.AppendNull()
	} else {
		seconds.Append(g.Seconds)
	}
	return nil
}

func appendOptionalString(b *array.StringBuilder, s string) {
	if s == "" {
		b.AppendNull()
	} else {
		b.Append(s)
	}
}

func (w *Writer) appendPositions(g *record.Game, positions []before) {
	b := w.positions.Builder()
	for ply, m := range g.Moves {
		b.Field(0).(*array.Int64Builder).Append(int64(g.ID))
		b.Field(1).(*array.Int32Builder).Append(int32(ply))
		b.Field(2).(*array.StringBuilder).Append(positions[ply].sfen)
		b.Field(3).(*array.StringBuilder).Append(positions[ply].side)
		b.Field(4).(*array.StringBuilder).Append(m)
		visits := b.Field(5).(*array.Int64Builder)
		value := b.Field(6).(*array.Float64Builder)
		top := b.Field(7).(*array.ListBuilder)
		scoreCP := b.Field(8).(*array.Int64Builder)
		mate := b.Field(9).(*array.Int64Builder)
		ms := b.Field(10).(*array.Float64Builder)
		fast := b.Field(15).(*array.BooleanBuilder)
		policy := b.Field(16).(*array.ListBuilder)
		if ply < len(g.Stats) {
			s := g.Stats[ply]
			visits.Append(s.Visits)
			value.Append(s.Value)
			if len(s.Top) == 0 {
				top.AppendNull()
			} else {
				top.Append(true)
				tb := top.ValueBuilder().(*array.StructBuilder)
				for _, t := range s.Top {
					tb.Append(true)
					tb.FieldBuilder(0).(*array.StringBuilder).Append(t.Move)
					tb.FieldBuilder(1).(*array.Int64Builder).Append(t.Visits)
				}
			}
			appendOptionalInt(scoreCP, s.ScoreCP)
			appendOptionalInt(mate, s.Mate)
			ms.Append(s.MS)
			fast.Append(s.Fast)
			if len(s.Policy) == 0 {
				policy.AppendNull()
			} else {
				policy.Append(true)
				pb := policy.ValueBuilder().(*array.StructBuilder)
				for _, p := range s.Policy {
					pb.Append(true)
					pb.FieldBuilder(0).(*array.StringBuilder).Append(p.Move)
					pb.FieldBuilder(1).(*array.Float64Builder).Append(p.P)
				}
			}
		} else {
			visits.AppendNull()
			value.AppendNull()
			top.AppendNull()
			scoreCP.AppendNull()
			mate.AppendNull()
			ms.AppendNull()
			fast.AppendNull()
			policy.AppendNull()
		}
		b.Field(11).(*array.StringBuilder).Append(string(g.Result))
		b.Field(12).(*array.Float64Builder).Append(moverScore(g.Result, positions[ply].side))
		b.Field(13).(*array.StringBuilder).Append(string(g.Termination))
		b.Field(14).(*array.Int32Builder).Append(int32(g.Plies))
	}
}

// moverScore is a game's result for side: 1 if it won, 0.5 for a draw, 0 if it lost.
func moverScore(result record.Result, side string) float64 {
	switch {
	case result == record.Draw:
		return 0.5
	case string(result) == side:
		return 1
	}
	return 0
}

func appendOptionalInt(b *array.Int64Builder, v *int) {
	if v == nil {
		b.AppendNull()
	} else {
		b.Append(int64(*v))
	}
}

// PositionsPath is the conventional name of the positions table of the
// games table games: games-0-of-4.parquet has positions-0-of-4.parquet, any
// other X.parquet has X.positions.parquet.
func PositionsPath(games string) string {
	dir, base := filepath.Split(games)
	if rest, ok := strings.CutPrefix(base, "games"); ok {
		return filepath.Join(dir, "positions"+rest)
	}
	return filepath.Join(dir, strings.TrimSuffix(base, ".parquet")+".positions.parquet")
}
