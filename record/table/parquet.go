package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/shogilab/shogilab/record"
)

// IsParquet reports whether path names a Parquet file, by its extension.
func IsParquet(path string) bool { return strings.HasSuffix(path, ".parquet") }

// arrowSchemaKey is the metadata key under which Arrow writers store their schema.
const arrowSchemaKey = "ARROW:schema"

// batchRows is the number of rows decoded at a time.
const batchRows = 8192

// openTable is OpenFile with this package's name on its errors.
func openTable(path, want string) (*File, error) {
	t, err := OpenFile(path, want)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	return t, nil
}

// MaxGroupValues bounds the values of any column in one row group of either table: the
// moves of a games table's row group, the positions or the top moves of a positions table's.
// A reader decodes a row group's column at once (a game's moves cannot be read in parts), so
// it checks every column chunk against the limit in the file's footer before it decodes
// anything; the Writer ends a row group early rather than pass it. 4,194,304 values: 4,096
// games (RowGroupGames) of 1,024 plies on average, some 100 MB decoded.
const MaxGroupValues = 1 << 22

// checkGroups checks every column chunk of the file against MaxGroupValues (issue 33: a
// games table of 16.9 KB holding one game of 20 million moves took analyze games to 1.4 GB).
func checkGroups(path string, pr *file.Reader) error {
	md := pr.MetaData()
	columns := md.Schema.NumColumns()
	for i := range md.NumRowGroups() {
		rg := md.RowGroup(i)
		if rg.NumRows() > MaxGroupValues {
			return fmt.Errorf("%s: row group %d has %d rows, more than %d", path, i, rg.NumRows(), MaxGroupValues)
		}
		if rg.NumColumns() != columns {
			return fmt.Errorf("%s: row group %d has %d columns, the schema %d", path, i, rg.NumColumns(), columns)
		}
		for j := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return fmt.Errorf("%s: row group %d: %v", path, i, oneLine(err))
			}
			if n := cc.NumValues(); n > MaxGroupValues {
				return fmt.Errorf("%s: row group %d: column %s holds %d values, more than the %d a reader decodes at once", path, i, cc.PathInSchema(), n, MaxGroupValues)
			}
			// The column's bytes as the library will read them (its first page, the
			// dictionary's if that comes first, and the compressed size): a negative or
			// outlying range made it allocate a slice of a negative length and panic
			// (FuzzGamesTable's entry 0ab86c34e0480125).
			start, length := cc.DataPageOffset(), cc.TotalCompressedSize()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && start > cc.DictionaryPageOffset() {
				start = cc.DictionaryPageOffset()
			}
			if size := md.GetSourceFileSize(); start < 0 || length < 0 || start > size || length > size-start {
				return fmt.Errorf("%s: row group %d: column %s claims bytes %d to %d of a file of %d", path, i, cc.PathInSchema(), start, start+length, size)
			}
		}
	}
	return nil
}

// NextBatch moves rr to its next batch, reporting whether there is one, or the error that
// ended the reading: the reader's own, or a panic of the Parquet library on damaged data,
// which is a damaged file like any other. Every reader of a Parquet file in the repository
// (this package's tables, train/label's labels table) steps through it.
func NextBatch(rr pqarrow.RecordReader) (more bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			more, err = false, fmt.Errorf("damaged (the Parquet reader failed: %v)", p)
		}
	}()
	if rr.Next() {
		return true, nil
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		return false, err
	}
	return false, nil
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// columns returns the leaf column indices under the top-level columns
// named, failing when one is missing.
func (t *File) columns(names []string) ([]int, error) {
	sc := t.fr.ParquetReader().MetaData().Schema
	var leaves []int
	for _, name := range names {
		found := false
		for i := range sc.NumColumns() {
			if top, _, _ := strings.Cut(sc.Column(i).ColumnPath().String(), "."); top == name {
				leaves = append(leaves, i)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("table: %s: no column %q", t.path, name)
		}
	}
	return leaves, nil
}

// records returns a reader of the named columns' record batches.
func (t *File) records(names []string) (pqarrow.RecordReader, error) {
	leaves, err := t.columns(names)
	if err != nil {
		return nil, err
	}
	rr, err := t.fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		return nil, fmt.Errorf("table: %s: %v", t.path, oneLine(err))
	}
	return rr, nil
}

// stringTable interns the strings read from Arrow arrays: the values repeat
// (moves, names, results), and an Arrow string aliases the array's memory,
// which a Game must not keep.
type stringTable map[string]string

func (s stringTable) get(v string) string {
	if c, ok := s[v]; ok {
		return c
	}
	c := strings.Clone(v)
	if len(s) < 1<<14 && len(v) <= 96 {
		s[c] = c
	}
	return c
}

// gamesFile reads games from a games table.
type gamesFile struct {
	t         *File
	fields    record.Fields
	rr        pqarrow.RecordReader
	batch     arrow.RecordBatch
	cols      gameArrays
	row, rows int // in the batch
	read      int // rows read before the batch
	strs      stringTable
	configs   map[string]map[string]any
	arena     []string
	stats     *positionsFile // the positions table, when statistics are read
	pending   *Position      // a position read past the last game
}

// gameArrays are the batch's columns, nil for those not read.
type gameArrays struct {
	id, plies, maxPlies                            arrow.Array
	seed                                           *array.Uint64
	variant, start, startName, result, termination *array.String
	version, repetition, detail                    *array.String
	moves                                          *array.List
	moveText                                       *array.String
	players                                        [2]playerArrays
	startedAt                                      *array.Timestamp
	seconds                                        *array.Float64
}

type playerArrays struct {
	name, kind *array.String
	config     arrow.Array // JSON text: read back as binary, or as the JSON extension type
}

func openGames(path string, fields record.Fields) (*gamesFile, error) {
	t, err := openTable(path, GamesTable)
	if err != nil {
		return nil, err
	}
	var names []string
	for f := record.FieldID; f <= record.FieldDetail; f <<= 1 {
		if fields&f != 0 && f != record.FieldStats {
			names = append(names, gameColumns[f])
		}
	}
	if len(names) == 0 {
		names = []string{"id"} // a count of rows needs a column
	}
	g := &gamesFile{t: t, fields: fields, strs: stringTable{}, configs: map[string]map[string]any{}}
	if g.rr, err = t.records(names); err != nil {
		t.Close()
		return nil, err
	}
	if fields.Has(record.FieldStats) {
		if g.stats, err = pairedPositions(t, false); err != nil {
			g.close()
			return nil, err
		}
	}
	return g, nil
}

// pairedPositions opens the positions table that the games table games names
// (PositionsKey): a file in the games table's directory, named without a
// directory, whose digest (PairKey) is the games table's. A name with a path
// in it is refused before anything is opened.
func pairedPositions(games *File, all bool) (*positionsFile, error) {
	name, ok := games.meta[PositionsKey]
	if !ok {
		return nil, fmt.Errorf("table: %s: the games table names no positions table, where the statistics are", games.path)
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || filepath.Base(name) != name {
		return nil, fmt.Errorf("table: %s: the games table names its positions table %.80q: not a file name (its positions table must be beside it)", games.path, name)
	}
	p, err := openPositionsColumns(filepath.Join(filepath.Dir(games.path), name), all)
	if err != nil {
		return nil, err
	}
	if got, want := p.t.meta[PairKey], games.meta[PairKey]; got != want {
		p.close()
		return nil, fmt.Errorf("table: %s and %s are not a pair: they were written from other games (digests %.12s and %.12s); export the records again", games.path, p.t.path, orNone(want), orNone(got))
	}
	return p, nil
}

func orNone(digest string) string {
	if digest == "" {
		return "none"
	}
	return digest
}

func (g *gamesFile) close() {
	if g.batch != nil {
		g.batch.Release()
		g.batch = nil
	}
	if g.rr != nil {
		g.rr.Release()
	}
	if g.stats != nil {
		g.stats.close()
	}
	g.t.Close()
}

// next fills game with the next row; io.EOF at the end.
func (g *gamesFile) next(game *record.Game) error {
	for g.batch == nil || g.row == g.rows {
		if g.batch != nil {
			g.read += g.rows
			g.batch.Release()
			g.batch = nil
		}
		more, err := NextBatch(g.rr)
		if !more {
			if err != nil {
				return fmt.Errorf("table: %s: after row %d: %v", g.t.path, g.read, oneLine(err))
			}
			if g.stats != nil {
				if p, err := g.stats.next(); err != io.EOF {
					if err != nil {
						return err
					}
					return fmt.Errorf("table: %s: game %d has positions but no row in %s", g.stats.t.path, p.Game, g.t.path)
				}
			}
			return io.EOF
		}
		g.batch = g.rr.RecordBatch()
		g.batch.Retain()
		g.rows, g.row = int(g.batch.NumRows()), 0
		if err := g.bind(); err != nil {
			return err
		}
	}
	i := g.row
	g.row++
	g.fill(i, game)
	if g.stats != nil {
		if err := g.readStats(game); err != nil {
			return err
		}
	}
	if err := game.ValidateFields(g.fields); err != nil {
		return &record.LineError{File: g.t.path, Line: g.read + i + 1, Err: err}
	}
	return nil
}

// bind finds the batch's columns by name.
func (g *gamesFile) bind() error {
	c := gameArrays{}
	sc := g.batch.Schema()
	col := func(name string) arrow.Array {
		if idx := sc.FieldIndices(name); len(idx) == 1 {
			return g.batch.Column(idx[0])
		}
		return nil
	}
	str := func(a arrow.Array) *array.String {
		s, _ := a.(*array.String)
		return s
	}
	field := func(a arrow.Array, name string) arrow.Array {
		st, ok := a.(*array.Struct)
		if !ok {
			return nil
		}
		idx, ok := st.DataType().(*arrow.StructType).FieldIdx(name)
		if !ok {
			return nil
		}
		return st.Field(idx)
	}
	c.id, c.plies = col("id"), col("plies")
	c.seed, _ = col("seed").(*array.Uint64)
	c.variant, c.start, c.startName = str(col("variant")), str(col("start")), str(col("start_name"))
	c.result, c.termination, c.version = str(col("result")), str(col("termination")), str(col("version"))
	c.detail = str(col("detail"))
	if m, ok := col("moves").(*array.List); ok {
		c.moves = m
		c.moveText, _ = m.ListValues().(*array.String)
	}
	if p := col("players"); p != nil {
		for i, side := range []string{"sente", "gote"} {
			s := field(p, side)
			c.players[i].name, c.players[i].kind = str(field(s, "name")), str(field(s, "kind"))
			cfg := field(s, "config")
			if ext, ok := cfg.(array.ExtensionArray); ok {
				cfg = ext.Storage()
			}
			switch cfg.(type) {
			case *array.String, *array.Binary:
				c.players[i].config = cfg
			}
		}
	}
	if r := col("rules"); r != nil {
		c.repetition, c.maxPlies = str(field(r, "repetition")), field(r, "max_plies")
	}
	c.startedAt, _ = col("started_at").(*array.Timestamp)
	c.seconds, _ = col("seconds").(*array.Float64)
	g.cols = c
	// Every column asked for must be there with its type.
	f := g.fields
	switch {
	case f.Has(record.FieldSeed) && c.seed == nil,
		f.Has(record.FieldVariant) && c.variant == nil,
		f.Has(record.FieldStart) && c.start == nil,
		f.Has(record.FieldStartName) && c.startName == nil,
		f.Has(record.FieldMoves) && c.moveText == nil,
		f.Has(record.FieldResult) && c.result == nil,
		f.Has(record.FieldTermination) && c.termination == nil,
		f.Has(record.FieldVersion) && c.version == nil,
		f.Has(record.FieldDetail) && c.detail == nil,
		f.Has(record.FieldPlayers) && (c.players[0].name == nil || c.players[1].kind == nil || c.players[1].config == nil),
		f.Has(record.FieldRules) && (c.repetition == nil || c.maxPlies == nil),
		f.Has(record.FieldStartedAt) && c.startedAt == nil,
		f.Has(record.FieldSeconds) && c.seconds == nil,
		f.Has(record.FieldID) && !isInt(c.id),
		f.Has(record.FieldPlies) && !isInt(c.plies):
		return fmt.Errorf("table: %s: a column of %s is missing or of another type than GamesSchema's (%s)", g.t.path, f, sc)
	}
	return nil
}

func isInt(a arrow.Array) bool {
	switch a.(type) {
	case *array.Int64, *array.Int32:
		return true
	}
	return false
}

func intAt(a arrow.Array, i int) int {
	switch a := a.(type) {
	case *array.Int64:
		return int(a.Value(i))
	case *array.Int32:
		return int(a.Value(i))
	}
	return 0
}

func (g *gamesFile) text(a *array.String, i int) string {
	if a == nil || a.IsNull(i) {
		return ""
	}
	return g.strs.get(a.Value(i))
}

// fill sets game from row i of the batch.
func (g *gamesFile) fill(i int, game *record.Game) {
	c := &g.cols
	if c.id != nil {
		game.ID = intAt(c.id, i)
	}
	if c.seed != nil {
		game.Seed = c.seed.Value(i)
	}
	game.Variant, game.Start, game.StartName = g.text(c.variant, i), g.text(c.start, i), g.text(c.startName, i)
	game.Result, game.Termination = record.Result(g.text(c.result, i)), record.Termination(g.text(c.termination, i))
	game.Version, game.Detail = g.text(c.version, i), g.text(c.detail, i)
	if c.plies != nil {
		game.Plies = intAt(c.plies, i)
	}
	if c.moveText != nil {
		lo, hi := c.moves.ValueOffsets(i)
		n := int(hi - lo)
		if cap(g.arena)-len(g.arena) < n {
			g.arena = make([]string, 0, max(4096, n))
		}
		start := len(g.arena)
		for j := lo; j < hi; j++ {
			g.arena = append(g.arena, g.strs.get(c.moveText.Value(int(j))))
		}
		game.Moves = g.arena[start:len(g.arena):len(g.arena)]
	}
	for side, p := range []*record.Player{&game.Players.Sente, &game.Players.Gote} {
		pa := c.players[side]
		p.Name, p.Kind = g.text(pa.name, i), g.text(pa.kind, i)
		if pa.config != nil && !pa.config.IsNull(i) {
			switch a := pa.config.(type) {
			case *array.String:
				p.Config = g.config([]byte(a.Value(i)))
			case *array.Binary:
				p.Config = g.config(a.Value(i))
			}
		}
	}
	if c.repetition != nil {
		game.Rules = record.Rules{Repetition: g.text(c.repetition, i), MaxPlies: intAt(c.maxPlies, i)}
	}
	if c.startedAt != nil && !c.startedAt.IsNull(i) {
		game.StartedAt = time.Unix(0, int64(c.startedAt.Value(i))).UTC()
	}
	if c.seconds != nil && !c.seconds.IsNull(i) {
		game.Seconds = c.seconds.Value(i)
	}
}

// config decodes a configuration's JSON text, once per distinct text: games
// with the same text share the map, as record.Reader's do.
func (g *gamesFile) config(text []byte) map[string]any {
	if c, ok := g.configs[string(text)]; ok {
		return c
	}
	var c map[string]any
	if err := json.Unmarshal(text, &c); err != nil {
		c = map[string]any{"unreadable": string(text)} // Validate has no say on configs; keep the text
	}
	if len(g.configs) < 256 {
		g.configs[string(text)] = c
	}
	return c
}

// readStats takes the game's rows of the positions table, which follow the
// games table's order, and rebuilds its statistics.
func (g *gamesFile) readStats(game *record.Game) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("table: %s: game %d: %s", g.stats.t.path, game.ID, fmt.Sprintf(format, a...))
	}
	for ply := 0; ; ply++ {
		p := g.pending
		g.pending = nil
		if p == nil {
			var err error
			if p, err = g.stats.next(); err == io.EOF {
				if ply < game.Plies {
					return fail("the table ends after %d of its %d positions", ply, game.Plies)
				}
				return nil
			} else if err != nil {
				return err
			}
		}
		if p.Game != game.ID || ply == game.Plies {
			if ply < game.Plies {
				return fail("%d positions, want %d (the tables are not in the same order, or not a pair)", ply, game.Plies)
			}
			g.pending = p
			return nil
		}
		if p.Ply != ply {
			return fail("position of ply %d where ply %d was due", p.Ply, ply)
		}
		if p.Stats == nil {
			continue
		}
		if len(game.Stats) != ply {
			return fail("statistics at ply %d after a ply without", ply)
		}
		game.Stats = append(game.Stats, *p.Stats)
	}
}

// positionsFile reads a positions table row by row.
type positionsFile struct {
	t                                  *File
	rr                                 pqarrow.RecordReader
	batch                              arrow.RecordBatch
	row, rows, read                    int
	gameID, ply, visits, scoreCP, mate arrow.Array
	sfen, side, move, result, topMove  *array.String
	value, ms                          *array.Float64
	top                                *array.List
	topVisits                          *array.Int64
	fast                               *array.Boolean // nil in a table from before the column
	policy                             *array.List    // nil likewise
	policyMove                         *array.String
	policyP                            *array.Float64
	strs                               stringTable
	pos                                Position
	withBoard                          bool // read sfen, side, move and result too
}

// statsColumns are the columns a reader of statistics needs; Positions
// reads the others too.
var statsColumns = []string{"game_id", "ply", "visits", "value", "top", "score_cp", "mate", "ms"}

// addedStatsColumns are statistics columns added to the format later: read where a
// table has them.
var addedStatsColumns = []string{"fast", "policy"}

func openPositions(path string) (*positionsFile, error) { return openPositionsColumns(path, false) }

func openPositionsColumns(path string, all bool) (*positionsFile, error) {
	t, err := openTable(path, PositionsTable)
	if err != nil {
		return nil, err
	}
	names := statsColumns
	if all {
		names = append(names[:len(names):len(names)], "sfen", "side", "move", "result")
	}
	for _, name := range addedStatsColumns {
		if _, err := t.columns([]string{name}); err == nil {
			names = append(names[:len(names):len(names)], name)
		}
	}
	p := &positionsFile{t: t, strs: stringTable{}, withBoard: all}
	if p.rr, err = t.records(names); err != nil {
		t.Close()
		return nil, err
	}
	return p, nil
}

func (p *positionsFile) close() {
	if p.batch != nil {
		p.batch.Release()
	}
	p.rr.Release()
	p.t.Close()
}

// next returns the next row, valid until the next call.
func (p *positionsFile) next() (*Position, error) {
	for p.batch == nil || p.row == p.rows {
		if p.batch != nil {
			p.read += p.rows
			p.batch.Release()
			p.batch = nil
		}
		more, err := NextBatch(p.rr)
		if !more {
			if err != nil {
				return nil, fmt.Errorf("table: %s: after row %d: %v", p.t.path, p.read, oneLine(err))
			}
			return nil, io.EOF
		}
		p.batch = p.rr.RecordBatch()
		p.batch.Retain()
		p.rows, p.row = int(p.batch.NumRows()), 0
		if err := p.bind(); err != nil {
			return nil, err
		}
	}
	i := p.row
	p.row++
	pos := &p.pos
	*pos = Position{Game: intAt(p.gameID, i), Ply: intAt(p.ply, i)}
	if p.withBoard {
		pos.SFEN, pos.Move = p.strs.get(p.sfen.Value(i)), p.strs.get(p.move.Value(i))
		pos.Side, pos.Result = record.Result(p.strs.get(p.side.Value(i))), record.Result(p.strs.get(p.result.Value(i)))
	}
	if p.visits.IsNull(i) {
		return pos, nil
	}
	s := record.MoveStats{Visits: int64(intAt(p.visits, i)), Value: p.value.Value(i), MS: p.ms.Value(i)}
	if !p.top.IsNull(i) {
		lo, hi := p.top.ValueOffsets(i)
		s.Top = make([]record.TopMove, 0, hi-lo)
		for j := lo; j < hi; j++ {
			s.Top = append(s.Top, record.TopMove{Move: p.strs.get(p.topMove.Value(int(j))), Visits: p.topVisits.Value(int(j))})
		}
	}
	if p.fast != nil && !p.fast.IsNull(i) {
		s.Fast = p.fast.Value(i)
	}
	if p.policy != nil && !p.policy.IsNull(i) {
		lo, hi := p.policy.ValueOffsets(i)
		s.Policy = make([]record.PolicyMove, 0, hi-lo)
		for j := lo; j < hi; j++ {
			s.Policy = append(s.Policy, record.PolicyMove{Move: p.strs.get(p.policyMove.Value(int(j))), P: p.policyP.Value(int(j))})
		}
	}
	for _, v := range []struct {
		a  arrow.Array
		to **int
	}{{p.scoreCP, &s.ScoreCP}, {p.mate, &s.Mate}} {
		if !v.a.IsNull(i) {
			x := intAt(v.a, i)
			*v.to = &x
		}
	}
	pos.Stats = &s
	return pos, nil
}

func (p *positionsFile) bind() error {
	sc := p.batch.Schema()
	col := func(name string) arrow.Array {
		if idx := sc.FieldIndices(name); len(idx) == 1 {
			return p.batch.Column(idx[0])
		}
		return nil
	}
	p.gameID, p.ply, p.visits, p.scoreCP, p.mate = col("game_id"), col("ply"), col("visits"), col("score_cp"), col("mate")
	p.value, _ = col("value").(*array.Float64)
	p.ms, _ = col("ms").(*array.Float64)
	ok := isInt(p.gameID) && isInt(p.ply) && isInt(p.visits) && isInt(p.scoreCP) && isInt(p.mate) && p.value != nil && p.ms != nil
	if top, isList := col("top").(*array.List); isList {
		p.top = top
		if st, isStruct := top.ListValues().(*array.Struct); isStruct && st.NumField() == 2 {
			p.topMove, _ = st.Field(0).(*array.String)
			p.topVisits, _ = st.Field(1).(*array.Int64)
		}
	}
	ok = ok && p.topMove != nil && p.topVisits != nil
	p.fast, p.policy, p.policyMove, p.policyP = nil, nil, nil, nil
	if a := col("fast"); a != nil {
		p.fast, _ = a.(*array.Boolean)
		ok = ok && p.fast != nil
	}
	if a := col("policy"); a != nil {
		p.policy, _ = a.(*array.List)
		if p.policy != nil {
			if st, isStruct := p.policy.ListValues().(*array.Struct); isStruct && st.NumField() == 2 {
				p.policyMove, _ = st.Field(0).(*array.String)
				p.policyP, _ = st.Field(1).(*array.Float64)
			}
		}
		ok = ok && p.policyMove != nil && p.policyP != nil
	}
	if p.withBoard {
		p.sfen, _ = col("sfen").(*array.String)
		p.side, _ = col("side").(*array.String)
		p.move, _ = col("move").(*array.String)
		p.result, _ = col("result").(*array.String)
		ok = ok && p.sfen != nil && p.side != nil && p.move != nil && p.result != nil
	}
	if !ok {
		return errors.New("table: " + p.t.path + ": a column is missing or of another type than PositionsSchema's")
	}
	return nil
}
