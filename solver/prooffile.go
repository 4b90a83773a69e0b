package solver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// ProofFormat names the first line of a proof file, CertificateFormat that of a disproof
// certificate.
const (
	ProofFormat       = "shogilab-mate-proof 1"
	CertificateFormat = "shogilab-nomate-certificate 1"
)

// WriteProof writes proof in the text format that docs/proofs.md specifies (the grammar,
// compression, each entry's meaning and what a checker verifies):
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
	return writeMoves(w, ProofFormat, root, attacker, proof.Plies, proof.Moves)
}

// WriteCertificate writes a disproof certificate in the format of WriteProof, with the first
// line CertificateFormat: "plies L" says that the attacker has no forced mate within L plies,
// and each line is a defender position with the defender's escaping reply there. Attacker
// positions have no lines: the checker generates every attacker move itself.
func WriteCertificate(w io.Writer, root minishogi.Position, attacker minishogi.Color, d *Certificate) error {
	return writeMoves(w, CertificateFormat, root, attacker, d.Plies, d.Replies)
}

func writeMoves(w io.Writer, format string, root minishogi.Position, attacker minishogi.Color, plies int, moves map[minishogi.Code]minishogi.Move) error {
	lines := make([]string, 0, len(moves))
	for code, m := range moves {
		p, err := code.Decode()
		if err != nil {
			return fmt.Errorf("solver: proof: %w", err)
		}
		lines = append(lines, positionKey(&p)+" "+m.String())
	}
	slices.Sort(lines)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\nroot %s\nattacker %s\nplies %d\nentries %d\n", format, root.SFEN(), colorLetter(attacker), plies, len(lines))
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
	return 0, fmt.Errorf("solver: side %s is not b or w", bounded.Quote([]byte(s)))
}

// ReadProof reads a proof written by WriteProof. It checks the syntax only (each position is
// valid SFEN, each move is USI notation); whether the proof holds is for CheckProof.
func ReadProof(r io.Reader) (root minishogi.Position, attacker minishogi.Color, proof *Proof, err error) {
	root, attacker, plies, moves, err := readMoves(r, ProofFormat)
	if err != nil {
		return root, attacker, nil, err
	}
	return root, attacker, &Proof{Plies: plies, AttackerToMove: root.SideToMove() == attacker, Moves: moves}, nil
}

// ReadCertificate reads a disproof certificate written by WriteCertificate, checking its
// syntax only; whether it holds is for CheckCertificate.
func ReadCertificate(r io.Reader) (root minishogi.Position, attacker minishogi.Color, d *Certificate, err error) {
	root, attacker, plies, moves, err := readMoves(r, CertificateFormat)
	if err != nil {
		return root, attacker, nil, err
	}
	return root, attacker, &Certificate{Plies: plies, AttackerToMove: root.SideToMove() == attacker, Replies: moves}, nil
}

func readMoves(r io.Reader, format string) (root minishogi.Position, attacker minishogi.Color, plies int, moves map[minishogi.Code]minishogi.Move, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), MaxLineBytes)
	lineNo := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("solver: proof line %d: "+format, append([]any{lineNo}, args...)...)
	}
	header := map[string]string{}
	wantHeader := []string{"root", "attacker", "plies", "entries"}
	moves = map[minishogi.Code]minishogi.Move{}
	entries, declared := 0, 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case lineNo == 1:
			if line != format {
				return root, 0, 0, nil, fail("got %s, want %q", bounded.Quote([]byte(line)), format)
			}
			continue
		case len(header) < len(wantHeader):
			key, value, _ := strings.Cut(line, " ")
			if want := wantHeader[len(header)]; key != want {
				return root, 0, 0, nil, fail("got %s, want the %q header", bounded.Quote([]byte(key)), want)
			}
			header[key] = value
			if key == "entries" {
				// The table is bounded by the count the header declares, checked here,
				// before any entry is read.
				n, err := strconv.Atoi(value)
				if err != nil || n < 0 || n > MaxEntries {
					return root, 0, 0, nil, fail("entries %s is not a count from 0 to %d", bounded.Quote([]byte(value)), MaxEntries)
				}
				declared = n
			}
			continue
		}
		if entries == declared {
			return root, 0, 0, nil, fail("more entries than the %d the header declares", declared)
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return root, 0, 0, nil, fail("got %d fields, want 4 (board, side, hands, move)", len(f))
		}
		p, err := minishogi.ParseSFEN(strings.Join(f[:3], " "))
		if err != nil {
			return root, 0, 0, nil, fail("%v", err)
		}
		m, err := minishogi.ParseMoveSyntax(f[3])
		if err != nil {
			return root, 0, 0, nil, fail("%v", err)
		}
		if _, dup := moves[p.Code()]; dup {
			return root, 0, 0, nil, fail("position %s appears twice", strings.Join(f[:3], " "))
		}
		moves[p.Code()] = m
		entries++
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return root, 0, 0, nil, fmt.Errorf("solver: proof line %d: longer than %s", lineNo+1, bounded.Size(MaxLineBytes))
		}
		return root, 0, 0, nil, fmt.Errorf("solver: proof: %w", err)
	}
	if len(header) < len(wantHeader) {
		return root, 0, 0, nil, fmt.Errorf("solver: proof: the header ends early: no %q line", wantHeader[len(header)])
	}
	if root, err = minishogi.ParseSFEN(header["root"]); err != nil {
		return root, 0, 0, nil, fmt.Errorf("solver: proof: root: %w", err)
	}
	if attacker, err = ParseColor(header["attacker"]); err != nil {
		return root, 0, 0, nil, fmt.Errorf("solver: proof: attacker: %w", err)
	}
	if plies, err = strconv.Atoi(header["plies"]); err != nil || plies < 0 {
		return root, 0, 0, nil, fmt.Errorf("solver: proof: plies %s is not a count", bounded.Quote([]byte(header["plies"])))
	}
	if entries != declared {
		return root, 0, 0, nil, fmt.Errorf("solver: proof: the header says %d entries, the file has %d", declared, entries)
	}
	return root, attacker, plies, moves, nil
}
