package viewer

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExport writes a static site and follows every link of every page: each must name a file
// of the site, relative to it, so that the site works from a directory or an archive.
func TestExport(t *testing.T) {
	s, err := New([]string{handWrittenGames, shippedMatch, bareKingProof, bareKingCert}, Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := s.Export(dir, 100_000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Skipped != 0 || st.Failed != 0 {
		t.Errorf("export: %+v; want nothing skipped or failed", st)
	}
	links := regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	pages := 0
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		pages++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range links.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if target == "data:," {
				continue // the empty icon
			}
			if strings.HasPrefix(target, "/") || strings.Contains(target, "://") || strings.Contains(target, "?") {
				t.Errorf("%s links to %q: not a file of the site", filepath.Base(path), target)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, target)); err != nil {
				t.Errorf("%s links to %q, which was not written", filepath.Base(path), target)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every game of the files has its page, its KIF and CSA; the proof and certificate walks
	// start at their roots.
	for _, name := range []string{"index.html", "games-p1.html", "game-0.html", "game-206.html", "game-0.kif", "game-0.csa", "match-1.html",
		"proof-2.html", "proof-3.html", "openings-0.html", "assets/view.js", "assets/view.css"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the export has no %s", name)
		}
	}
	t.Logf("%d files, %d pages", st.Pages, pages)
	kif, _ := os.ReadFile(filepath.Join(dir, "game-0.kif"))
	mustContain(t, "game-0.kif", string(kif), "３四角(25)")

	t.Run("limit", func(t *testing.T) {
		dir := t.TempDir()
		st, err := s.Export(dir, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Skipped == 0 || st.Pages > 12 {
			t.Errorf("export with a limit of 10 pages: %+v", st)
		}
	})
}
