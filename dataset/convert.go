package dataset

import (
	"context"
	"fmt"
	"io"
)

// Convert writes the games of the record files in (JSON Lines, plain or
// gzip, or games tables) as the games table games and the positions table
// positions, streaming: memory does not grow with the games. It returns the
// number of games. On failure, or when ctx is cancelled (SIGINT, SIGTERM),
// the tables already there stay as they were (a failure while putting the
// new ones in place may leave the new positions table alone: never a games
// table with another's positions; see Writer).
func Convert(ctx context.Context, in []string, games, positions string) (int, error) {
	w, err := Create(games, positions)
	if err != nil {
		return 0, err
	}
	r := NewReader(in, Options{RequireNewline: true, Context: ctx})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Abort()
			return 0, err
		}
		if err := w.Write(g); err != nil {
			w.Abort()
			file, line := r.Position()
			return 0, fmt.Errorf("%w (%s:%d)", err, file, line)
		}
	}
	return w.Close()
}
