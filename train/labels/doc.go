// Package labels is the labels table: positions labelled by a deep search of a USI engine,
// one Parquet table per shard of a labelling run, as `train label` (package train/label)
// writes them and `train fit` (package train/data) reads them. It holds the table's format
// alone (the columns, the footer's provenance, a Writer and a Reader), so that a reader of
// the data need not depend on what runs the engine. datasets/README.md ("The labels table")
// documents the columns for DuckDB, pandas and polars.
//
// A tour:
//
//	w, err := labels.Create("labels-0-of-1.parquet", labels.Provenance{Command: "..."})
//	err = w.Write(labels.Row{Index: 0, SFEN: sfen, Move: "2e2d", ...})
//	err = w.Close()
//	err = labels.Rows([]string{"labels-0-of-1.parquet"}, func(r labels.Row) error { ...; return nil })
//
// Errors are prefixed "labels:" and name the file.
package labels
