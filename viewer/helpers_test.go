package viewer

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/recordtest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Shipped files the tests view (datasets/README.md says how each was made).
const (
	shippedGames     = "../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz" // 200 games, 400 playouts, with statistics
	shippedMatch     = "../datasets/strength/nnue/100ms"                    // 200 games against Fairy-Stockfish, report.json
	bareKingProof    = "../datasets/handicap/bare-king.proof"
	bareKingCert     = "../datasets/handicap/bare-king.cert"
	twoPieceProof    = "../datasets/handicap/two-piece.proof"
	handWrittenGames = "../analysis/testdata/small.jsonl" // analysis/testdata/README.md counts them by hand
)

// newTestServer serves the files over HTTP on a loopback port, as cmd/view does.
func newTestServer(t testing.TB, paths []string, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config.Handler = s.Handler(ts.Listener.Addr().String())
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

// get fetches a page and returns its status and body.
func get(t testing.TB, ts *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// readGames reads every game of record files with the one reader, as the tests' own view
// of what the files hold.
func readGames(t testing.TB, paths ...string) []*record.Game {
	t.Helper()
	return recordtest.ReadAll(t, paths...)
}

// finalSFEN replays a game with the rules and returns the SFEN of its last position.
func finalSFEN(t testing.TB, g *record.Game) string {
	t.Helper()
	pos, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range g.Moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		pos.MakeMove(m)
	}
	return pos.SFEN()
}

// randomPlayers name the sides of randomRecords' games.
var randomPlayers = []string{"random-a", "random-b", "random-c"}

// writeRandomRecords writes n games of random legal moves from the normal start, each to its
// end by the rules or a play limit of 60 plies, as JSON Lines: self-play of random players,
// a large valid file for the index. Each game's players and moves follow from the seed.
func writeRandomRecords(t testing.TB, path string, n int, seed uint64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	rng := rand.New(rand.NewPCG(seed, 1))
	const maxPlies = 60
	var buf []minishogi.Move
	for id := range n {
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: maxPlies})
		var moves []string
		for !g.Result().Over() {
			pos := g.Position()
			buf = pos.LegalMoves(buf[:0])
			m := buf[rng.IntN(len(buf))]
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m.String())
		}
		res := g.Result()
		a, b := rng.IntN(3), rng.IntN(2)
		if b >= a {
			b++
		}
		rec := &record.Game{ID: id, Seed: seed + uint64(id), Variant: "minishogi", Start: minishogi.StartSFEN, StartName: "startpos",
			Moves: moves, Result: record.Result(res.String()), Termination: record.Termination(res.Termination.String()), Plies: len(moves),
			Players: record.Players{Sente: record.Player{Name: randomPlayers[a], Kind: record.KindRandom}, Gote: record.Player{Name: randomPlayers[b], Kind: record.KindRandom}},
			Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: maxPlies}, Version: "viewer-test"}
		line, err := record.MarshalLine(rec)
		if err != nil {
			t.Fatal(err)
		}
		bw.Write(line)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// damagedFiles writes a record file with bad lines among good ones, a file of binary junk, and
// a proof with one move changed, and returns their paths.
func damagedFiles(t testing.TB) (records, junk, proof string) {
	t.Helper()
	dir := t.TempDir()
	good, err := os.ReadFile(handWrittenGames)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	records = filepath.Join(dir, "damaged.jsonl")
	text := lines[0] + "{\"id\": 99, this is not JSON\n" + lines[1] + strings.Repeat("x", 100) + "\n" + lines[2]
	if err := os.WriteFile(records, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	junk = filepath.Join(dir, "junk.jsonl.gz")
	if err := os.WriteFile(junk, []byte("\x1f\x8b\x08\x00 not really gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := os.ReadFile(bareKingProof)
	if err != nil {
		t.Fatal(err)
	}
	// The proof's first position line gets another legal move for the attacker: a proof that no
	// longer holds.
	plines := strings.Split(string(p), "\n")
	for i, l := range plines {
		if f := strings.Fields(l); len(f) == 4 && !strings.HasPrefix(l, "root") {
			pos, err := minishogi.ParseSFEN(strings.Join(f[:3], " "))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range pos.LegalMoves(nil) {
				if m.String() != f[3] {
					f[3] = m.String()
					break
				}
			}
			plines[i] = strings.Join(f, " ")
			break
		}
	}
	proof = filepath.Join(dir, "broken.proof")
	if err := os.WriteFile(proof, []byte(strings.Join(plines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return records, junk, proof
}

func mustContain(t testing.TB, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s: no %q in the page", what, w)
		}
	}
}

func pathf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
