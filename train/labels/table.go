package labels

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/shogilab/shogilab/record/table"
)

// Row is one labelled position: a row of the labels table. datasets/README.md
// ("The labels table") documents each field as a column.
type Row struct {
	// Index is the position's place in the run's list (Collect's order).
	Index int64  `json:"index"`
	SFEN  string `json:"sfen"`
	Side  string `json:"side"` // "sente" or "gote": the side to move
	// Move is the labeller's best move (USI).
	Move string `json:"move"`
	// ScoreCP or Mate is the labeller's score for the side to move, from its
	// last info line with a score: centipawns, or the mate distance in plies
	// as it printed it (negative: the side to move is mated).
	ScoreCP *int `json:"score_cp,omitempty"`
	Mate    *int `json:"mate,omitempty"`
	// Value is the score as an expected outcome in [-1, 1] for the side to
	// move, mapped as self-play maps an external engine's (selfplay.USIStats).
	Value float64 `json:"value"`
	Depth int     `json:"depth"` // the depth of that info line
	Nodes int64   `json:"nodes"` // its node count
	// Score is the outcome for the side to move of the game the position was
	// first found in (1 win, 0.5 draw, 0 loss), nil when not known.
	Score       *float64 `json:"score,omitempty"`
	Source      string   `json:"source"`
	GameID      *int64   `json:"game_id,omitempty"`
	Ply         *int     `json:"ply,omitempty"`
	Line        *int     `json:"line,omitempty"`
	Occurrences int      `json:"occurrences"`
}

// Schema is the labels table's; datasets/README.md documents each column.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "index", Type: arrow.PrimitiveTypes.Int64},
	{Name: "sfen", Type: arrow.BinaryTypes.String},
	{Name: "side", Type: arrow.BinaryTypes.String},
	{Name: "move", Type: arrow.BinaryTypes.String},
	{Name: "score_cp", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "mate", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "value", Type: arrow.PrimitiveTypes.Float64},
	{Name: "depth", Type: arrow.PrimitiveTypes.Int32},
	{Name: "nodes", Type: arrow.PrimitiveTypes.Int64},
	{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "source", Type: arrow.BinaryTypes.String},
	{Name: "game_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "ply", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "line", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "occurrences", Type: arrow.PrimitiveTypes.Int32},
}, nil)

// The labels table's footer: table.TableKey names it, table.FormatKey
// gives its own format version, and the keys below its provenance.
const (
	// Table is the value of table.TableKey in a labels table.
	Table = "labels"
	// Format is the labels table's format version; columns are only ever
	// added.
	Format = "1"

	CommandKey   = "shogilab.command"   // the command line, without machine paths
	LabellerKey  = "shogilab.labeller"  // the labeller's `id name`
	OptionsKey   = "shogilab.options"   // the options set on it, "Name=Value" one a line
	LimitKey     = "shogilab.limit"     // its search limit as USI's go: "depth 10"
	ShardKey     = "shogilab.shard"     // "I/N"
	PositionsKey = "shogilab.positions" // positions in the whole run's list (all shards)
	BlockKey     = "shogilab.block"     // positions labelled by each process of the labeller
	// RunKey is a digest of what decides the shard's rows (the positions,
	// the labeller's spec, the block size): a resume into a directory that
	// holds another run's shard is an error.
	RunKey = "shogilab.run"
)

// Provenance is the footer of a labels table: what made it.
type Provenance struct {
	Command   string
	Labeller  string
	Options   []string // "Name=Value"
	Limit     string
	Shard     string
	Positions int
	Block     int
	Run       string
}

func (p Provenance) metadata() map[string]string {
	return map[string]string{
		table.TableKey: Table, table.FormatKey: Format,
		CommandKey: p.Command, LabellerKey: p.Labeller, OptionsKey: strings.Join(p.Options, "\n"),
		LimitKey: p.Limit, ShardKey: p.Shard, PositionsKey: strconv.Itoa(p.Positions), BlockKey: strconv.Itoa(p.Block),
		RunKey: p.Run,
	}
}

func provenanceOf(meta map[string]string) Provenance {
	p := Provenance{Command: meta[CommandKey], Labeller: meta[LabellerKey], Limit: meta[LimitKey], Shard: meta[ShardKey], Run: meta[RunKey]}
	if o := meta[OptionsKey]; o != "" {
		p.Options = strings.Split(o, "\n")
	}
	p.Positions, _ = strconv.Atoi(meta[PositionsKey])
	p.Block, _ = strconv.Atoi(meta[BlockKey])
	return p
}

// Writer writes a labels table atomically (internal/atomicfile, through table.FileWriter):
// until Close the rows go to a temporary file beside path, and a kill leaves the old file at
// path or the new one, whole.
type Writer struct {
	t *table.FileWriter
	n int
}

// Create starts a labels table at path with prov in its footer.
func Create(path string, prov Provenance) (*Writer, error) {
	t, err := table.CreateFile(path, Schema, prov.metadata())
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	return &Writer{t: t}, nil
}

// Write adds a row.
func (w *Writer) Write(r Row) error {
	appendRow(w.t.Builder(), &r)
	w.n++
	if w.n%rowGroup == 0 {
		if err := w.t.Flush(); err != nil {
			return fmt.Errorf("labels: %w", err)
		}
	}
	return nil
}

// Close writes the footer and puts the file in place.
func (w *Writer) Close() error {
	err := w.t.Finish(nil)
	if err == nil {
		err = w.t.Commit()
	}
	if err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	return nil
}

// Abort removes the temporary file; nothing is written at path.
func (w *Writer) Abort() { w.t.Abort() }

// rowGroup is the rows of a row group: some 3 MB decoded.
const rowGroup = 1 << 15

func appendRow(b *array.RecordBuilder, r *Row) {
	optInt := func(i int, v *int) {
		fb := b.Field(i).(*array.Int64Builder)
		if v == nil {
			fb.AppendNull()
		} else {
			fb.Append(int64(*v))
		}
	}
	opt32 := func(i int, v *int) {
		fb := b.Field(i).(*array.Int32Builder)
		if v == nil {
			fb.AppendNull()
		} else {
			fb.Append(int32(*v))
		}
	}
	b.Field(0).(*array.Int64Builder).Append(r.Index)
	b.Field(1).(*array.StringBuilder).Append(r.SFEN)
	b.Field(2).(*array.StringBuilder).Append(r.Side)
	b.Field(3).(*array.StringBuilder).Append(r.Move)
	optInt(4, r.ScoreCP)
	optInt(5, r.Mate)
	b.Field(6).(*array.Float64Builder).Append(r.Value)
	b.Field(7).(*array.Int32Builder).Append(int32(r.Depth))
	b.Field(8).(*array.Int64Builder).Append(r.Nodes)
	if r.Score == nil {
		b.Field(9).(*array.Float64Builder).AppendNull()
	} else {
		b.Field(9).(*array.Float64Builder).Append(*r.Score)
	}
	b.Field(10).(*array.StringBuilder).Append(r.Source)
	if r.GameID == nil {
		b.Field(11).(*array.Int64Builder).AppendNull()
	} else {
		b.Field(11).(*array.Int64Builder).Append(*r.GameID)
	}
	opt32(12, r.Ply)
	opt32(13, r.Line)
	b.Field(14).(*array.Int32Builder).Append(int32(r.Occurrences))
}

// Reader streams the rows of a labels table, in the table's order (the
// run's list order).
type Reader struct {
	path string
	t    *table.File
	rr   pqarrow.RecordReader
	prov Provenance
	rec  arrow.RecordBatch
	next int // row of rec
}

// Open opens a labels table and reads its footer: a file that is not a
// whole Parquet file, or not a labels table of a known format, is an error
// naming it.
func Open(path string) (*Reader, error) {
	t, err := table.OpenFile(path, Table)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	fail := func(format string, a ...any) (*Reader, error) {
		t.Close()
		return nil, fmt.Errorf("labels: %s: %s", path, fmt.Sprintf(format, a...))
	}
	meta, fr := t.Meta(), t.Reader()
	if meta[table.FormatKey] != Format {
		return fail("labels table format %q; this reader knows %q", meta[table.FormatKey], Format)
	}
	if got := fr.Manifest.Fields; len(got) < len(Schema.Fields()) {
		return fail("%d columns, not the %d of a labels table", len(got), len(Schema.Fields()))
	}
	for i, want := range Schema.Fields() {
		if got := fr.Manifest.Fields[i].Field; got.Name != want.Name || !arrow.TypeEqual(got.Type, want.Type) {
			return fail("column %d is %s %s, not %s %s", i, got.Name, got.Type, want.Name, want.Type)
		}
	}
	cols := make([]int, len(Schema.Fields()))
	for i := range cols {
		cols[i] = i
	}
	rr, err := fr.GetRecordReader(context.Background(), cols, nil)
	if err != nil {
		return fail("%v", oneLine(err))
	}
	return &Reader{path: path, t: t, rr: rr, prov: provenanceOf(meta)}, nil
}

// Provenance is the table's footer.
func (r *Reader) Provenance() Provenance { return r.prov }

// Read returns the next row, or io.EOF after the last.
func (r *Reader) Read() (Row, error) {
	for r.rec == nil || r.next == int(r.rec.NumRows()) {
		more, err := table.NextBatch(r.rr)
		if err != nil {
			return Row{}, fmt.Errorf("labels: %s: %v", r.path, oneLine(err))
		}
		if !more {
			return Row{}, io.EOF
		}
		r.rec, r.next = r.rr.RecordBatch(), 0
	}
	c := r.rec.Columns()
	i := r.next
	r.next++
	optInt := func(a arrow.Array) *int {
		if a.IsNull(i) {
			return nil
		}
		var v int
		switch a := a.(type) {
		case *array.Int64:
			v = int(a.Value(i))
		case *array.Int32:
			v = int(a.Value(i))
		}
		return &v
	}
	row := Row{
		Index:       c[0].(*array.Int64).Value(i),
		SFEN:        c[1].(*array.String).Value(i),
		Side:        c[2].(*array.String).Value(i),
		Move:        c[3].(*array.String).Value(i),
		ScoreCP:     optInt(c[4]),
		Mate:        optInt(c[5]),
		Value:       c[6].(*array.Float64).Value(i),
		Depth:       int(c[7].(*array.Int32).Value(i)),
		Nodes:       c[8].(*array.Int64).Value(i),
		Source:      c[10].(*array.String).Value(i),
		Ply:         optInt(c[12]),
		Line:        optInt(c[13]),
		Occurrences: int(c[14].(*array.Int32).Value(i)),
	}
	if !c[9].IsNull(i) {
		s := c[9].(*array.Float64).Value(i)
		row.Score = &s
	}
	if !c[11].IsNull(i) {
		g := c[11].(*array.Int64).Value(i)
		row.GameID = &g
	}
	return row, nil
}

// Close closes the file.
func (r *Reader) Close() error {
	r.rr.Release()
	return r.t.Close()
}

// Rows calls fn with every row of the labels tables at paths, file after
// file: what a trainer reads. The shards of one run, read in shard order,
// give the rows of the unsharded run.
func Rows(paths []string, fn func(Row) error) error {
	for _, path := range paths {
		r, err := Open(path)
		if err != nil {
			return err
		}
		for {
			row, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err == nil {
				err = fn(row)
			}
			if err != nil {
				r.Close()
				return err
			}
		}
		if err := r.Close(); err != nil {
			return fmt.Errorf("labels: %w", err)
		}
	}
	return nil
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }
