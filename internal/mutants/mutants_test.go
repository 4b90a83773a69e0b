package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestListApplies: every planted bug of the table still applies to the code, once, and
// names test packages that exist. When this fails after an edit, update the entry in
// list.go so the audit keeps planting the same bug.
func TestListApplies(t *testing.T) {
	if err := check(filepath.Join("..", ".."), planted); err != nil {
		t.Fatal(err)
	}
	if len(planted) < 50 {
		t.Errorf("%d planted bugs; the audit of issue 38 planted 50", len(planted))
	}
}

func TestApply(t *testing.T) {
	src := []byte("a := b + c\nd := b - c\n")
	if got, err := apply(src, "b + c", "b - c"); err != nil || string(got) != "a := b - c\nd := b - c\n" {
		t.Errorf("once: %q, %v", got, err)
	}
	for _, c := range []struct{ was, want string }{
		{"b * c", "is not in the file"},
		{"b ", "occurs 2 times"},
	} {
		t.Run(c.was, func(t *testing.T) {
			if _, err := apply(src, c.was, "x"); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: %v, want an error with %q", c.was, err, c.want)
			}
		})
	}
}

// TestCheckNamesStaleRows: a table whose rows no longer apply is refused before anything
// runs, with every such row named and why: text that is gone, text that occurs twice, a
// file that is gone, a test package that is gone.
func TestCheckNamesStaleRows(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "add.go"), []byte("package tiny\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := []Mutant{
		{ID: "fine", File: "add.go", Was: "a + b", Now: "a - b", Tests: []string{"./"}},
		{ID: "gone", File: "add.go", Was: "a * b", Now: "a / b", Tests: []string{"./"}},
		{ID: "twice", File: "add.go", Was: "b", Now: "a", Tests: []string{"./"}},
		{ID: "moved", File: "sub.go", Was: "a - b", Now: "a + b", Tests: []string{"./"}},
		{ID: "no-tests", File: "add.go", Was: "a + b", Now: "b + a", Tests: []string{"./sub/"}},
	}
	err := check(dir, list)
	if err == nil {
		t.Fatal("a table with stale rows is accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`mutant gone: add.go: the text "a * b" is not in the file (the code changed: update internal/mutants/list.go)`,
		`mutant twice: add.go: the text "b" occurs 2 times in the file; make it unique`,
		"mutant moved: open " + filepath.Join(dir, "sub.go") + ": no such file or directory (the code moved: update internal/mutants/list.go)",
		"mutant no-tests: test package ./sub/: stat " + filepath.Join(dir, "sub") + ": no such file or directory",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("error %d: %s\nwant %s", i, lines[i], want[i])
		}
	}
	// The command checks the rows it is asked to run before it copies or runs anything:
	// here the module is dir, which has none of the table's files.
	var stdout, stderr strings.Builder
	err = run(context.Background(), []string{"-module", dir, "-only", "proof-memo,side-seed"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "mutant proof-memo: open "+filepath.Join(dir, "retro", "proof.go")) ||
		!strings.Contains(err.Error(), "mutant side-seed: open ") || stdout.Len() > 0 {
		t.Errorf("mutants -module on a module without the files: %v (printed %q)", err, stdout.String())
	}
}

// TestFailedBy reads outputs of go test as it prints them.
func TestFailedBy(t *testing.T) {
	for _, c := range []struct{ name, out, want string }{
		{"subtest", "--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/one (0.00s)\n        x_test.go:9: bad\nFAIL\n", "TestA/one"},
		{"two tests", "--- FAIL: TestA (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\n", "TestA"},
		{"timeout", "panic: test timed out after 1s\n\trunning tests:\n\t\tTestA (1s)\n", "timeout"},
		{"timeout in a package", "panic: test timed out after 1s\n\trunning tests:\n\t\tTestA (1s)\nFAIL\texample.com/tiny\t1.005s\nok  \texample.com/other\t0.1s\n", "timeout in example.com/tiny"},
		{"panic", "panic: runtime error: index out of range [3] with length 3\n", "panic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := failedBy([]byte(c.out)); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		})
	}
	if got := firstMessage([]byte("--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/one (0.00s)\n        x_test.go:9: bad\nFAIL\n")); got != "x_test.go:9: bad" {
		t.Errorf("first message %q", got)
	}
	out := "# example.com/tiny\n./add.go:3:30: syntax error: unexpected newline\nFAIL\texample.com/tiny [build failed]\n"
	if got := buildFailure([]byte(out)); got != "./add.go:3:30: syntax error: unexpected newline" {
		t.Errorf("build failure: %q", got)
	}
	if got := buildFailure([]byte("--- FAIL: TestA (0.00s)\nFAIL\n")); got != "" {
		t.Errorf("a failing test read as a build failure: %q", got)
	}
}

// TestAuditTinyModule runs the audit on a module of one function and one test: a bug the
// test catches is killed, a change the test cannot see survives (declared equivalent, it
// is reported so), and a change that does not compile is broken.
func TestAuditTinyModule(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/tiny\n\ngo 1.26\n",
		"add.go":      "package tiny\n\nfunc Add(a, b int) int { return a + b }\n",
		"add_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(Add(2, 3))\n\t}\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list := []Mutant{
		{ID: "minus", File: "add.go", Was: "a + b", Now: "a - b", Tests: []string{"./"}},
		{ID: "swap", File: "add.go", Was: "a + b", Now: "b + a", Tests: []string{"./"}, Short: true, Equivalent: "addition commutes"},
		{ID: "syntax", File: "add.go", Was: "a + b }", Now: "a + }", Tests: []string{"./"}},
	}
	if err := check(dir, list); err != nil {
		t.Fatal(err)
	}
	copied := t.TempDir()
	if err := copyModule(dir, copied); err != nil {
		t.Fatal(err)
	}
	steps := 0
	results, err := audit(context.Background(), copied, list, time.Minute, func() { steps++ })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"minus": Killed, "swap": Equivalent, "syntax": Broken}
	for _, r := range results {
		if r.Verdict != want[r.ID] {
			t.Errorf("%s: %s (%+v), want %s", r.ID, r.Verdict, r.Runs, want[r.ID])
		}
	}
	if len(results) != 3 || results[0].Runs[0].By != "TestAdd" || len(results[1].Runs) != 2 || steps != 6 {
		t.Errorf("results %+v after %d go test runs; want TestAdd to kill minus, swap run in both modes, 6 runs", results, steps)
	}
	// The copy is put back after every planted bug.
	if b, _ := os.ReadFile(filepath.Join(copied, "add.go")); string(b) != files["add.go"] {
		t.Errorf("the copy's add.go is left as %q", b)
	}
}
