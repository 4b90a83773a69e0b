package solver

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// ProofFormat names the first line of a proof file.
const ProofFormat = "shogilab-mate-proof 1"

// WriteProof writes proof in the documented text format:
//
//	shogilab-mate-proof 1
//	root 4k/5/5/P4/KGSBR w - 1
//	attacker b
//	plies 8
//	entries 27
//	4k/5/5/P4/KGSBR b - 1e1a+
//	...
//
// After the header comes one line per attacker node of the proof: the position (board, side
// to move and hands, as in SFEN without the move number) and the attacker's move there in USI
// notation, sorted by position. Defender nodes have no lines: the checker generates every
// legal defence itself. Lines starting with '#' are comments.
func WriteProof(w io.Writer, root minishogi.Position, attacker minishogi.Color, proof *Proof) error {
	lines := make([]string, 0, len(proof.Moves))
	for code, m := range proof.Moves {
		p, err := code.Decode()
		if err != nil {
			return fmt.Errorf("solver: proof: %w", err)
		}
		lines = append(lines, positionKey(&p)+" "+m.String())
	}
	slices.Sort(lines)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\nroot %s\nattacker %s\nplies %d\nentries %d\n", ProofFormat, root.SFEN(), colorLetter(attacker), proof.Plies, len(lines))
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// positionKey is the SFEN of p without its move number.
func positionKey(p *minishogi.Position) string {
	f := strings.Fields(p.SFEN())
	return strings.Join(f[:3], " ")
}

func colorLetter(c minishogi.Color) string {
	if c == minishogi.Sente {
		return "b"
	}
	return "w"
}

// ParseColor reads "b" (Sente) or "w" (Gote).
func ParseColor(s string) (minishogi.Color, error) {
	switch s {
	case "b":
		return minishogi.Sente, nil
	case "w":
		return minishogi.Gote, nil
	}
	return 0, fmt.Errorf("solver: side %q is not b or w", s)
}

// ReadProof reads a proof written by WriteProof. It checks the syntax only (each position is
// valid SFEN, each move is USI notation); whether the proof holds is for CheckProof.
func ReadProof(r io.Reader) (root minishogi.Position, attacker minishogi.Color, proof *Proof, err error) {
	sc := bufio.NewScanner(r)
	lineNo := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("solver: proof line %d: "+format, append([]any{lineNo}, args...)...)
	}
	header := map[string]string{}
	wantHeader := []string{"root", "attacker", "plies", "entries"}
	proof = &Proof{Moves: map[minishogi.Code]minishogi.Move{}}
	entries := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case lineNo == 1:
			if line != ProofFormat {
				return root, 0, nil, fail("got %q, want %q", line, ProofFormat)
			}
			continue
		case len(header) < len(wantHeader):
			key, value, _ := strings.Cut(line, " ")
			if want := wantHeader[len(header)]; key != want {
				return root, 0, nil, fail("got %q, want the %q header", key, want)
			}
			header[key] = value
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return root, 0, nil, fail("got %d fields, want 4 (board, side, hands, move)", len(f))
		}
		p, err := minishogi.ParseSFEN(strings.Join(f[:3], " "))
		if err != nil {
			return root, 0, nil, fail("%v", err)
		}
		m, err := minishogi.ParseMoveSyntax(f[3])
		if err != nil {
			return root, 0, nil, fail("%v", err)
		}
		if _, dup := proof.Moves[p.Code()]; dup {
			return root, 0, nil, fail("position %s appears twice", strings.Join(f[:3], " "))
		}
		proof.Moves[p.Code()] = m
		entries++
	}
	if err := sc.Err(); err != nil {
		return root, 0, nil, fmt.Errorf("solver: proof: %w", err)
	}
	if len(header) < len(wantHeader) {
		return root, 0, nil, fmt.Errorf("solver: proof: the header ends early: no %q line", wantHeader[len(header)])
	}
	if root, err = minishogi.ParseSFEN(header["root"]); err != nil {
		return root, 0, nil, fmt.Errorf("solver: proof: root: %w", err)
	}
	if attacker, err = ParseColor(header["attacker"]); err != nil {
		return root, 0, nil, fmt.Errorf("solver: proof: attacker: %w", err)
	}
	if proof.Plies, err = strconv.Atoi(header["plies"]); err != nil || proof.Plies < 0 {
		return root, 0, nil, fmt.Errorf("solver: proof: plies %q is not a count", header["plies"])
	}
	if n, err := strconv.Atoi(header["entries"]); err != nil || n != entries {
		return root, 0, nil, fmt.Errorf("solver: proof: the header says %q entries, the file has %d", header["entries"], entries)
	}
	proof.AttackerToMove = root.SideToMove() == attacker
	return root, attacker, proof, nil
}
