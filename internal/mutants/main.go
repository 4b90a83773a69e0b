package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shogilab/shogilab/internal/cli"
)

// The audit stops on its own when ctx is cancelled (go test is killed with it) and then
// removes its copy of the module.
func main() {
	os.Exit(cli.RunOne(cli.Command{Name: "mutants", Run: run, Graceful: true}, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	module := fs.String("module", "", "the module to audit (default: the one holding the current directory)")
	only := fs.String("only", "", "comma-separated ids of the planted bugs to run (default: all)")
	list := fs.Bool("list", false, "print the planted bugs and exit")
	timeout := fs.Duration("timeout", 30*time.Minute, "go test's -timeout for each run: generous, since a busy machine slows the tests (a run that hangs counts as caught)")
	asJSON := fs.Bool("json", false, "print the findings as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, "usage: mutants [flags]\n\nPlants each bug of internal/mutants/list.go, one at a time, in a copy of the module and\nreports which ones the tests let through (see internal/mutants/doc.go)."); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q (mutants -h)", fs.Arg(0))
	}
	if *timeout <= 0 {
		return cli.Usagef("--timeout %v: need a positive duration", *timeout)
	}
	chosen, err := selected(planted, *only)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if *list {
		return printList(stdout, chosen)
	}
	root := *module
	if root == "" {
		if root, err = moduleRoot(); err != nil {
			return err
		}
	}
	if err := check(root, chosen); err != nil {
		return fmt.Errorf("%s: %w", root, err)
	}
	tmp, err := os.MkdirTemp("", "shogilab-mutants-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyModule(root, tmp); err != nil {
		return fmt.Errorf("copying %s: %w", root, err)
	}
	runs := len(packages(chosen))
	for _, m := range chosen {
		runs += len(m.modes())
	}
	update, finish := cli.NewProgress(stderr, runs, "go test runs")
	done := 0
	results, err := audit(ctx, tmp, chosen, *timeout, func() { done++; update(done) })
	finish()
	if err != nil {
		return err
	}
	if *asJSON {
		if err := printJSON(stdout, root, results); err != nil {
			return err
		}
	} else if err := printTable(stdout, results); err != nil {
		return err
	}
	var bad []string
	for _, r := range results {
		if r.Verdict == Survived || r.Verdict == Broken {
			bad = append(bad, r.ID+" ("+r.Verdict+")")
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d of %d planted bugs not caught: %s", len(bad), len(results), strings.Join(bad, ", "))
	}
	return nil
}

// moduleRoot is the directory of the go.mod that governs the current directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module (give --module)")
	}
	return filepath.Dir(mod), nil
}

func printList(w io.Writer, list []Mutant) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFILE\tTESTS\tBUG")
	for _, m := range list {
		tests := strings.Join(m.Tests, " ")
		if m.Short {
			tests += " (and -short)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.ID, m.File, tests, m.What)
	}
	return tw.Flush()
}

// counts are the findings by verdict.
func counts(results []Finding) map[string]int {
	n := map[string]int{}
	for _, r := range results {
		n[r.Verdict]++
	}
	return n
}

func printTable(w io.Writer, results []Finding) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFILE\tVERDICT\tBY")
	for _, r := range results {
		var by []string
		for _, run := range r.Runs {
			switch {
			case run.Broken != "":
				by = append(by, run.Broken)
			case run.Caught:
				by = append(by, fmt.Sprintf("%s: %s", run.Mode, run.By))
			default:
				by = append(by, fmt.Sprintf("%s: not caught", run.Mode))
			}
		}
		if r.Verdict == Equivalent {
			by = append(by, r.Note)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.File, r.Verdict, strings.Join(by, "; "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	n := counts(results)
	_, err := fmt.Fprintf(w, "\n%d planted bugs: %d killed, %d survived, %d equivalent, %d broken\n",
		len(results), n[Killed], n[Survived], n[Equivalent], n[Broken])
	return err
}

func printJSON(w io.Writer, root string, results []Finding) error {
	n := counts(results)
	return json.NewEncoder(w).Encode(struct {
		Module     string    `json:"module"`
		Mutants    int       `json:"mutants"`
		Killed     int       `json:"killed"`
		Survived   int       `json:"survived"`
		Equivalent int       `json:"equivalent"`
		Broken     int       `json:"broken"`
		Results    []Finding `json:"results"`
	}{root, len(results), n[Killed], n[Survived], n[Equivalent], n[Broken], results})
}
