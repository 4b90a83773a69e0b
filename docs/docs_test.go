// Package docs holds the tests that keep the project's documents true: the import rules of
// architecture.md hold for every package, and every section of rules.md or architecture.md
// that the repository cites exists.
package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestImportRules checks the repository against the rules block of architecture.md.
func TestImportRules(t *testing.T) {
	root, module, text := architecture(t)
	rules, err := parseImportRules(text)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	g, err := loadGraph(root, module)
	if err != nil {
		t.Fatal(err)
	}
	violations, err := checkImports(rules, g)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	for _, v := range violations {
		t.Error(v)
	}
}

// TestImportRulesCatchViolations runs the checker on a small module written here, whose
// violations are worked out by hand: direct, through another package, and from a test file.
func TestImportRulesCatchViolations(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                  "module example.com/m\n\ngo 1.25\n",
		"record/r.go":             "package record\n",
		"rules/a/a.go":            "package a\n\nimport _ \"example.com/m/record\"\n",
		"rules/a/testdata/x.go":   "package x\n\nimport _ \"example.com/m/engine\"\n", // ignored, as go ignores it
		"rules/b/b.go":            "package b\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n",
		"internal/help/h.go":      "package help\n\nimport _ \"example.com/m/rules/b\"\n",
		"mcts/m.go":               "package mcts\n\nimport (\n\t_ \"example.com/m/internal/help\"\n\t_ \"example.com/m/mcts/sub\"\n)\n",
		"mcts/sub/s.go":           "package sub\n",
		"retro/r.go":              "package retro\n",
		"retro/r_test.go":         "package retro_test\n\nimport _ \"example.com/m/engine\"\n",
		"engine/e.go":             "package engine\n\nimport _ \"example.com/m/mcts\"\n",
		"analysis/x/x.go":         "package x\n\nimport (\n\t_ \"example.com/m/record\"\n\t_ \"example.com/m/internal/help\"\n)\n",
		"analysis/y/y.go":         "package y\n",
		"analysis/y/y_test.go":    "package y\n\nimport _ \"example.com/m/engine\"\n",
		"_scratch/s.go":           "package s\n\nimport _ \"example.com/m/engine\"\n", // ignored, as go ignores it
		"rules/a/notes/ignore.md": "import \"example.com/m/engine\"\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rules, err := parseImportRules("text\n```importrules\n# a comment\nrules/...  only nothing\nmcts retro only internal/...   # trailing comment\nanalysis/... not engine/... mcts\n```\nmore text\n")
	if err != nil {
		t.Fatal(err)
	}
	g, err := loadGraph(dir, "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	violations, err := checkImports(rules, g)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range violations {
		got = append(got, v.pkg+" -> "+v.dep)
	}
	want := []string{
		"analysis/y -> engine", // its test imports engine
		"analysis/y -> mcts",   // ... which imports mcts
		"mcts -> rules/b",      // through internal/help; mcts/sub is mcts's own
		"retro -> engine",      // its test imports engine ...
		"retro -> mcts",        // ... which brings mcts,
		"retro -> mcts/sub",    // mcts/sub
		"retro -> rules/b",     // and rules/b; internal/help is allowed
		"rules/a -> record",    // directly
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The messages show the way the dependency comes in.
	for _, v := range violations {
		if v.pkg == "mcts" && !strings.Contains(v.String(), "mcts → internal/help → rules/b") {
			t.Errorf("message %q does not show the import chain", v)
		}
		if v.pkg == "retro" && v.dep == "engine" && !strings.Contains(v.String(), "test") {
			t.Errorf("message %q does not say the import is in a test", v)
		}
	}

	for _, c := range []struct{ block, wantErr string }{
		{"```importrules\nrules/... maybe nothing\n```", `line 1: want "PACKAGES only|not PACKAGES"`},
		{"```importrules\nrules/... not nothing\n```", `line 1: "nothing" only goes with "only"`},
		{"```importrules\nrules/... only\n```", `line 1: want "PACKAGES only|not PACKAGES"`},
		{"no block here", "no ```importrules block"},
		{"```importrules\nrules/... only nothing\n", "not closed"},
	} {
		t.Run(c.wantErr, func(t *testing.T) {
			if _, err := parseImportRules(c.block); err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: error %v, want one containing %q", c.block, err, c.wantErr)
			}
		})
	}
	stale, err := parseImportRules("```importrules\nsolver only nothing\nmcts only lab/...\n```")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkImports(stale, g); err == nil || !strings.Contains(err.Error(), `"solver" matches no package`) {
		t.Errorf("a rule naming no package: error %v", err)
	}
}

// TestCitedSectionsExist checks every citation of a section of rules.md, architecture.md or
// proofs.md (the document's path under docs/, '#', the anchor) written anywhere in the
// repository, and the links between the documents, against the <a id> anchors of the
// documents.
func TestCitedSectionsExist(t *testing.T) {
	root, _ := repoRoot(t)
	anchors := map[string]map[string]bool{}
	for _, doc := range []string{"rules.md", "architecture.md", "proofs.md"} {
		t.Run(doc, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(root, "docs", doc))
			if err != nil {
				t.Fatal(err)
			}
			anchors[doc] = anchorIDs(string(text))
		})
	}
	cite := regexp.MustCompile(`docs/(rules|architecture|proofs)\.md#([A-Za-z0-9_-]+)`)
	link := regexp.MustCompile(`\]\(((rules|architecture|proofs)\.md)?#([^)\s]+)\)`)
	err := walkText(root, func(rel string, text []byte) {
		for _, m := range cite.FindAllSubmatch(text, -1) {
			if doc := string(m[1]) + ".md"; !anchors[doc][string(m[2])] {
				t.Errorf("%s cites docs/%s#%s, which has no such section", rel, doc, m[2])
			}
		}
		if dir, name := filepath.Split(rel); filepath.Clean(dir) == "docs" && anchors[name] != nil {
			for _, m := range link.FindAllSubmatch(text, -1) {
				doc := name
				if len(m[1]) > 0 {
					doc = string(m[1])
				}
				if !anchors[doc][string(m[3])] {
					t.Errorf("%s links to %s#%s, which has no such section", rel, doc, m[3])
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoOutsideDocuments keeps the repository citing its own documents: the design notes the
// project started from (the rules and design notes, the seeds directory, the shared
// directory beside the checkout) are not in the repository, so a reader could not follow a
// citation.
func TestNoOutsideDocuments(t *testing.T) {
	root, _ := repoRoot(t)
	outside := regexp.MustCompile(`\b(RULES|DESIGN)` + `\.md\b|\bseeds` + `/|\.\./shared` + `\b`)
	err := walkText(root, func(rel string, text []byte) {
		for i, line := range bytes.Split(text, []byte("\n")) {
			if m := outside.Find(line); m != nil {
				t.Errorf("%s:%d cites %s, which is not in the repository; cite docs/rules.md or docs/architecture.md", rel, i+1, m)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCIRunsEveryInstaller holds the split of architecture.md#ci: .ci/run calls every
// installer in ci/, and every ci/ script it calls exists.
func TestCIRunsEveryInstaller(t *testing.T) {
	root, _ := repoRoot(t)
	run, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bci/[A-Za-z0-9_.-]+\.sh\b`).FindAll(run, -1) {
		called[string(m)] = true
	}
	scripts, err := filepath.Glob(filepath.Join(root, "ci", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("ci/ holds no installer")
	}
	for _, path := range scripts {
		name := "ci/" + filepath.Base(path)
		if !called[name] {
			t.Errorf(".ci/run does not call %s", name)
		}
		delete(called, name)
	}
	for name := range called {
		t.Errorf(".ci/run calls %s, which does not exist", name)
	}
}

// anchorIDs returns the ids of the <a id="..."></a> anchors in a document.
func anchorIDs(text string) map[string]bool {
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)"></a>`).FindAllStringSubmatch(text, -1) {
		ids[m[1]] = true
	}
	return ids
}

// architecture returns the repository's root, its module path and docs/architecture.md,
// whose blocks the import-rule and word tests read.
func architecture(t *testing.T) (root, module, text string) {
	t.Helper()
	root, module = repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	return root, module, string(b)
}

// repoRoot returns the repository's root (the directory of the go.mod above this test) and
// its module path.
func repoRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for line := range strings.SplitSeq(string(data), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
			t.Fatalf("%s/go.mod has no module line", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// skipDir reports whether the go command ignores a directory, as it does testdata and
// directories whose names begin with . or _; node_modules holds no Go of ours.
func skipDir(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// walkText calls fn with the path (relative to root, slash-separated) and contents of every
// text file in the repository: not .git, not binary files, not compressed data.
func walkText(root string, fn func(rel string, text []byte)) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".gz", ".png", ".svg", ".pdf", ".parquet", ".bin":
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 16<<20 {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(text[:min(len(text), 8000)], 0) >= 0 {
			return nil // binary
		}
		rel, _ := filepath.Rel(root, path)
		fn(filepath.ToSlash(rel), text)
		return nil
	})
}

// An importRule is one line of the rules block: the packages matching left may depend only
// on packages matching right (only), or on none of them (not).
type importRule struct {
	line        int
	left, right []string
	only        bool
}

func (r importRule) String() string {
	verb := "not"
	if r.only {
		verb = "only"
	}
	right := strings.Join(r.right, " ")
	if r.only && len(r.right) == 0 {
		right = "nothing"
	}
	return strings.Join(r.left, " ") + " " + verb + " " + right
}

// parseImportRules reads the ```importrules block of a document.
func parseImportRules(doc string) ([]importRule, error) {
	sc := bufio.NewScanner(strings.NewReader(doc))
	in, closed, found := false, false, false
	var rules []importRule
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !in {
			if line == "```importrules" {
				if found {
					return nil, fmt.Errorf("two ```importrules blocks")
				}
				in, found = true, true
			}
			continue
		}
		if strings.HasPrefix(line, "```") {
			in, closed = false, true
			continue
		}
		n++
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		verb := slices.IndexFunc(fields, func(f string) bool { return f == "only" || f == "not" })
		if verb < 1 || verb == len(fields)-1 {
			return nil, fmt.Errorf("import rules line %d: want \"PACKAGES only|not PACKAGES\", got %q", n, line)
		}
		r := importRule{line: n, left: fields[:verb], right: fields[verb+1:], only: fields[verb] == "only"}
		if slices.Contains(r.right, "nothing") {
			if !r.only || len(r.right) > 1 {
				return nil, fmt.Errorf("import rules line %d: \"nothing\" only goes with \"only\", alone", n)
			}
			r.right = nil
		}
		rules = append(rules, r)
	}
	switch {
	case !found:
		return nil, fmt.Errorf("no ```importrules block")
	case !closed:
		return nil, fmt.Errorf("the ```importrules block is not closed")
	}
	return rules, sc.Err()
}

// A pkgImports is what one package (one directory) of the module imports from the module,
// by path relative to the module: from its own files, and from its test files.
type pkgImports struct {
	imports, testImports map[string]bool
}

// walkGoFiles calls fn with the path of every Go file of the module in root, as the go
// command would see them (testdata, other modules and names starting with . or _ left out),
// and its package: the directory relative to root, slash-separated.
func walkGoFiles(root string, fn func(path, pkg string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		return fn(path, filepath.ToSlash(rel))
	})
}

// loadGraph parses the imports of every Go file of the module in root, as the go command
// would see them (testdata and directories starting with . or _ left out). Build tags are
// ignored: a file for any platform counts.
func loadGraph(root, module string) (map[string]*pkgImports, error) {
	g := map[string]*pkgImports{}
	fset := token.NewFileSet()
	err := walkGoFiles(root, func(path, pkg string) error {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		p := g[pkg]
		if p == nil {
			p = &pkgImports{imports: map[string]bool{}, testImports: map[string]bool{}}
			g[pkg] = p
		}
		into := p.imports
		if strings.HasSuffix(path, "_test.go") {
			into = p.testImports
		}
		for _, spec := range f.Imports {
			ip, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if ip == module {
				into["."] = true
			} else if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
				into[rest] = true
			}
		}
		return nil
	})
	return g, err
}

// A violation is a package that depends on one it may not.
type violation struct {
	pkg, dep string
	chain    []string // pkg, ..., dep: the way the dependency comes in
	viaTest  bool     // the first import of the chain is in a test file
	rule     importRule
}

func (v violation) String() string {
	where := ""
	if v.viaTest {
		where = " (the first import is in a test file)"
	}
	return fmt.Sprintf("%s depends on %s: %s%s; docs/architecture.md#import-rules says %q",
		v.pkg, v.dep, strings.Join(v.chain, " → "), where, v.rule)
}

// matches reports whether pattern (a package path, or a path ending in /... for the package
// and everything below it) matches pkg.
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

func matchesAny(patterns []string, pkg string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return matches(p, pkg) })
}

// checkImports returns every (package, dependency) pair that breaks a rule, sorted. A
// package may always depend on the packages below its own directory. It is an error for a
// rule to name a pattern that matches no package, since the rule would then check nothing.
func checkImports(rules []importRule, g map[string]*pkgImports) ([]violation, error) {
	pkgs := make([]string, 0, len(g))
	for p := range g {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, r := range rules {
		for _, pattern := range append(slices.Clone(r.left), r.right...) {
			if !slices.ContainsFunc(pkgs, func(p string) bool { return matches(pattern, p) }) {
				return nil, fmt.Errorf("import rule %q: %q matches no package", r, pattern)
			}
		}
	}
	var out []violation
	for _, pkg := range pkgs {
		deps := dependencies(g, pkg)
		for _, r := range rules {
			if !matchesAny(r.left, pkg) {
				continue
			}
			for _, dep := range sortedKeys(deps) {
				if strings.HasPrefix(dep, pkg+"/") {
					continue // the package's own subpackages
				}
				if r.only == matchesAny(r.right, dep) {
					continue
				}
				d := deps[dep]
				out = append(out, violation{pkg: pkg, dep: dep, chain: d.chain, viaTest: d.viaTest, rule: r})
			}
		}
	}
	return out, nil
}

type dependency struct {
	chain   []string
	viaTest bool
}

// dependencies returns every package of ours that pkg depends on, with its test files, each
// with one shortest import chain from pkg. Packages reached through other packages count
// only those packages' own (non-test) imports, as a build does.
func dependencies(g map[string]*pkgImports, pkg string) map[string]dependency {
	deps := map[string]dependency{}
	var queue []string
	add := func(p string, d dependency) {
		if _, seen := deps[p]; p == pkg || seen {
			return
		}
		deps[p] = d
		queue = append(queue, p)
	}
	for _, p := range sortedKeys(g[pkg].imports) {
		add(p, dependency{chain: []string{pkg, p}})
	}
	for _, p := range sortedKeys(g[pkg].testImports) {
		add(p, dependency{chain: []string{pkg, p}, viaTest: true})
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if g[p] == nil {
			continue // not in the module; the compiler reports it
		}
		for _, q := range sortedKeys(g[p].imports) {
			add(q, dependency{chain: append(slices.Clone(deps[p].chain), q), viaTest: deps[p].viaTest})
		}
	}
	return deps
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestOneRecordReader holds every package outside record/ to the one way of opening records,
// table.NewReader (docs/architecture.md#concepts): record.NewReader is the JSON Lines engine
// behind it, and record.ScanFile the resume scan of a record file a run appends to, which
// selfplay alone needs.
func TestOneRecordReader(t *testing.T) {
	root, _ := repoRoot(t)
	err := walkGoFiles(root, func(path, pkg string) error {
		if pkg == "record" || strings.HasPrefix(pkg, "record/") || pkg == "docs" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("record.NewReader(")) {
			t.Errorf("%s opens records with record.NewReader: use table.NewReader, the one reader of either format", path)
		}
		if bytes.Contains(b, []byte("record.ScanFile(")) && pkg != "selfplay" {
			t.Errorf("%s calls record.ScanFile, the resume scan of selfplay's record files: read records with table.NewReader", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOneWordPerConcept checks the words block of architecture.md against the exported
// types of every package: each type named by one of the block's words is listed under it,
// and each listed package declares that type.
func TestOneWordPerConcept(t *testing.T) {
	root, _, text := architecture(t)
	listed, err := parseWords(text)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	declared, err := typesNamed(root, slices.Collect(maps.Keys(listed)))
	if err != nil {
		t.Fatal(err)
	}
	for _, word := range sortedKeys(listed) {
		for _, pkg := range sortedKeys(declared[word]) {
			if !listed[word][pkg] {
				t.Errorf("%s declares type %s, which the words block of docs/architecture.md does not list: list it under its concept, or give it another name", pkg, word)
			}
		}
		for _, pkg := range sortedKeys(listed[word]) {
			if !declared[word][pkg] {
				t.Errorf("docs/architecture.md lists %s under %s, but %s declares no exported type %s", pkg, word, pkg, word)
			}
		}
	}
}

// parseWords reads the words block: lines of a word and the packages (directories relative
// to the root) that declare an exported type of that name.
func parseWords(doc string) (map[string]map[string]bool, error) {
	_, rest, ok := strings.Cut(doc, "```words\n")
	if !ok {
		return nil, fmt.Errorf("no ```words block")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		return nil, fmt.Errorf("the words block is not closed")
	}
	words := map[string]map[string]bool{}
	for i, line := range strings.Split(strings.TrimSpace(block), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, fmt.Errorf("words block, line %d: %q: want a word and at least one package", i+1, line)
		}
		words[f[0]] = map[string]bool{}
		for _, pkg := range f[1:] {
			words[f[0]][pkg] = true
		}
	}
	return words, nil
}

// typesNamed returns, for each of names, the package directories (relative to root) whose
// non-test files declare an exported type of that name.
func typesNamed(root string, names []string) (map[string]map[string]bool, error) {
	found := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := walkGoFiles(root, func(path, pkg string) error {
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				name := spec.(*ast.TypeSpec).Name.Name
				if slices.Contains(names, name) {
					if found[name] == nil {
						found[name] = map[string]bool{}
					}
					found[name][pkg] = true
				}
			}
		}
		return nil
	})
	return found, err
}
