package selfplay

import (
	"bufio"
	"fmt"
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
// (minishogi.HandicapNames), or "@FILE", a file of SFEN openings, one a line,
// that games use in turn (game id uses opening id mod count). In the file,
// blank lines and lines starting with '#' are skipped; a line may be a bare
// SFEN or "sfen SFEN" as USI writes it.
func ParseStart(spec string) ([]Opening, error) {
	if path, ok := strings.CutPrefix(spec, "@"); ok {
		return ReadOpenings(path)
	}
	pos, err := minishogi.NamedStart(spec)
	if err != nil {
		return nil, fmt.Errorf("selfplay: --start %q is not startpos, a handicap (%s) or @file of SFEN openings", spec, strings.Join(minishogi.HandicapNames(), ", "))
	}
	name := spec
	if name == "" {
		name = "startpos"
	}
	return []Opening{{Name: name, SFEN: pos.SFEN()}}, nil
}

// ReadOpenings reads a file of SFEN openings (see ParseStart). Every SFEN is
// checked with the rules, and an error names the file and line.
func ReadOpenings(path string) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("selfplay: openings: %w", err)
	}
	defer f.Close()
	var openings []Opening
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		text = strings.TrimSpace(strings.TrimPrefix(text, "sfen "))
		pos, err := minishogi.ParseSFEN(text)
		if err != nil {
			return nil, fmt.Errorf("selfplay: openings %s:%d: %w", path, line, err)
		}
		var ml minishogi.MoveList
		pos.GenerateLegal(&ml)
		if ml.N == 0 {
			return nil, fmt.Errorf("selfplay: openings %s:%d: the side to move has no legal move", path, line)
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
