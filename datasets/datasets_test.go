// Package datasets_test checks the shipped datasets: each is regenerated, in part, from the
// command README.md records for it, and must match what is shipped.
package datasets_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/shogilab/shogilab/internal/duckdbtest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

// root is the repository root, where the README's commands run.
const root = ".."

// command returns the arguments (after "go run ./cmd/NAME") of the one command line in
// README.md's "Shipped datasets" section that runs cmd/NAME and contains mark, and the file its
// output is redirected to, if any.
func command(t *testing.T, name, mark string) (args []string, redirect string) {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Shipped datasets\n")
	if !ok {
		t.Fatal("README.md has no Shipped datasets section")
	}
	prefix := "go run ./cmd/" + name + " "
	var found []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, prefix) && strings.Contains(line, mark) {
			found = append(found, line)
		}
	}
	if len(found) != 1 {
		t.Fatalf("README.md: %d command lines of cmd/%s contain %q; want 1", len(found), name, mark)
	}
	line, redirect, _ := strings.Cut(strings.TrimPrefix(found[0], prefix), " > ")
	return splitWords(t, line), strings.TrimSpace(redirect)
}

// splitWords splits a command line at spaces, keeping "..." together (the README's commands
// use nothing more of the shell).
func splitWords(t *testing.T, line string) []string {
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

// withFlag returns args with the value of flag replaced; the flag must be there.
func withFlag(t *testing.T, args []string, flag, value string) []string {
	t.Helper()
	out := append([]string(nil), args...)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == flag {
			out[i+1] = value
			return out
		}
	}
	t.Fatalf("%v has no %s", args, flag)
	return nil
}

func flagValue(t *testing.T, args []string, flag string) string {
	t.Helper()
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag {
			return args[i+1]
		}
	}
	t.Fatalf("%v has no %s", args, flag)
	return ""
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// run builds the commands once and runs cmd/name with args from the repository root,
// returning its standard output.
func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "shogilab-datasets-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir, "./cmd/selfplay", "./cmd/analyze", "./cmd/solve", "./cmd/train")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// comparable strips what differs between two runs of the same game: the timing fields and the
// toolkit version.
func comparable(g *record.Game) *record.Game {
	c := *g
	c.Stats = append([]record.MoveStats(nil), g.Stats...)
	c.StripTiming()
	c.Version = ""
	return &c
}

// checkSelfplay replays the first games of a shipped self-play file with its README command
// cut to those games: game ids and seeds depend only on the base seed, so they must be the
// same games, move for move and statistic for statistic.
func checkSelfplay(t *testing.T, mark string, games int) {
	args, _ := command(t, "selfplay", mark)
	shipped, _, err := record.Recover(filepath.Join(root, flagValue(t, args, "--out"), "games-0-of-1.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args = withFlag(t, withFlag(t, args, "--games", fmt.Sprint(games)), "--out", out)
	run(t, "selfplay", args...)
	again, _, err := record.Recover(filepath.Join(out, "games-0-of-1.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != games {
		t.Fatalf("regenerated %d games; want %d", len(again), games)
	}
	byID := map[int]*record.Game{}
	for _, g := range shipped {
		byID[g.ID] = g
	}
	for _, g := range again {
		want, ok := byID[g.ID]
		if !ok {
			t.Fatalf("game %d is not in the shipped file", g.ID)
		}
		if !reflect.DeepEqual(comparable(g), comparable(want)) {
			a, _ := record.MarshalLine(comparable(g))
			b, _ := record.MarshalLine(comparable(want))
			t.Errorf("game %d differs from the shipped one:\nregenerated %s\nshipped     %s", g.ID, a, b)
		}
	}
}

// TestShippedRecordsVerify runs every shipped record file through selfplay verify with the
// base seed of its README command: every game of every file is replayed with the rules, its
// end checked, its seed checked, and the file holds the games the command asked for.
func TestShippedRecordsVerify(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "datasets", "selfplay", "*", "games-*.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	ladder, _ := filepath.Glob(filepath.Join(root, "datasets", "selfplay", "ladder", "*", "games-*.jsonl.gz"))
	files = append(files, ladder...)
	if len(files) != 7 { // mcts400 and the six ladder pairings (README.md)
		t.Fatalf("%d shipped record files: %v", len(files), files)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, filepath.Dir(f))
		args, _ := command(t, "selfplay", "--out "+rel)
		var sum struct{ Files, Games int }
		out := run(t, "selfplay", "verify", "--json", "--seed", flagValue(t, args, "--seed"), filepath.Join(rel, filepath.Base(f)))
		if err := json.Unmarshal(out, &sum); err != nil {
			t.Fatalf("%s: %v: %s", rel, err, out)
		}
		if want := flagValue(t, args, "--games"); fmt.Sprint(sum.Games) != want || sum.Files != 1 {
			t.Errorf("%s: verify read %d games in %d files; the command asked for %s", rel, sum.Games, sum.Files, want)
		}
	}
}

func TestSelfplayGames(t *testing.T) {
	checkSelfplay(t, "--out datasets/selfplay/mcts400", 3)
}

func TestLadderGames(t *testing.T) {
	checkSelfplay(t, "--out datasets/selfplay/ladder/mcts100-vs-mcts400", 2)
}

// TestMawariReport reruns the whole command (seconds) and compares everything but the speed.
func TestMawariReport(t *testing.T) {
	args, file := command(t, "analyze", "mawari")
	got := decode(t, run(t, "analyze", args...))
	want := decode(t, readFile(t, file))
	for _, m := range []map[string]any{got, want} {
		sim, ok := m["simulation"].(map[string]any)
		if !ok {
			t.Fatal("the Mawari report has no simulation")
		}
		delete(sim, "throws_per_second") // the machine's speed
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the regenerated Mawari report differs from %s", file)
	}
}

func TestBushiDefault(t *testing.T) {
	args, file := command(t, "solve", "bushi --json >")
	if got, want := decode(t, run(t, "solve", args...)), decode(t, readFile(t, file)); !reflect.DeepEqual(got, want) {
		t.Errorf("the regenerated Bushi solution differs from %s:\n%v\n%v", file, got, want)
	}
}

// TestBushiAllLayouts checks the layout study, which takes minutes to redo: every layout it
// names (an example of each result, the longest win of each side) is solved again on its own
// with the command's single-layout form and must give the result and length the study states;
// and the counts must cover the 16^6 layouts exactly.
func TestBushiAllLayouts(t *testing.T) {
	args, file := command(t, "solve", "--all-layouts")
	if !reflect.DeepEqual(args, []string{"bushi", "--all-layouts", "--json"}) {
		t.Fatalf("the README's command is %v; this test knows how to check bushi --all-layouts --json", args)
	}
	var st struct {
		Classes, Raw int
		Results      map[string]struct {
			Classes, Layouts int
			Example, Longest string
			ExamplePlies     int `json:"example_plies"`
			LongestPlies     int `json:"longest_plies"`
		}
	}
	if err := json.Unmarshal(readFile(t, file), &st); err != nil {
		t.Fatal(err)
	}
	if st.Raw != 1<<24 {
		t.Errorf("raw layouts %d; want 16^6 = %d", st.Raw, 1<<24)
	}
	classes, raw := 0, 0
	dir := t.TempDir()
	for _, winner := range []string{"black", "white", "draw"} {
		r, ok := st.Results[winner]
		if !ok {
			t.Fatalf("no %s results", winner)
		}
		classes += r.Classes
		raw += r.Layouts
		for _, named := range []struct {
			layout string
			plies  int
		}{{r.Example, r.ExamplePlies}, {r.Longest, r.LongestPlies}} {
			if named.layout == "" {
				continue
			}
			path := filepath.Join(dir, "layout.txt")
			if err := os.WriteFile(path, []byte(named.layout+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var one struct {
				Winner string
				Plies  int
			}
			if err := json.Unmarshal(run(t, "solve", "bushi", "--layout", path, "--json"), &one); err != nil {
				t.Fatal(err)
			}
			if one.Winner != winner || one.Plies != named.plies {
				t.Errorf("layout %q: solved alone %s in %d plies; the study says %s in %d", named.layout, one.Winner, one.Plies, winner, named.plies)
			}
		}
	}
	if classes != st.Classes || raw != st.Raw {
		t.Errorf("results add up to %d classes and %d layouts; the totals say %d and %d", classes, raw, st.Classes, st.Raw)
	}
	// The per-result counts themselves: the whole study again (about 75 s on 2 cores),
	// which must agree with the shipped file in everything but the machine's part.
	if testing.Short() {
		t.Log("the layout study is not redone in -short mode")
		return
	}
	got, want := decode(t, run(t, "solve", args...)), decode(t, readFile(t, file))
	for _, m := range []map[string]any{got, want} {
		delete(m, "workers")
		delete(m, "seconds")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the regenerated layout study differs from %s:\n%v\n%v", file, got, want)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHandicapProofs regenerates each shipped proof with its README command, which must write
// the same bytes, and checks the shipped proof with the solver's checker, which replays every
// defence with the rules engine's move generator. The three-piece and two-piece proofs take
// minutes to make, so they are regenerated only with SHOGILAB_FULL_DATASETS=1. The two-piece
// proof is an upper bound (--upper: a mate within 22 plies, not claimed minimal), so its
// minimality is not checked.
func TestHandicapProofs(t *testing.T) {
	for _, tc := range []struct {
		name        string
		slow, upper bool
	}{{"bare-king", false, false}, {"four-piece", false, false}, {"three-piece", true, false}, {"two-piece", true, true}} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			args, _ := command(t, "solve", "--proof datasets/handicap/"+name+".proof")
			file := flagValue(t, args, "--proof")
			shipped := readFile(t, file)
			certFile := ""
			if slices.Contains(args, "--certificate") {
				certFile = flagValue(t, args, "--certificate")
				checkCertificate(t, certFile, name)
			}
			if !tc.slow || os.Getenv("SHOGILAB_FULL_DATASETS") == "1" {
				dir := t.TempDir()
				fresh, freshCert := filepath.Join(dir, name+".proof"), filepath.Join(dir, name+".cert")
				fargs := withFlag(t, args, "--proof", fresh)
				if certFile != "" {
					fargs = withFlag(t, fargs, "--certificate", freshCert)
				}
				run(t, "solve", fargs...)
				got, err := os.ReadFile(fresh)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, shipped) {
					t.Errorf("the regenerated proof differs from %s", file)
				}
				if certFile != "" {
					if got, err := os.ReadFile(freshCert); err != nil || !bytes.Equal(got, readFile(t, certFile)) {
						t.Errorf("the regenerated certificate differs from %s (%v)", certFile, err)
					}
				}
			} else {
				t.Logf("%s not regenerated (it takes minutes; SHOGILAB_FULL_DATASETS=1 does it)", file)
			}
			root, attacker, proof, err := solver.ReadProof(bytes.NewReader(shipped))
			if err != nil {
				t.Fatal(err)
			}
			want, err := minishogi.Handicap(name)
			if err != nil {
				t.Fatal(err)
			}
			if root.SFEN() != want.SFEN() || attacker != minishogi.Sente {
				t.Fatalf("%s proves a mate from %s for %v; want %s for Sente", file, root.SFEN(), attacker, want.SFEN())
			}
			if err := solver.CheckProof(root, proof); err != nil {
				t.Errorf("%s does not hold: %v", file, err)
			}
			if tc.upper {
				if !slices.Contains(args, "--upper") {
					t.Errorf("%s: the README's command has no --upper, but the test takes it for an upper bound", name)
				}
				return
			}
			// Minimality: no mate two plies shorter (a mate's length has the parity of
			// the root's role, so two plies shorter is the next length down). df-pn decides
			// it exactly; for the 16-ply three-piece proof this takes a minute or two.
			if testing.Short() && proof.Plies > 8 {
				t.Logf("minimality of %s not checked in -short mode", file)
				return
			}
			d, err := solver.SolveDFPN(root, attacker, solver.DFPNOptions{MaxPlies: proof.Plies - 2, NoProof: true, MemoryBudget: 4 << 30})
			if err != nil {
				t.Fatal(err)
			}
			if d.Found || d.Stopped {
				t.Errorf("%s proves a mate in %d plies, but df-pn finds one in %d", file, proof.Plies, d.Plies)
			}
		})
	}
}

// TestHandicapCertificates checks the shipped disproof certificates of the handicaps whose
// lower bounds are too large to write beside their proofs; SHOGILAB_FULL_DATASETS=1 also makes
// each again with its README command and compares the bytes (three-piece: minutes; two-piece:
// some 75 minutes of df-pn on one free core and 12 GB). The two-piece check reads 7.4 million
// entries: some two minutes of one core and 2 GB.
func TestHandicapCertificates(t *testing.T) {
	for _, c := range []struct {
		name  string
		plies int
		mark  string // the README command's words after "handicap"
	}{
		{"three-piece", 14, "three-piece --max-plies 14 "},
		{"two-piece", 18, "two-piece --max-plies 18 "},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := "datasets/handicap/" + c.name + ".cert.xz"
			plain, cert := checkCertificate(t, file, c.name)
			if cert.Plies != c.plies {
				t.Fatalf("%s: no mate within %d plies; want %d", file, cert.Plies, c.plies)
			}
			if os.Getenv("SHOGILAB_FULL_DATASETS") != "1" {
				t.Logf("%s not regenerated (SHOGILAB_FULL_DATASETS=1 does it)", file)
				return
			}
			args, _ := command(t, "solve", "handicap "+c.mark)
			fresh := filepath.Join(t.TempDir(), c.name+".cert")
			run(t, "solve", withFlag(t, args, "--certificate", fresh)...)
			if got, err := os.ReadFile(fresh); err != nil || !bytes.Equal(got, plain) {
				t.Errorf("the regenerated certificate differs from %s (%v)", file, err)
			}
		})
	}
}

// checkCertificate checks a shipped disproof certificate of a handicap (plain or compressed,
// as solver.OpenFile reads it) with the solver's certificate checker, which replays every
// attacker move with the rules engine's generator, and returns its text and the certificate.
func checkCertificate(t *testing.T, file, name string) ([]byte, *solver.Certificate) {
	t.Helper()
	f, err := solver.OpenFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	pos, attacker, cert, err := solver.ReadCertificate(bytes.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	want, err := minishogi.Handicap(name)
	if err != nil {
		t.Fatal(err)
	}
	if pos.SFEN() != want.SFEN() || attacker != minishogi.Sente {
		t.Fatalf("%s is about %s for %v; want %s for Sente", file, pos.SFEN(), attacker, want.SFEN())
	}
	if err := solver.CheckCertificate(pos, cert); err != nil {
		t.Errorf("%s does not hold: %v", file, err)
	}
	return plain, cert
}

// TestDuckDBQuestion reruns the README's "same question in DuckDB": the
// analyze command, the export and the SQL over the export, and checks that
// both answers are the README's table.
func TestDuckDBQuestion(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### The same question in DuckDB\n")
	if !ok {
		t.Fatal("README.md has no section The same question in DuckDB")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var analyzeArgs, exportArgs []string
	for _, line := range strings.Split(section, "\n") {
		if rest, ok := strings.CutPrefix(line, "go run ./cmd/analyze "); ok {
			analyzeArgs = splitWords(t, rest)
		}
		if rest, ok := strings.CutPrefix(line, "go run ./cmd/selfplay "); ok {
			exportArgs = splitWords(t, rest)
		}
	}
	_, sql, _ := strings.Cut(section, "```sql\n")
	sql, _, _ = strings.Cut(sql, "```")
	if analyzeArgs == nil || exportArgs == nil || sql == "" {
		t.Fatal("the section lacks the analyze command, the export command or the SQL")
	}
	// The table: | move | games | sente | gote | draws | score |.
	var want []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) == 6 && cells[0] != "move" && cells[0] != "---" {
			want = append(want, strings.Join(cells, " "))
		}
	}
	if len(want) < 5 {
		t.Fatalf("the README's table has %d rows", len(want))
	}

	// The toolkit's answer.
	var report struct {
		Lines []struct {
			Moves     []string
			Games     int
			SenteWins int `json:"sente_wins"`
			GoteWins  int `json:"gote_wins"`
			Draws     int
			Score     float64
		}
	}
	out := run(t, "analyze", append(analyzeArgs[:1:1], append([]string{"--json"}, analyzeArgs[1:]...)...)...)
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatal(err)
	}
	type line struct {
		move                      string
		games, sente, gote, draws int
		score                     float64
	}
	var ours []line
	for _, l := range report.Lines {
		ours = append(ours, line{l.Moves[0], l.Games, l.SenteWins, l.GoteWins, l.Draws, l.Score})
	}
	sort.SliceStable(ours, func(i, j int) bool {
		if ours[i].games != ours[j].games {
			return ours[i].games > ours[j].games
		}
		return ours[i].move < ours[j].move
	})
	var got []string
	for _, l := range ours {
		got = append(got, fmt.Sprintf("%s %d %d %d %d %.3f", l.move, l.games, l.sente, l.gote, l.draws, l.score))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("analyze openings gives\n%s\nthe README says\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// DuckDB's answer over the export.
	if !duckdbtest.Available(t) {
		return
	}
	dir := t.TempDir()
	run(t, "selfplay", withFlag(t, exportArgs, "--out", dir)...)
	sql = strings.ReplaceAll(sql, "/tmp/mcts400", dir)
	got = nil
	for _, r := range duckdbtest.Query(t, sql) {
		score, _ := r["score"].(float64)
		got = append(got, fmt.Sprintf("%v %v %v %v %v %.3f", r["move"], r["games"], r["sente"], r["gote"], r["draws"], score))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DuckDB gives\n%s\nthe README says\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
