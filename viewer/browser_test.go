package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// The browser tests drive Debian's chromium, headless, through the DevTools protocol
// (chromedp). Without chromium they skip, except under CI=true, where they fail: .ci/run
// installs it. Each page's screenshot goes to $SHOGILAB_ARTIFACTS/viewer when that is set
// (CI keeps it), and to the directory of -screenshots when given (docs/viewer: go test
// ./viewer -run TestBrowser -screenshots ../docs/viewer).

var screenshotDir = flag.String("screenshots", "", "also write the browser tests' screenshots into this `directory`")

// findChromium returns the chromium binary: $SHOGILAB_CHROMIUM, Debian's, or one on PATH.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("SHOGILAB_CHROMIUM"), "/usr/lib/chromium/chromium"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install chromium; .ci/run does)")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// browser is one headless chromium with one tab, and the console errors of its pages.
type browser struct {
	t      *testing.T
	ctx    context.Context
	mu     sync.Mutex
	errors []string
	shots  []string // directories for screenshots
}

func newBrowser(t *testing.T) *browser {
	path := findChromium(t)
	dir := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(dir), chromedp.WindowSize(1100, 860),
		// The machine's network is closed, and a test must not depend on it: no updates, no
		// sync, no background requests.
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	b := &browser{t: t, ctx: ctx}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		// Chromium's children may write into the profile a little after it stops.
		for range 50 {
			if os.RemoveAll(dir) == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value))
				}
				msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
			}
		case *runtime.EventExceptionThrown:
			msg = (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error()
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				msg = fmt.Sprintf("%s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := os.Getenv("SHOGILAB_ARTIFACTS"); a != "" {
		b.shots = append(b.shots, filepath.Join(a, "viewer"))
	}
	if *screenshotDir != "" {
		b.shots = append(b.shots, *screenshotDir)
	}
	return b
}

// open loads a page and waits for it; the page must log no error.
func (b *browser) open(t *testing.T, u string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	b.checkErrors(t, u)
}

// checkErrors fails the test on any error the pages logged since the last check.
func (b *browser) checkErrors(t *testing.T, where string) {
	t.Helper()
	// Errors arrive as events; a short pause lets those of the page's last work come in.
	if err := chromedp.Do(b.ctx, chromedp.Sleep(50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	errs := b.errors
	b.errors = nil
	b.mu.Unlock()
	for _, e := range errs {
		t.Errorf("%s: the browser logged an error: %s", where, e)
	}
}

// eval runs JavaScript in the page and decodes its value.
func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %.80s: %v", js, err)
	}
	return v
}

// screenshot captures the viewport: it must be a PNG that shows something (more than one
// colour), and it is written to the artifact directories as name.png.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	bounds := img.Bounds()
	first := img.At(bounds.Min.X, bounds.Min.Y)
	blank := true
	for y := bounds.Min.Y; y < bounds.Max.Y && blank; y += 7 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
			if img.At(x, y) != first {
				blank = false
				break
			}
		}
	}
	if bounds.Dx() == 0 || bounds.Dy() == 0 || blank {
		t.Errorf("screenshot %s is empty (%v)", name, bounds)
	}
	for _, dir := range b.shots {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowser opens every page in chromium: each loads without an error in the console and
// shows something, and the interactive ones do what they say.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	b := newBrowser(t)
	records, _, proof := damagedFiles(t)
	paths := []string{shippedGames, shippedMatch, bareKingProof, bareKingCert, records, proof}
	_, ts := newTestServer(t, paths, Options{Depth: 3})
	games := readGames(t, shippedGames)

	t.Run("index", func(t *testing.T) {
		b.open(t, ts.URL+"/")
		b.screenshot(t, "index")
	})
	t.Run("games", func(t *testing.T) {
		b.open(t, ts.URL+"/games?termination=checkmate")
		rows := eval[int](t, b, `document.querySelectorAll("#games tbody tr").length`)
		terms := eval[[]string](t, b, `[...document.querySelectorAll("#games tbody tr")].map(r => r.dataset.termination)`)
		if rows == 0 || slices.ContainsFunc(terms, func(s string) bool { return s != "checkmate" }) {
			t.Errorf("the checkmates: %d rows, terminations %v", rows, terms)
		}
		b.screenshot(t, "games")
	})
	t.Run("game", func(t *testing.T) { testGameStepping(t, b, ts.URL, games) })
	t.Run("lishogi", func(t *testing.T) {
		b.open(t, ts.URL+"/game/0/lishogi")
		text := eval[string](t, b, `document.getElementById("kif-text").value`)
		if !strings.Contains(text, "手合割：5五将棋") {
			t.Errorf("the text for lishogi is not KIF of the normal start:\n%.200s", text)
		}
		b.screenshot(t, "lishogi")
	})
	t.Run("openings", func(t *testing.T) { testExplorer(t, b, ts.URL, shippedGames, shippedMatch) })
	t.Run("match", func(t *testing.T) { testMatch(t, b, ts.URL) })
	t.Run("proof walk", func(t *testing.T) { testProofWalk(t, b, ts.URL+"/proof/2", 8) })
	t.Run("certificate", func(t *testing.T) {
		b.open(t, ts.URL+"/proof/3")
		if n := eval[int](t, b, `document.querySelectorAll("#walk-moves tbody tr").length`); n != 1 {
			t.Errorf("the certificate's root (Gote to move) offers %d replies, want its one", n)
		}
		b.screenshot(t, "certificate")
	})
	t.Run("damaged records", func(t *testing.T) {
		b.open(t, ts.URL+"/source/4")
		if txt := eval[string](t, b, `document.getElementById("error").textContent`); !strings.Contains(txt, "damaged") {
			t.Errorf("the damaged file's page says %q", txt)
		}
		b.screenshot(t, "damaged")
	})
	t.Run("damaged proof", func(t *testing.T) {
		b.open(t, ts.URL+"/proof/5")
		b.screenshot(t, "damaged-proof")
	})
	t.Run("not found", func(t *testing.T) {
		if err := chromedp.Do(b.ctx, chromedp.Navigate(ts.URL+"/game/123456"), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
			t.Fatal(err)
		}
		if txt := eval[string](t, b, `document.getElementById("error").textContent`); txt != "no such page" {
			t.Errorf("the page of a game past the end says %q", txt)
		}
		b.mu.Lock()
		b.errors = nil // the browser logs the 404 itself as a failed load: expected here
		b.mu.Unlock()
	})
}

// testGameStepping steps through a shipped game to its end with the arrow key and the
// buttons: after every step the board's SFEN in the page must be the rules' SFEN after as many
// moves, and at the end the pieces drawn must be the rules' pieces.
func testGameStepping(t *testing.T, b *browser, base string, games []*record.Game) {
	n := 0 // the longest game of the file: the index keeps the file's order
	for i, g := range games {
		if g.Plies > games[n].Plies {
			n = i
		}
	}
	g := games[n]
	b.open(t, fmt.Sprintf("%s/game/%d", base, n))
	pos, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		t.Fatal(err)
	}
	sfen := func() string { return eval[string](t, b, `document.getElementById("board").dataset.sfen`) }
	if got := sfen(); got != pos.SFEN() {
		t.Fatalf("ply 0: the page shows %s, the rules %s", got, pos.SFEN())
	}
	for k, text := range g.Moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		pos.MakeMove(m)
		step := chromedp.KeyEvent(kb.ArrowRight)
		if k%5 == 4 {
			step = chromedp.Click(chromedp.CSS("#forward"))
		}
		if err := chromedp.Do(b.ctx, step); err != nil {
			t.Fatal(err)
		}
		if got := sfen(); got != pos.SFEN() {
			t.Fatalf("after %d moves the page shows %s, the rules %s", k+1, got, pos.SFEN())
		}
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if got, want := sfen(), finalSFEN(t, g); got != want {
		t.Errorf("past the end the page shows %s; the record's final position is %s", got, want)
	}
	// The pieces drawn at the end, read back from the SVG, are the rules' pieces.
	type drawn struct {
		Class, Kanji, Latin string
	}
	squares := eval[[]drawn](t, b, `[...Array(25).keys()].map(i => { const g = document.getElementById("pc" + i);
		return {Class: g.getAttribute("class"), Kanji: g.children[0].textContent, Latin: g.children[1].textContent}; })`)
	for sq, d := range squares {
		pc := pos.PieceAt(minishogi.Square(sq))
		want := drawn{Class: "pc"}
		if pc != minishogi.NoPiece {
			want.Latin = pc.Type().String()
			want.Kanji = d.Kanji // checked below: a kanji is drawn
			if pc.Color() == minishogi.Gote {
				want.Class += " gote"
			}
			if pc.Type().IsPromoted() {
				want.Class += " pro"
			}
			if d.Kanji == "" {
				t.Errorf("square %s: no kanji drawn for %s", minishogi.Square(sq), pc)
			}
		}
		if d != want {
			t.Errorf("square %s: drawn %+v, the rules have %s", minishogi.Square(sq), d, pc)
		}
	}
	for c, id := range map[minishogi.Color]string{minishogi.Sente: "hand-sente", minishogi.Gote: "hand-gote"} {
		text := eval[string](t, b, fmt.Sprintf(`(document.querySelector("#%s .l") || {textContent: ""}).textContent`, id))
		var want []string
		for _, pt := range minishogi.HandTypes {
			switch k := pos.Hand(c, pt); {
			case k == 1:
				want = append(want, pt.String())
			case k > 1:
				want = append(want, pt.String()+strconv.Itoa(k))
			}
		}
		if text != strings.Join(want, " ") {
			t.Errorf("%s's hand is drawn %q; the rules have %q", c, text, strings.Join(want, " "))
		}
	}
	// Home goes back to the start; a click on a move goes to the position after it.
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	start, _ := minishogi.ParseSFEN(g.Start)
	if got := sfen(); got != start.SFEN() {
		t.Errorf("Home: the page shows %s, not the start %s", got, start.SFEN())
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#moves li[data-ply="12"]`))); err != nil {
		t.Fatal(err)
	}
	if got, want := sfen(), finalSFEN(t, &record.Game{Start: g.Start, Moves: g.Moves[:12]}); got != want {
		t.Errorf("a click on move 12: the page shows %s, the rules %s", got, want)
	}
	// Latin letters instead of kanji, and back.
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#script-toggle"))); err != nil {
		t.Fatal(err)
	}
	letters := eval[string](t, b, `getComputedStyle(document.querySelector("#pc24 .l")).display`)
	kanji := eval[string](t, b, `getComputedStyle(document.querySelector("#pc24 .k")).display`)
	if letters == "none" || kanji != "none" {
		t.Errorf("Latin letters chosen: the letters of 1e are displayed %q and the kanji %q", letters, kanji)
	}
	b.screenshot(t, "game-latin")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#script-toggle"))); err != nil {
		t.Fatal(err)
	}
	b.checkErrors(t, "the game page")
	b.screenshot(t, "game")
}

// openingsJSON is what analyze openings --json prints, the fields the explorer shows.
type openingsJSON struct {
	Starts []openingLine `json:"starts"`
	Lines  []openingLine `json:"lines"`
}

type openingLine struct {
	Start         string     `json:"start"`
	Moves         []string   `json:"moves"`
	Games         int        `json:"games"`
	SenteWins     int        `json:"sente_wins"`
	GoteWins      int        `json:"gote_wins"`
	Draws         int        `json:"draws"`
	Score         float64    `json:"score"`
	Interval      [2]float64 `json:"interval"`
	MeanPlies     float64    `json:"mean_plies"`
	PositionGames int        `json:"position_games"`
}

// testExplorer walks the explorer through every line of the first starts and compares each
// move's numbers with those of analyze openings --json on the same files.
func testExplorer(t *testing.T, b *browser, base string, paths ...string) {
	var files []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, err := recordFilesIn(p)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, more...)
		} else {
			files = append(files, p)
		}
	}
	records, _, _ := damagedFiles(t) // the server was given the same damaged file
	files = append(files, records)
	out, err := exec.Command("go", append([]string{"run", "../cmd/analyze", "openings", "--json", "--skip-bad", "--depth", "3"}, files...)...).Output()
	if err != nil {
		t.Fatalf("analyze openings: %v", err)
	}
	var want openingsJSON
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	type row struct {
		Move, Games, Sente, Gote, Draws, Score, Low, High, Mean, PositionGames string
	}
	pages := 0
	for si, st := range want.Starts[:min(3, len(want.Starts))] {
		children := map[string][]openingLine{}
		for _, l := range want.Lines {
			if l.Start == st.Start {
				parent := strings.Join(l.Moves[:len(l.Moves)-1], ",")
				children[parent] = append(children[parent], l)
			}
		}
		for parent, lines := range children {
			q := url.Values{"start": {fmt.Sprint(si)}}
			if parent != "" {
				q.Set("moves", parent)
			}
			b.open(t, base+"/openings?"+q.Encode())
			pages++
			if parent == "" {
				if got := eval[string](t, b, `document.getElementById("board").dataset.sfen`); got != st.Start+" 1" {
					t.Fatalf("start %d: the explorer shows %s, analyze openings %s", si, got, st.Start)
				}
				if got := eval[string](t, b, `document.getElementById("node").dataset.games`); got != fmt.Sprint(st.Games) {
					t.Errorf("start %d: %s games, analyze openings %d", si, got, st.Games)
				}
			}
			rows := eval[[]row](t, b, `[...document.querySelectorAll("#explorer tbody tr")].map(r => ({Move: r.dataset.move,
				Games: r.dataset.games, Sente: r.dataset.sente, Gote: r.dataset.gote, Draws: r.dataset.draws, Score: r.dataset.score,
				Low: r.dataset.low, High: r.dataset.high, Mean: r.dataset.mean, PositionGames: r.dataset.positionGames}))`)
			if len(rows) != len(lines) {
				t.Errorf("start %d, line %q: %d moves shown, analyze openings has %d", si, parent, len(rows), len(lines))
				continue
			}
			for i, l := range lines {
				f := func(x float64) string { return fmt.Sprint(x) }
				w := row{l.Moves[len(l.Moves)-1], fmt.Sprint(l.Games), fmt.Sprint(l.SenteWins), fmt.Sprint(l.GoteWins), fmt.Sprint(l.Draws),
					f(l.Score), f(l.Interval[0]), f(l.Interval[1]), f(l.MeanPlies), fmt.Sprint(l.PositionGames)}
				if rows[i] != w {
					t.Errorf("start %d, line %q: the explorer shows %+v, analyze openings %+v", si, parent, rows[i], w)
				}
			}
			if si == 0 && parent == "" {
				b.screenshot(t, "openings")
			}
		}
	}
	t.Logf("%d explorer pages checked against analyze openings --json", pages)
}

// testMatch checks the match page against the match's own report.json, which cmd/match wrote
// when it played.
func testMatch(t *testing.T, b *browser, base string) {
	raw, err := os.ReadFile(filepath.Join(shippedMatch, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Wins, Draws, Losses int
		Pentanomial         [5]int
		Pairs               int
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	b.open(t, base+"/match/1")
	text := func(id string) string {
		return eval[string](t, b, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
	}
	if got, want := text("wdl"), fmt.Sprintf("%d / %d / %d", rep.Wins, rep.Draws, rep.Losses); got != want {
		t.Errorf("W/D/L %q, report.json %q", got, want)
	}
	p := rep.Pentanomial
	if got, want := text("pentanomial"), fmt.Sprintf("%d, %d, %d, %d, %d", p[0], p[1], p[2], p[3], p[4]); got != want {
		t.Errorf("pentanomial %q, report.json %q", got, want)
	}
	points := eval[int](t, b, `document.querySelector("#llr-chart .llr").points.numberOfItems`)
	if points != rep.Pairs+1 {
		t.Errorf("the LLR is drawn at %d points, want one per pair and the origin: %d", points, rep.Pairs+1)
	}
	b.screenshot(t, "match")
}

// walkRow is one move offered at a node of a walk.
type walkRow struct {
	Move, SFEN string
	Distance   int
}

// testProofWalk walks the bare-king proof from its root through every defence the rules
// allow, each distinct position once: at an attacker node the page must offer one legal move
// whose distance is one less; at a defender node every legal move of the rules and no other,
// the longest one less than the node's; and every line must end where the defender has no
// legal move, which the page must call mate. The root must be mate in wantRoot plies.
func testProofWalk(t *testing.T, b *browser, base string, wantRoot int) {
	root, err := minishogi.Handicap("bare-king") // datasets/README.md: Sente mates Gote, who moves first
	if err != nil {
		t.Fatal(err)
	}
	attacker := minishogi.Sente
	seen := map[string]bool{}
	pages, mates := 0, 0
	var visit func(line []string, pos minishogi.Position, want int)
	visit = func(line []string, pos minishogi.Position, want int) {
		u := base
		if len(line) > 0 {
			u += "?" + url.Values{"line": {strings.Join(line, ",")}}.Encode()
		}
		b.open(t, u)
		pages++
		where := "root"
		if len(line) > 0 {
			where = strings.Join(line, " ")
		}
		if got := eval[string](t, b, `document.getElementById("board").dataset.sfen`); got != pos.SFEN() {
			t.Fatalf("%s: the page shows %s, the rules %s", where, got, pos.SFEN())
		}
		dist := eval[int](t, b, `Number(document.getElementById("walk").dataset.distance)`)
		if dist != want {
			t.Fatalf("%s: mate in %d, but the move to it was listed as mate in %d", where, dist, want)
		}
		if pages == 1 {
			b.screenshot(t, "proof")
		}
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			mated := eval[string](t, b, `document.getElementById("walk").dataset.mated || ""`)
			if pos.SideToMove() == attacker || mated != "true" || dist != 0 {
				t.Fatalf("%s: no legal move for %s; the page says mated=%q at distance %d", where, pos.SideToMove(), mated, dist)
			}
			if mates == 0 {
				b.screenshot(t, "proof-mate")
			}
			mates++
			return
		}
		rows := eval[[]walkRow](t, b, `[...document.querySelectorAll("#walk-moves tbody tr")].map(r => ({Move: r.dataset.move, SFEN: r.dataset.sfen, Distance: Number(r.dataset.distance)}))`)
		var offered []string
		longest := -1
		for _, r := range rows {
			offered = append(offered, r.Move)
			longest = max(longest, r.Distance)
		}
		var allowed []string
		if pos.SideToMove() == attacker {
			if len(rows) != 1 {
				t.Fatalf("%s: the attacker's node offers %d moves, want the proof's one", where, len(rows))
			}
		} else {
			for _, m := range legal {
				allowed = append(allowed, m.String())
			}
			slices.Sort(allowed)
			slices.Sort(offered)
			if !slices.Equal(offered, allowed) {
				t.Fatalf("%s: the defences offered are %v; the rules allow %v", where, offered, allowed)
			}
		}
		if longest+1 != dist {
			t.Fatalf("%s: mate in %d, but the longest move offered leaves %d", where, dist, longest)
		}
		for _, r := range rows {
			m, err := pos.ParseMove(r.Move)
			if err != nil {
				t.Fatalf("%s: the page offers %s: %v", where, r.Move, err)
			}
			child := pos
			child.MakeMove(m)
			if r.SFEN != child.SFEN() {
				t.Fatalf("%s %s: the page says it leads to %s, the rules to %s", where, r.Move, r.SFEN, child.SFEN())
			}
			key := positionKey(&child)
			if seen[key] {
				continue
			}
			seen[key] = true
			visit(append(slices.Clip(line), r.Move), child, r.Distance)
		}
	}
	visit(nil, root, wantRoot)
	if mates == 0 {
		t.Error("the walk reached no mate")
	}
	t.Logf("proof walk: %d pages, %d distinct positions, %d mates", pages, len(seen), mates)
}
