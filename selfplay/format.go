package selfplay

import "fmt"

// Format is the output format of a run: the extension of its files.
type Format string

// The formats: JSON Lines written game by game (datasets/README.md), gzip
// with a member per game, or Parquet tables (package record/table).
const (
	JSONL     Format = "jsonl"
	JSONLGzip Format = "jsonl.gz"
	Parquet   Format = "parquet"
)

// Formats are the formats, in the order usage messages list them.
var Formats = []Format{JSONL, JSONLGzip, Parquet}

// ParseFormat reads a format by its name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("selfplay: format %q is not jsonl, jsonl.gz or parquet", s)
}
