// Command view serves game records, opening trees, matches and mate proofs as web pages on
// this machine, or writes them as a static site (package viewer).
//
//	view datasets/selfplay/mcts400/games-0-of-1.jsonl.gz datasets/strength/nnue/100ms datasets/handicap/bare-king.proof
//	view --export site datasets/handicap/bare-king.proof
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/viewer"
)

// command is view as package cli runs it: Graceful, since a signal stops the server by
// closing it, and the pages in flight finish.
var command = cli.Command{Name: "view", Run: run, Graceful: true}

func main() { os.Exit(cli.RunOne(command, os.Args[1:], os.Stdout, os.Stderr)) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on this `host:port` (port 0: any free port)")
	export := fs.String("export", "", "write the pages as a static site into this `directory` instead of serving them")
	limit := fs.Int("limit", 20000, "an export writes at most `N` pages")
	depth := fs.Int("depth", 6, "the opening explorer follows each game for `N` plies (as analyze openings --depth)")
	sprtText := fs.String("sprt", "elo0=0,elo1=5", "the SPRT charted for a match whose report.json names none: elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=logistic|normalized]")
	if err := cli.ParseHelp(fs, args, stdout, `usage: view [flags] FILES...

Serves the files given, and nothing else, as web pages on this machine: record files
(.jsonl, .jsonl.gz) and games tables (.parquet) as a games list with filters and a page per
game; all their games as an opening explorer; directories of a match (cmd/match --out) as
its report with the SPRT's chart; proofs and certificates (.proof, .cert, also .gz or .xz)
as a walk from the root. The URL is printed at the start. With --export DIR the same pages
are written as a static site.`); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no files given (view -h)")
	}
	test, err := sprt.Parse(*sprtText)
	if err != nil {
		return cli.Usagef("--sprt %q: %v", *sprtText, err)
	}
	if *depth < 1 || *depth > 40 {
		return cli.Usagef("--depth %d: want 1 to 40 plies", *depth)
	}
	if *limit < 1 {
		return cli.Usagef("--limit %d: want at least 1 page", *limit)
	}
	if *export != "" {
		if err := cli.CheckOutputDir(*export); err != nil {
			return err
		}
	}
	update, finish := cli.NewCounter(stderr, "games indexed", 100_000)
	began := time.Now()
	s, err := viewer.New(fs.Args(), viewer.Options{Depth: *depth, SPRT: test, Progress: update})
	finish()
	if err != nil {
		// "view: viewer: ..." would name the program twice.
		return errors.New(strings.TrimPrefix(err.Error(), "viewer: "))
	}
	fmt.Fprintf(stderr, "view: read %d files in %.1f s\n", fs.NArg(), time.Since(began).Seconds())
	if *export != "" {
		update, finish := cli.NewCounter(stderr, "pages written", 10_000)
		st, err := s.Export(*export, *limit, update)
		finish()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d pages to %s (open %s/index.html)", st.Pages, *export, *export)
		if st.Skipped > 0 {
			fmt.Fprintf(stdout, "; %d pages past --limit %d not written", st.Skipped, *limit)
		}
		if st.Failed > 0 {
			fmt.Fprintf(stdout, "; %d pages are error pages (damaged records)", st.Failed)
		}
		fmt.Fprintln(stdout)
		return nil
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.Handler(ln.Addr().String()), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	fmt.Fprintf(stdout, "serving http://%s/ (Ctrl-C stops)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
