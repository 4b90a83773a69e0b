package table

import (
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/shogilab/shogilab/internal/atomicfile"
)

// This file holds what every Parquet table of the repository shares, this package's games
// and positions tables and train/labels's labels table: how one file is written (FileWriter)
// and opened (OpenFile). Their errors name the file but not a package; the table's own
// reader and writer, and train/labels, put their package's name before them.

// FileWriter writes one Parquet table atomically (internal/atomicfile): zstd, dictionaries,
// a row group for each Flush, the table's metadata (TableKey, FormatKey and its own keys) in
// the footer, and the rows in a temporary file beside path until Commit.
type FileWriter struct {
	path string
	tmp  *atomicfile.File
	fw   *pqarrow.FileWriter
	b    *array.RecordBuilder // nil once Finish has released it
}

// CreateFile starts a table of schema at path with meta in its footer.
func CreateFile(path string, schema *arrow.Schema, meta map[string]string) (*FileWriter, error) {
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(1<<30), // a row group per Flush, not per count
		parquet.WithCreatedBy("shogilab"),
	)
	fw, err := pqarrow.NewFileWriter(schema, tmp, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		tmp.Abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// In the order of the keys, so that a table is the same file byte for byte each time
	// (a map's order changes from run to run).
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if err := fw.AppendKeyValueMetadata(k, meta[k]); err != nil {
			tmp.Abort()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return &FileWriter{path: path, tmp: tmp, fw: fw, b: array.NewRecordBuilder(memory.DefaultAllocator, schema)}, nil
}

// Path is the file's final path.
func (t *FileWriter) Path() string { return t.path }

// Builder is where the rows of the next row group are appended, column by column.
func (t *FileWriter) Builder() *array.RecordBuilder { return t.b }

// Flush writes the rows built so far as one row group.
func (t *FileWriter) Flush() error {
	rec := t.b.NewRecordBatch()
	defer rec.Release()
	if rec.NumRows() == 0 {
		return nil
	}
	if err := t.fw.Write(rec); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

// Finish writes the rows still built and the footer, with meta added to the metadata, into
// the temporary file; Commit then puts it in place. On an error the file is aborted.
func (t *FileWriter) Finish(meta map[string]string) error {
	err := t.Flush()
	t.b.Release()
	t.b = nil
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if err == nil {
			err = t.fw.AppendKeyValueMetadata(k, meta[k])
		}
	}
	if cerr := t.fw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.tmp.Abort()
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

// Commit puts the finished file at its path.
func (t *FileWriter) Commit() error { return t.tmp.Commit() }

// Abort removes the temporary file; nothing is written at path.
func (t *FileWriter) Abort() {
	if t.b != nil {
		t.b.Release()
		t.b = nil
	}
	t.tmp.Abort()
}

// File is an open Parquet table of the repository.
type File struct {
	path string
	f    *os.File
	fr   *pqarrow.FileReader
	meta map[string]string
}

// OpenFile opens a table and checks that it is one of want (its TableKey: "games",
// "positions", "labels"; "" takes any of them, and Kind says which): a Parquet file cut
// short, or one that is not such a table, is a one-line error naming the file. Every column
// chunk is checked against MaxGroupValues, and the Arrow schema a writer stores is not read
// (see below), before anything is decoded.
// A footer on which the Parquet library panics (an invalid logical type, found by
// FuzzGamesTable) is such an error too.
func OpenFile(path, want string) (t *File, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			f.Close()
			t, err = nil, fmt.Errorf("%s: damaged (the Parquet reader failed: %v)", path, p)
		}
	}()
	pr, err := file.NewParquetReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a whole Parquet file (cut short, or another format): %v", path, oneLine(err))
	}
	meta := map[string]string{}
	kv := pr.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		meta[k] = kv.Values()[i]
	}
	// The Arrow schema a writer stores beside the Parquet one is not read: the Parquet
	// library decodes it without bounds, and a damaged one (FuzzGamesTable's entry
	// feeba34deb2f1f87, a few hundred bytes) made it allocate 32 GB in 1.7 s. The Parquet
	// schema, whose column chunks checkGroups bounds, carries every type these tables use,
	// so the key is hidden from the library.
	for _, e := range kv {
		if e.Key == arrowSchemaKey {
			e.Key = "shogilab:ignored:" + arrowSchemaKey
		}
	}
	t = &File{path: path, f: f, meta: meta}
	if err := checkGroups(path, pr); err != nil {
		t.Close()
		return nil, err
	}
	switch got := meta[TableKey]; {
	case got == "":
		t.Close()
		return nil, fmt.Errorf("%s: a Parquet file without %s in its metadata: not a table of shogilab", path, TableKey)
	case want != "" && got != want:
		t.Close()
		return nil, fmt.Errorf("%s: a %s table, not a %s table", path, got, want)
	}
	// Not Parallel: the Parquet library panics on some damaged pages (a nil dictionary page
	// header, found by FuzzGamesTable), and only a panic on the reading goroutine can be
	// turned into an error (NextBatch); one in the library's own goroutines ends the process.
	t.fr, err = pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("%s: %v", path, oneLine(err))
	}
	return t, nil
}

// Kind is the table's kind, its TableKey: "games", "positions" or "labels".
func (t *File) Kind() string { return t.meta[TableKey] }

// KindOf is the kind of the table at path, from its footer: what a reader of several
// kinds opens it as.
func KindOf(path string) (string, error) {
	t, err := OpenFile(path, "")
	if err != nil {
		return "", err
	}
	defer t.Close()
	return t.Kind(), nil
}

// Meta is the table's footer metadata.
func (t *File) Meta() map[string]string { return t.meta }

// Reader is the Arrow reader of the table's row groups.
func (t *File) Reader() *pqarrow.FileReader { return t.fr }

// Close closes the file.
func (t *File) Close() error { return t.f.Close() }
