package usi

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// LegalMoves asks the engine for the legal moves of each position (an SFEN) by `position sfen
// S` and `go perft 1`, which Fairy-Stockfish answers with one `MOVE: 1` line per legal move
// (see Perft), and returns them sorted, one list per position in the order given. The
// commands go out from a goroutine of their own while the answers are read, so that a batch
// of thousands costs a few pipe writes and no round trip each: a proof check asks about
// hundreds of thousands of positions (docs/proofs.md#another-engine), and one round trip
// costs about a millisecond on a loaded machine. After an error the engine may still be
// answering the batch: close the client.
func (c *Client) LegalMoves(ctx context.Context, sfens []string) ([][]string, error) {
	results, err := c.perftBatch(ctx, sfens, 1)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(results))
	for i, res := range results {
		out[i] = slices.Sorted(maps.Keys(res.Moves))
	}
	return out, nil
}

// ReplyCounts asks the engine, as LegalMoves does, for the legal moves of each position and,
// for each move, how many legal replies the position after it has: `go perft 2`, whose line
// per move counts the leaves below it. One question answers for a position and all its
// children whether each child has a legal move, which is all a certificate check needs of
// the positions one ply before its bound (docs/proofs.md#certificate-check).
func (c *Client) ReplyCounts(ctx context.Context, sfens []string) ([]map[string]int64, error) {
	results, err := c.perftBatch(ctx, sfens, 2)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]int64, len(results))
	for i, res := range results {
		out[i] = res.Moves
	}
	return out, nil
}

// perftBatch sends `position sfen S` and `go perft depth` for each position and reads the
// answers in order.
func (c *Client) perftBatch(ctx context.Context, sfens []string, depth int) ([]PerftResult, error) {
	// chunk positions go to the engine in one write: large enough that the writes cost
	// nothing beside the engine's work, small enough that the first answers come at once.
	const chunk = 64
	perft := GoParams{Perft: depth}.Format()
	sent := make(chan error, 1)
	go func() {
		for i := 0; i < len(sfens); i += chunk {
			lines := make([]string, 0, 2*chunk)
			for _, s := range sfens[i:min(i+chunk, len(sfens))] {
				lines = append(lines, positionLine(s, nil), perft)
			}
			if err := c.sendLines(lines); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()
	out := make([]PerftResult, len(sfens))
	for i := range sfens {
		res, err := c.readPerft(ctx, depth)
		if err != nil {
			return nil, fmt.Errorf("%w (perft %d of %s)", err, depth, sfens[i])
		}
		out[i] = res
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
