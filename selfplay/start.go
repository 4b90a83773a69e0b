package selfplay

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// Opening is a start position of a run: its record name (start_name) and SFEN.
type Opening struct {
	Name string // "startpos", a handicap name or "opening:<n>" (n is the 1-based line)
	SFEN string
}

// ParseStart reads the --start flag: "startpos" (or ""), a handicap name
// (minishogi.HandicapNames), an SFEN, or "@FILE", a file of SFEN openings,
// one a line, that games use in turn (see Match.Opening). In the file,
// blank lines and lines starting with '#' are skipped; a line may be a bare
// SFEN or "sfen SFEN" as USI writes it.
func ParseStart(spec string) ([]Opening, error) {
	if path, ok := strings.CutPrefix(spec, "@"); ok {
		return ReadOpenings(path)
	}
	if pos, err := minishogi.NamedStart(spec); err == nil {
		name := spec
		if name == "" {
			name = "startpos"
		}
		return []Opening{{Name: name, SFEN: pos.SFEN()}}, nil
	}
	if strings.Contains(spec, "/") {
		pos, err := minishogi.ParseSFEN(strings.TrimPrefix(spec, "sfen "))
		if err != nil {
			return nil, fmt.Errorf("selfplay: --start %q: %w", spec, err)
		}
		if err := playable(pos); err != nil {
			return nil, fmt.Errorf("selfplay: --start %q: %w", spec, err)
		}
		return []Opening{{SFEN: pos.SFEN()}}, nil
	}
	return nil, fmt.Errorf("selfplay: --start %q is not startpos, a handicap (%s), an SFEN or @file of SFEN openings", spec, strings.Join(minishogi.HandicapNames(), ", "))
}

// playable checks that the side to move has a move: a start must not be over.
func playable(pos minishogi.Position) error {
	var ml minishogi.MoveList
	pos.GenerateLegal(&ml)
	if ml.N == 0 {
		return fmt.Errorf("the side to move has no legal move")
	}
	return nil
}

// ReadOpenings reads a file of SFEN openings (see ParseStart), plain or
// gzip-compressed. Every SFEN is checked with the rules, and an error names
// the file and line.
func ReadOpenings(path string) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("selfplay: openings: %w", err)
	}
	defer f.Close()
	in := bufio.NewReader(f)
	var r io.Reader = in
	if magic, _ := in.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, fmt.Errorf("selfplay: openings %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var openings []Opening
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#") // a comment, on a line of its own or after the SFEN
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		text = strings.TrimSpace(strings.TrimPrefix(text, "sfen "))
		pos, err := minishogi.ParseSFEN(text)
		if err != nil {
			return nil, fmt.Errorf("selfplay: openings %s:%d: %w", path, line, err)
		}
		if err := playable(pos); err != nil {
			return nil, fmt.Errorf("selfplay: openings %s:%d: %w", path, line, err)
		}
		openings = append(openings, Opening{Name: "opening:" + strconv.Itoa(line), SFEN: pos.SFEN()})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("selfplay: openings %s: %w", path, err)
	}
	if len(openings) == 0 {
		return nil, fmt.Errorf("selfplay: openings %s: no SFEN in the file", path)
	}
	return openings, nil
}
