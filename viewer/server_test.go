package viewer

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestPages fetches every kind of page and checks facts each shows against a source of its
// own: the hand counts of analysis/testdata/README.md, the KIF conventions, the match's
// report.json, and the mate lengths of the README's handicap table.
func TestPages(t *testing.T) {
	_, ts := newTestServer(t, []string{handWrittenGames, shippedMatch, bareKingProof, bareKingCert}, Options{})
	for _, c := range []struct {
		name, path string
		wants      []string
	}{
		{"index", "/", []string{handWrittenGames, shippedMatch, bareKingProof, bareKingCert, "207 games indexed"}},
		{"games", "/games", []string{"207 games", "alpha", "beta", "resignation"}},
		{"games of one file", "/games?src=1", []string{"7 games selected"}},
		{"sente wins", "/games?src=1&result=sente", []string{"3 games selected"}},
		{"play limit", "/games?src=1&termination=max_plies", []string{"1 games selected"}},
		{"long games", "/games?src=1&min=4", []string{"2 games selected"}},
		{"short games", "/games?src=1&max=1", []string{"2 games selected"}},
		{"alpha's games", "/games?player=alpha", []string{"7 games selected"}},
		{"nobody's games", "/games?player=nobody", []string{"0 games selected"}},
		{"second page", "/games?page=2", []string{"page 2 of 5"}},
		// Game 0 of small.jsonl opens 2e3d (the bishop from 2e to 3d) 4a3b 3e2d 3a4b.
		{"game", "/game/0", []string{"３四角(25)", "2e3d", "3a4b", `id="frames"`, "alpha", "beta"}},
		{"KIF", "/game/0/kif", []string{"手合割：5五将棋", "３四角(25)", "先手：alpha", "後手：beta"}},
		{"CSA", "/game/0/csa", []string{"V2.2", "+2534KA"}},
		{"for lishogi", "/game/0/lishogi", []string{"手合割：5五将棋", "lishogi"}},
		{"a game with statistics", "/game/7", []string{`id="graph"`, `class="value"`, "visits"}},
		// The first moves of every game given: small.jsonl's 2e3d (3 games), 3e2d (2), 5d5c (2),
		// and the match's own.
		{"openings", "/openings", []string{`data-move="5d5c"`, `data-move="3e2d"`, `data-move="2e3d"`}},
		{"openings, a line", "/openings?moves=2e3d", []string{`data-move="4a3b"`}},
		// datasets/strength/nnue/100ms/report.json: 16 wins, 0 draws, 184 losses; pairs 86, 0,
		// 12, 0, 2; Elo -424.3 [-556.3, -344.6].
		{"match", "/match/1", []string{"16 / 0 / 184", "86, 0, 12, 0, 2", "-424.3 [-556.3, -344.6]", `id="llr-chart"`, "shogilab-nnue", "fairy-stockfish"}},
		{"proof", "/proof/2", []string{`data-distance="8"`, "Mate in <b id=\"distance\">8</b>", "every legal defence"}},
		{"certificate", "/proof/3", []string{"no mate within 6 plies", "every legal move"}},
		{"source", "/source/0", []string{handWrittenGames, "7"}},
		{"style", "/assets/view.css", []string{"board-svg"}},
		{"script", "/assets/view.js", []string{"pieceClass"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := get(t, ts, c.path)
			if code != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", c.path, code, body)
			}
			mustContain(t, c.path, body, c.wants...)
		})
	}
}

// TestHostileURLs sends what an attacker or a careless link might: paths out of the tree,
// numbers out of range, huge values, markup, other methods and other hosts. None may reach a
// file not given, fail the server, or echo markup.
func TestHostileURLs(t *testing.T) {
	_, ts := newTestServer(t, []string{handWrittenGames, shippedMatch, bareKingProof}, Options{})
	long := strings.Repeat("x", 100_000)
	line := strings.TrimSuffix(strings.Repeat("1a2a,", 300), ",")
	secrets := regexp.MustCompile(`module github.com/shogilab|root:x:0:0|package viewer`)
	for _, c := range []struct {
		name, path string
		code       int
	}{
		{"parent of the root", "/../go.mod", 404},
		{"escaped parent in an asset", "/assets/..%2f..%2fgo.mod", 404},
		{"dotted asset", "/assets/%2e%2e", 404},
		{"an asset below", "/assets/templates%2flayout.html", 404},
		{"a source file by name", "/assets/server.go", 404},
		{"a system file", "/game/..%2f..%2fetc%2fpasswd", 404},
		{"cleaned to a system file", "/source/0/../../../etc/passwd", 404},
		{"NUL", "/assets/view.css%00", 404},
		{"negative game", "/game/-1", 404},
		{"game in exponent", "/game/1e3", 404},
		{"game with a zero", "/game/00", 404},
		{"huge game", "/game/99999999999999999999999999", 404},
		{"game past the end", "/game/207", 404},
		{"source past the end", "/source/3", 404},
		{"not a match", "/match/0", 404},
		{"not a proof", "/proof/0", 404},
		{"huge page", "/games?page=99999999999999999999", 400},
		{"page past the end", "/games?page=999", 404},
		{"page in words", "/games?page=two", 400},
		{"huge query", "/games?player=" + long, 414},
		{"long filter", "/games?player=" + long[:1500], 400},
		{"long path", "/game/" + long[:3000], 414},
		{"deep opening line", "/openings?moves=" + strings.TrimSuffix(strings.Repeat("2e3d,", 50), ","), 400},
		{"not a move", "/openings?moves=2e3d,<xss>", 400},
		{"line of nonsense", "/proof/2?line=" + line, 400},
		{"illegal move in a line", "/proof/2?line=1a1a", 404},
		{"a defence off the board", "/proof/2?line=9z9z", 400},
		{"opening no game plays", "/openings?moves=1e1d", 404},
		{"unknown start", "/openings?start=500", 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", ts.URL+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = c.path // sent as written, not cleaned by the client
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.code {
				t.Errorf("GET %.80s: %d, want %d", c.path, resp.StatusCode, c.code)
			}
			if secrets.Match(body) {
				t.Errorf("GET %.80s: the answer shows a file that was not given", c.path)
			}
			if strings.Contains(string(body), "<xss>") || strings.Contains(string(body), "<script>alert") {
				t.Errorf("GET %.80s: markup from the URL is echoed", c.path)
			}
		})
	}
	t.Run("markup in a filter", func(t *testing.T) {
		code, body := get(t, ts, "/games?player="+url.QueryEscape("<script>alert(1)</script>"))
		if code != 200 || strings.Contains(body, "<script>alert") {
			t.Errorf("status %d; the markup is echoed: %v", code, strings.Contains(body, "<script>alert"))
		}
	})
	t.Run("POST", func(t *testing.T) {
		resp, err := http.Post(ts.URL+"/games", "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST: %d, want 405", resp.StatusCode)
		}
	})
	t.Run("another host", func(t *testing.T) {
		req, _ := http.NewRequest("GET", ts.URL+"/", nil)
		req.Host = "attacker.example:80"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %s: %d, want 403", req.Host, resp.StatusCode)
		}
	})
	t.Run("headers", func(t *testing.T) {
		resp, err := http.Get(ts.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("Content-Security-Policy %q", csp)
		}
	})
}

// TestDamagedFiles starts on files that are damaged in every way the tests can think of: the
// server must start, read what can be read, and say what cannot.
func TestDamagedFiles(t *testing.T) {
	records, junk, proof := damagedFiles(t)
	_, ts := newTestServer(t, []string{records, junk, proof}, Options{})
	for _, c := range []struct {
		name, path string
		code       int
		wants      []string
	}{
		{"index", "/", 200, []string{`class="damaged"`, "2 bad records skipped", "gzip"}},
		{"records", "/source/0", 200, []string{"This file is damaged", "damaged.jsonl:2", "damaged.jsonl:4"}},
		{"junk", "/source/1", 200, []string{"This file is damaged", "gzip"}},
		{"games read", "/games", 200, []string{"3 games"}},
		{"a game read", "/game/2", 200, []string{"３四角(25)"}},
		{"proof", "/proof/2", 200, []string{"This file cannot be walked", "the proof does not hold"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := get(t, ts, c.path)
			if code != c.code {
				t.Fatalf("GET %s: %d\n%s", c.path, code, body)
			}
			mustContain(t, c.path, body, c.wants...)
		})
	}
	t.Run("a record that changed since", func(t *testing.T) {
		if err := os.WriteFile(records, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, body := get(t, ts, "/game/1")
		if code != 200 {
			t.Fatalf("GET /game/1: %d", code)
		}
		mustContain(t, "/game/1", body, "this record cannot be read")
		if code, _ := get(t, ts, "/game/1/kif"); code != 422 {
			t.Errorf("GET /game/1/kif: %d, want 422", code)
		}
	})
}

func TestMissingFileIsAnError(t *testing.T) {
	if _, err := New([]string{filepath.Join(t.TempDir(), "none.jsonl")}, Options{}); err == nil {
		t.Error("New with a file that does not exist: no error")
	}
}

// TestTwoPieceProof walks into the two-piece proof: the README's handicap table says Sente
// mates within 22 plies and not within 20, so the root is mate in exactly 22.
func TestTwoPieceProof(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and checks 59,633 positions")
	}
	_, ts := newTestServer(t, []string{twoPieceProof}, Options{})
	code, body := get(t, ts, "/proof/0")
	if code != 200 {
		t.Fatalf("GET /proof/0: %d\n%s", code, body)
	}
	mustContain(t, "the two-piece proof", body, `data-distance="22"`, "within 22 plies")
}

// TestConcurrentPages fetches pages from many goroutines at once, for the race detector.
func TestConcurrentPages(t *testing.T) {
	_, ts := newTestServer(t, []string{handWrittenGames, bareKingProof}, Options{})
	paths := []string{"/", "/games?result=gote", "/game/3", "/game/4/kif", "/openings?moves=2e3d", "/proof/1", "/proof/1?line=1a2a", "/source/0"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				p := paths[(g+i)%len(paths)]
				resp, err := http.Get(ts.URL + p)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Errorf("GET %s: %d", p, resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
}
