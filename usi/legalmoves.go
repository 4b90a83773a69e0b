package usi

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// LegalMoves asks the engine for the legal moves of each position (an SFEN) by `position sfen
// S` and `go perft 1`, which Fairy-Stockfish answers with one `MOVE: 1` line per legal move
// (see Perft), and returns them sorted, one list per position in the order given. The
// commands go out from a goroutine of their own while the answers are read, so that a batch
// of thousands costs a few pipe writes and no round trip each: a proof check asks about
// hundreds of thousands of positions (docs/proofs.md, Checking with another engine), and one
// round trip costs about a millisecond on a loaded machine. After an error the engine may
// still be answering the batch: close the client.
func (c *Client) LegalMoves(ctx context.Context, sfens []string) ([][]string, error) {
	// chunk positions go to the engine in one write: large enough that the writes cost
	// nothing beside the engine's work, small enough that the first answers come at once.
	const chunk = 64
	perft1 := GoParams{Perft: 1}.Format()
	sent := make(chan error, 1)
	go func() {
		for i := 0; i < len(sfens); i += chunk {
			lines := make([]string, 0, 2*chunk)
			for _, s := range sfens[i:min(i+chunk, len(sfens))] {
				lines = append(lines, positionLine(s, nil), perft1)
			}
			if err := c.sendLines(lines); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()
	out := make([][]string, len(sfens))
	for i := range sfens {
		res, err := c.readPerft(ctx, 1)
		if err != nil {
			return nil, fmt.Errorf("%w (the legal moves of %s)", err, sfens[i])
		}
		moves := make([]string, 0, len(res.Moves))
		for m := range res.Moves {
			moves = append(moves, m)
		}
		slices.Sort(moves)
		out[i] = moves
	}
	if err := <-sent; err != nil {
		return nil, err
	}
	return out, nil
}

// sendLines writes command lines to the engine in one write.
func (c *Client) sendLines(lines []string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	for _, l := range lines {
		c.log("> ", l)
	}
	if _, err := io.WriteString(c.stdin, strings.Join(lines, "\n")+"\n"); err != nil {
		select {
		case <-c.exited:
			return c.exitError("before " + firstWord(lines[0]))
		default:
			return fmt.Errorf("usi: %s: sending %q: %w", c.name, firstWord(lines[0]), err)
		}
	}
	return nil
}
