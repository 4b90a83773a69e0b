package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
	"github.com/shogilab/shogilab/record"
)

// TestLongGameRefused is issue 33's games table: one game of more moves than a row group may
// hold (MaxGroupValues; 20 million in the issue, 5 million here), written by the Parquet
// library itself, as another tool would, into a file of some hundred kilobytes. The reader refuses it
// from the footer, before decoding a move: one error line, at most 16 MiB allocated (before,
// analyze games took 1.4 GB).
func TestLongGameRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(false))
	fw, err := pqarrow.NewFileWriter(GamesSchema, f, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{TableKey: GamesTable, FormatKey: format, PositionsKey: "positions.parquet"} {
		fw.AppendKeyValueMetadata(k, v)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, GamesSchema)
	for i, field := range GamesSchema.Fields() {
		if field.Name != "moves" {
			b.Field(i).AppendEmptyValue()
			continue
		}
		moves := b.Field(i).(*array.ListBuilder)
		moves.Append(true)
		values := moves.ValueBuilder().(*array.StringBuilder)
		for range 5_000_000 {
			values.Append("2e3d")
		}
	}
	rec := b.NewRecordBatch()
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	b.Release()
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() > 4<<20 {
		t.Fatalf("the table takes %v bytes (%v), want some hundred kilobytes", st.Size(), err)
	}
	var readErr error
	boundedtest.Within(t, "reading the table", 16<<20, func() {
		r := NewReader([]string{path}, Options{Fields: record.FieldID | record.FieldMoves | record.FieldPlies}) // as analyze games reads
		_, readErr = r.Read()
		r.Close()
	})
	want := "column moves.list.element holds 5000000 values, more than the 4194304 a reader decodes at once"
	if readErr == nil || !strings.Contains(readErr.Error(), want) || strings.Contains(readErr.Error(), "\n") {
		t.Errorf("%v; want one line with %q", readErr, want)
	}
}
