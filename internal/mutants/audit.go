package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Mode is one way of running a package's tests: "full" (as CI runs them) or "short"
// (with -short, as people run them while they work).
type Mode string

const (
	Full  Mode = "full"
	Short Mode = "short"
)

// modes are the ways m's tests must catch it.
func (m Mutant) modes() []Mode {
	if m.Short {
		return []Mode{Full, Short}
	}
	return []Mode{Full}
}

// Run is one go test of a planted bug in one mode.
type Run struct {
	Mode    Mode    `json:"mode"`
	Caught  bool    `json:"caught"`
	By      string  `json:"by,omitempty"` // the first failing test, "timeout" or "panic"
	Broken  string  `json:"broken,omitempty"`
	Seconds float64 `json:"seconds"`
	output  []byte  // go test's, for the message when the unchanged tests fail
}

// Verdicts of a planted bug.
const (
	Killed     = "killed"
	Survived   = "survived"
	Equivalent = "equivalent"
	Broken     = "broken" // the change does not build: a mistake in the table
)

// Finding is the audit's finding on one planted bug.
type Finding struct {
	ID      string `json:"id"`
	File    string `json:"file"`
	What    string `json:"what"`
	Issue   bool   `json:"issue"`
	Verdict string `json:"verdict"`
	Runs    []Run  `json:"runs"`
	Note    string `json:"note,omitempty"` // why an equivalent mutant survives
}

// verdict sums up the runs: killed only when every mode caught the bug.
func verdict(m Mutant, runs []Run) string {
	for _, r := range runs {
		if r.Broken != "" {
			return Broken
		}
	}
	for _, r := range runs {
		if !r.Caught {
			if m.Equivalent != "" {
				return Equivalent
			}
			return Survived
		}
	}
	return Killed
}

// apply returns src with the one occurrence of was replaced by now; more or fewer
// occurrences are an error, since the planted bug would then be ambiguous or stale.
func apply(src []byte, was, now string) ([]byte, error) {
	switch n := bytes.Count(src, []byte(was)); n {
	case 1:
		return bytes.Replace(src, []byte(was), []byte(now), 1), nil
	case 0:
		return nil, fmt.Errorf("the text %q is not in the file (the code changed: update internal/mutants/list.go)", was)
	default:
		return nil, fmt.Errorf("the text %q occurs %d times in the file; make it unique", was, n)
	}
}

// check reports every entry of list that is malformed or does not apply to the module at
// root, one line each, so that one run after an edit names all the entries to update.
func check(root string, list []Mutant) error {
	var errs []error
	ids := map[string]bool{}
	for _, m := range list {
		if err := checkOne(root, m, ids); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkOne reports what is wrong with m, whose id must not be in ids (it is added).
func checkOne(root string, m Mutant, ids map[string]bool) error {
	switch {
	case m.ID == "" || strings.ContainsAny(m.ID, " ,"):
		return fmt.Errorf("mutant %q: an id is one word without commas", m.ID)
	case ids[m.ID]:
		return fmt.Errorf("mutant %s: the id is used twice", m.ID)
	case m.Was == m.Now:
		return fmt.Errorf("mutant %s: the change changes nothing", m.ID)
	case len(m.Tests) == 0:
		return fmt.Errorf("mutant %s: no test packages", m.ID)
	}
	ids[m.ID] = true
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return fmt.Errorf("mutant %s: %w (the code moved: update internal/mutants/list.go)", m.ID, err)
	}
	if _, err := apply(src, m.Was, m.Now); err != nil {
		return fmt.Errorf("mutant %s: %s: %w", m.ID, m.File, err)
	}
	for _, p := range m.Tests {
		if !strings.HasPrefix(p, "./") {
			return fmt.Errorf("mutant %s: test package %q: want a path from the module's root, as ./retro/", m.ID, p)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return fmt.Errorf("mutant %s: test package %s: %w", m.ID, p, err)
		}
	}
	return nil
}

// copyModule copies the module at src into dst (which exists), leaving out version control.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.Name() == ".git" && rel != "." {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // a worktree's .git file
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case info.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(to, b, info.Mode().Perm())
		}
		return nil // sockets, devices: nothing a test reads
	})
}

// tester runs package tests in a copy of the module.
type tester struct {
	dir     string
	timeout time.Duration
}

// run runs the tests of pkgs in mode and says whether they failed and how.
func (t tester) run(ctx context.Context, pkgs []string, mode Mode) (Run, error) {
	args := []string{"test", "-count=1", "-failfast", "-timeout", t.timeout.String()}
	if mode == Short {
		args = append(args, "-short")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkgs...)...)
	cmd.Dir = t.dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	r := Run{Mode: mode, Seconds: time.Since(start).Seconds(), output: out}
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return r, nil
	case !errors.As(err, &exit):
		return r, fmt.Errorf("go test: %w", err)
	}
	if broken := buildFailure(out); broken != "" {
		r.Broken = broken
		return r, nil
	}
	r.Caught, r.By = true, failedBy(out)
	return r, nil
}

var (
	failLine    = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	failPackage = regexp.MustCompile(`(?m)^FAIL\s+(\S+)\s`)
	buildLine   = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: .*$`)
)

// buildFailure returns the first compiler error of go test's output when a package did not
// build, or "".
func buildFailure(out []byte) string {
	if !bytes.Contains(out, []byte("[build failed]")) && !bytes.Contains(out, []byte("[setup failed]")) {
		return ""
	}
	if m := buildLine.Find(out); m != nil {
		return string(m)
	}
	return "the package does not build"
}

// failedBy names what failed in go test's output: the first failing test (its deepest
// subtest shown), a timeout (with the package's path), or a panic.
func failedBy(out []byte) string {
	if bytes.Contains(out, []byte("panic: test timed out")) {
		if m := failPackage.FindSubmatch(out); m != nil {
			return "timeout in " + string(m[1])
		}
		return "timeout"
	}
	var names []string
	for _, m := range failLine.FindAllSubmatch(out, -1) {
		names = append(names, string(m[1]))
	}
	if len(names) == 0 {
		if bytes.Contains(out, []byte("panic:")) {
			return "panic"
		}
		return "go test failed"
	}
	// go test prints a failed subtest under its parent: report the first top-level test
	// that failed, by its deepest subtest.
	first := names[0]
	for _, n := range names[1:] {
		if strings.HasPrefix(n, first+"/") {
			first = n
		}
	}
	return first
}

// firstMessage is the first line a failing test logged in go test's output, or "".
func firstMessage(out []byte) string {
	loc := failLine.FindIndex(out)
	if loc == nil {
		return ""
	}
	for line := range strings.SplitSeq(string(out[loc[1]:]), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "(") && !strings.HasPrefix(line, "--- FAIL") {
			return line
		}
	}
	return ""
}

// packages are the distinct test packages of list, sorted, with the modes they run in.
func packages(list []Mutant) map[Mode][]string {
	set := map[Mode]map[string]bool{}
	for _, m := range list {
		for _, mode := range m.modes() {
			if set[mode] == nil {
				set[mode] = map[string]bool{}
			}
			for _, p := range m.Tests {
				set[mode][p] = true
			}
		}
	}
	out := map[Mode][]string{}
	for mode, ps := range set {
		for p := range ps {
			out[mode] = append(out[mode], p)
		}
		slices.Sort(out[mode])
	}
	return out
}

// audit plants each bug of list in the module copied to dir, one at a time, and returns
// the findings. Before any bug it runs the packages' tests unchanged: they must pass.
// step is called after every go test.
func audit(ctx context.Context, dir string, list []Mutant, timeout time.Duration, step func()) ([]Finding, error) {
	t := tester{dir: dir, timeout: timeout}
	for _, mode := range []Mode{Full, Short} {
		pkgs := packages(list)[mode]
		if len(pkgs) == 0 {
			continue
		}
		r, err := t.run(ctx, pkgs, mode)
		step()
		switch {
		case err != nil:
			return nil, err
		case r.Broken != "":
			return nil, fmt.Errorf("the module does not build without a planted bug: %s", r.Broken)
		case r.Caught:
			return nil, fmt.Errorf("the %s tests fail without a planted bug (%s: %s), so no failure could be told from a kill", mode, r.By, firstMessage(r.output))
		}
	}
	var results []Finding
	for _, m := range list {
		path := filepath.Join(dir, filepath.FromSlash(m.File))
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("mutant %s: %w", m.ID, err)
		}
		mutated, err := apply(src, m.Was, m.Now)
		if err != nil {
			return nil, fmt.Errorf("mutant %s: %s: %w", m.ID, m.File, err)
		}
		if err := os.WriteFile(path, mutated, 0o644); err != nil {
			return nil, err
		}
		res := Finding{ID: m.ID, File: m.File, What: m.What, Issue: m.Issue, Note: m.Equivalent}
		for _, mode := range m.modes() {
			r, err := t.run(ctx, m.Tests, mode)
			step()
			if err != nil {
				os.WriteFile(path, src, 0o644)
				return nil, fmt.Errorf("mutant %s: %w", m.ID, err)
			}
			res.Runs = append(res.Runs, r)
			if r.Broken != "" {
				break
			}
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return nil, err
		}
		res.Verdict = verdict(m, res.Runs)
		results = append(results, res)
	}
	return results, nil
}

// selected returns the mutants of list named in only (comma-separated ids; empty: all).
func selected(list []Mutant, only string) ([]Mutant, error) {
	if only == "" {
		return list, nil
	}
	var out []Mutant
	for id := range strings.SplitSeq(only, ",") {
		id = strings.TrimSpace(id)
		i := slices.IndexFunc(list, func(m Mutant) bool { return m.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("no planted bug %q (mutants -list shows them)", id)
		}
		out = append(out, list[i])
	}
	return out, nil
}
