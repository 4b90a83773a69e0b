package datasets_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// strengthRow is one line of the README's strength table.
type strengthRow struct {
	match            string // the directory under datasets/strength
	player           string // our engine's name in the records
	wins, draws, los int
	score            float64
	elo              float64
}

// strengthTable parses the table in the top-level README's "Strength" section: the match
// directory in backticks, then the player's name, the limits, W-D-L, score and Elo columns.
func strengthTable(t *testing.T) []strengthRow {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Strength\n")
	if !ok {
		t.Fatal("README.md has no Strength section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []strengthRow
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 8 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		cell := func(i int) string { return strings.Trim(strings.TrimSpace(cells[i]), "`") }
		var r strengthRow
		r.match, r.player = cell(1), cell(2)
		if _, err := fmt.Sscanf(cell(4), "%d–%d–%d", &r.wins, &r.draws, &r.los); err != nil {
			t.Fatalf("README strength row %q: W–D–L %q: %v", r.match, cell(4), err)
		}
		score, _, _ := strings.Cut(cell(5), " ")
		elo, _, _ := strings.Cut(strings.ReplaceAll(cell(6), "−", "-"), " ")
		if r.score, err = strconv.ParseFloat(score, 64); err != nil {
			t.Fatalf("README strength row %q: score %q", r.match, cell(5))
		}
		if r.elo, err = strconv.ParseFloat(elo, 64); err != nil {
			t.Fatalf("README strength row %q: Elo %q", r.match, cell(6))
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("README.md's Strength section has no table rows")
	}
	return rows
}

// TestStrengthTable recounts every row of the README's strength table from the shipped
// records: the games our engine won, drew and lost, its score, and the Elo difference of
// that score by the logistic formula, −400·log10(1/s − 1) (the Elo model's definition, not
// the match's code), to the table's rounding.
func TestStrengthTable(t *testing.T) {
	for _, r := range strengthTable(t) {
		w, d, l := recount(t, r.match, r.player)
		if w != r.wins || d != r.draws || l != r.los {
			t.Errorf("%s: records count %d–%d–%d; README says %d–%d–%d", r.match, w, d, l, r.wins, r.draws, r.los)
		}
		n := float64(w + d + l)
		score := (float64(w) + float64(d)/2) / n
		if math.Abs(score-r.score) > 0.0005+1e-9 { // a half-way score (0.4725) rounds either way
			t.Errorf("%s: score %.4f; README says %.3f", r.match, score, r.score)
		}
		if elo := -400 * math.Log10(1/score-1); math.Abs(elo-r.elo) > 0.5 {
			t.Errorf("%s: Elo %.1f; README says %.0f", r.match, elo, r.elo)
		}
	}
}

// recount counts the wins, draws and losses of player in the shipped records of the match
// directory under datasets/strength, and fails on a game that replays an earlier one (the
// same start, players and moves: docs/tactics.md#replays), which would count twice.
func recount(t *testing.T, match, player string) (w, d, l int) {
	t.Helper()
	games, _, err := record.Recover(filepath.Join(root, "datasets", "strength", match, "games-0-of-1.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, g := range games {
		key := fmt.Sprintf("%s|%s|%v|%s|%v|%s", g.Start, g.Players.Sente.Name, g.Players.Sente.Config, g.Players.Gote.Name, g.Players.Gote.Config, strings.Join(g.Moves, " "))
		if first, ok := seen[key]; ok {
			t.Errorf("%s: game %d replays game %d", match, g.ID, first)
		}
		seen[key] = g.ID
		var ours record.Result
		switch player {
		case g.Players.Sente.Name:
			ours = record.Sente
		case g.Players.Gote.Name:
			ours = record.Gote
		default:
			t.Fatalf("%s game %d: %q does not play", match, g.ID, player)
		}
		switch g.Result {
		case ours:
			w++
		case record.Draw:
			d++
		default:
			l++
		}
	}
	return w, d, l
}

// TestThreadsMatch recounts docs/tactics.md's match of two search goroutines against one
// from its shipped records: the row's W-D-L and the logistic Elo of its score.
func TestThreadsMatch(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "tactics.md"))
	if err != nil {
		t.Fatal(err)
	}
	var wins, draws, losses int
	var elo float64
	found := false
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 6 || strings.TrimSpace(cells[1]) != "Threads 2 vs Threads 1" {
			continue
		}
		_, err1 := fmt.Sscanf(strings.TrimSpace(cells[2]), "%d-%d-%d", &wins, &draws, &losses)
		_, err2 := fmt.Sscanf(strings.TrimSpace(cells[4]), "%f", &elo)
		if err1 != nil || err2 != nil {
			t.Fatalf("docs/tactics.md row %q: %v, %v", line, err1, err2)
		}
		found = true
	}
	if !found {
		t.Fatal("docs/tactics.md has no row for Threads 2 vs Threads 1")
	}
	w, d, l := recount(t, "nnue-mmw/threads-2v1", "threads2")
	if w != wins || d != draws || l != losses {
		t.Errorf("records count %d-%d-%d; docs/tactics.md says %d-%d-%d", w, d, l, wins, draws, losses)
	}
	score := (float64(w) + float64(d)/2) / float64(w+d+l)
	if got := -400 * math.Log10(1/score-1); math.Abs(got-elo) > 0.5 {
		t.Errorf("Elo %.1f; docs/tactics.md says %+.0f", got, elo)
	}
}

// TestOpenings regenerates the first openings of the shipped balanced suite with its
// command from the Shipped datasets section, cut to a smaller --count: walk i depends on the
// seed and i alone, and Fairy-Stockfish judges each at a fixed depth in a new process, so the
// same flags give a prefix of the same openings.
func TestOpenings(t *testing.T) {
	if _, err := exec.LookPath("fairy-stockfish"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fairy-stockfish is not installed (apt-get install fairy-stockfish; it lives in /usr/games)")
		}
		t.Skip("fairy-stockfish is not on PATH")
	}
	args, _ := command(t, "selfplay", "openings/balanced.sfen")
	shippedPath := flagValue(t, args, "-o")
	out := filepath.Join(t.TempDir(), "openings.sfen")
	run(t, "selfplay", withFlag(t, withFlag(t, args, "--count", "3"), "-o", out)...)
	again, shipped := sfenLines(t, out), sfenLines(t, filepath.Join(root, shippedPath))
	if len(again) != 3 || len(shipped) < 3 {
		t.Fatalf("%d regenerated openings, %d shipped", len(again), len(shipped))
	}
	// The openings, not the scores after '#': Fairy-Stockfish's depth-14 score of one
	// position has differed by up to 72 centipawns between processes (the hash it fills
	// while it searches), which may move a position across the margin only at its edge.
	for i, line := range again {
		sfen, _, _ := strings.Cut(line, "#")
		want, _, _ := strings.Cut(shipped[i], "#")
		if strings.TrimSpace(sfen) != strings.TrimSpace(want) {
			t.Errorf("opening %d: regenerated %q, shipped %q", i, line, shipped[i])
		}
	}
}

// sfenLines returns the opening lines of an openings file (without its # comments).
func sfenLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
