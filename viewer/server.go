package viewer

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record/table"
)

//go:embed assets templates
var embedded embed.FS

// Options configure a Server.
type Options struct {
	// Depth is the number of plies the opening explorer follows, as analyze openings --depth
	// (6 when 0).
	Depth int
	// SPRT is the test whose log-likelihood ratio a match page charts when the match's
	// report.json names none (Fishtest's usual elo0=0, elo1=5 when zero).
	SPRT sprt.Test
	// Progress, if not nil, is called with the number of games indexed so far.
	Progress func(games int)
}

// Server serves the pages of the files it was given, and nothing else.
type Server struct {
	opts     Options
	sources  []*source
	index    gameIndex
	explorer *explorer
	tmpl     *template.Template
}

// sourceKind is what a file named on the command line holds.
type sourceKind string

const (
	kindRecords     sourceKind = "records"     // a record file (JSON Lines, plain or gzip)
	kindTable       sourceKind = "games table" // a Parquet games table
	kindMatch       sourceKind = "match"       // a directory of a match's records (cmd/match --out)
	kindProof       sourceKind = "proof"       // a mate proof (solver.WriteProof)
	kindCertificate sourceKind = "certificate" // a no-mate certificate (solver.WriteCertificate)
)

// source is one file or directory of the command line.
type source struct {
	Path  string
	Kind  sourceKind
	Err   error // it could not be read (whole or in part): its page says why
	files []int // its record files, indices in the index's files
	match *matchReport
	proof *proofWalk
	cert  *certWalk
}

// New reads the files and directories named in paths: record files and games tables are
// indexed (one pass each, keeping a few dozen bytes a game), the opening tree is built, match
// directories are counted and proofs and certificates read and checked. A path that does not
// exist is an error; a file that is damaged is not: its page says what is wrong.
func New(paths []string, opts Options) (*Server, error) {
	if opts.Depth == 0 {
		opts.Depth = 6
	}
	if opts.Depth < 1 || opts.Depth > maxDepth {
		return nil, fmt.Errorf("viewer: depth %d: want 1 to %d plies", opts.Depth, maxDepth)
	}
	if opts.SPRT == (sprt.Test{}) {
		opts.SPRT = sprt.Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: sprt.Logistic}
	}
	if len(paths) == 0 {
		return nil, errors.New("viewer: no files given")
	}
	if len(paths) > maxSources {
		return nil, fmt.Errorf("viewer: %d files given; at most %d", len(paths), maxSources)
	}
	tmpl, err := template.New("").Funcs(templateFuncs).ParseFS(embedded, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err) // a programmer's error, caught by every test
	}
	s := &Server{opts: opts, tmpl: tmpl}
	progress := func() {}
	if opts.Progress != nil {
		progress = func() { opts.Progress(len(s.index.entries)) }
	}
	for i, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("viewer: %s: %w", p, err)
		}
		src := &source{Path: p}
		s.sources = append(s.sources, src)
		switch {
		case st.IsDir():
			src.Kind = kindMatch
			s.loadMatch(src, i, progress)
		case isProofName(p):
			s.loadProof(src)
		default:
			src.Kind = kindRecords
			if table.IsParquet(p) {
				src.Kind = kindTable
			}
			s.addRecords(src, i, p, progress)
		}
	}
	s.explorer = s.buildExplorer()
	// Reading left garbage many times the size of what is kept (the decoded records, the
	// opening tree before its lines were taken): give it back now, not at the next GC cycle.
	debug.FreeOSMemory()
	return s, nil
}

// maxSources bounds the files of one server, since a source's number is a URL's.
const maxSources = 10000

// addRecords indexes one record file of src.
func (s *Server) addRecords(src *source, i int, path string, progress func()) {
	f, err := s.index.add(path, i, progress)
	src.files = append(src.files, len(s.index.files)-1)
	if err != nil && src.Err == nil {
		src.Err = err
	}
	if f != nil && f.bad > 0 && src.Err == nil {
		src.Err = fmt.Errorf("%d bad records skipped", f.bad)
	}
}

// isProofName tells proofs and certificates by their names (datasets/handicap: .proof,
// .cert, compressed as .gz or .xz); their first line then says which they are.
func isProofName(path string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".xz")
	return strings.HasSuffix(base, ".proof") || strings.HasSuffix(base, ".cert")
}

// recordFilesIn lists the record files and games tables of a match directory, in name order;
// positions tables (table.PositionsPath) are a games table's companion, not games.
func recordFilesIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") {
			continue
		}
		switch {
		case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".jsonl.gz"):
		case strings.HasSuffix(n, ".parquet") && !strings.Contains(n, "positions"):
		default:
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	slices.Sort(out)
	return out, nil
}

// Handler returns the server's HTTP handler. addr is the address it listens on: requests
// naming another host are refused when it is a loopback address, so that a web page cannot
// reach the server by rebinding a name of its own to 127.0.0.1.
func (s *Server) Handler(addr string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serve(func(r *http.Request) (route, error) { return route{kind: pageIndex}, nil }))
	mux.HandleFunc("GET /games", s.serve(s.gamesRoute))
	mux.HandleFunc("GET /game/{n}", s.serve(s.gameRoute(pageGame)))
	mux.HandleFunc("GET /game/{n}/kif", s.serve(s.gameRoute(pageKIF)))
	mux.HandleFunc("GET /game/{n}/csa", s.serve(s.gameRoute(pageCSA)))
	mux.HandleFunc("GET /game/{n}/lishogi", s.serve(s.gameRoute(pageLishogi)))
	mux.HandleFunc("GET /openings", s.serve(s.openingsRoute))
	mux.HandleFunc("GET /match/{n}", s.serve(s.sourceRoute(pageMatch)))
	mux.HandleFunc("GET /proof/{n}", s.serve(s.proofRoute))
	mux.HandleFunc("GET /source/{n}", s.serve(s.sourceRoute(pageSource)))
	mux.HandleFunc("GET /assets/{name}", s.serve(assetRoute))
	mux.HandleFunc("/", s.serve(func(r *http.Request) (route, error) { return route{}, errNotFound }))
	return guard(addr, mux)
}

// Limits on a request: no page of ours needs a longer address.
const (
	maxPathBytes  = 512
	maxQueryBytes = 2048
)

// guard is what every request passes first: GET and HEAD only, a Host of this server when it
// listens on a loopback address, bounded lengths, and headers that keep pages from loading
// anything from elsewhere.
func guard(addr string, next http.Handler) http.Handler {
	host, port, _ := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	allowed := map[string]bool{}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		allowed[h+":"+port] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		switch {
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			h.Set("Allow", "GET, HEAD")
			plainError(w, http.StatusMethodNotAllowed, "only GET and HEAD: this server is read-only")
		case loopback && !allowed[r.Host]:
			plainError(w, http.StatusForbidden, "this server answers to 127.0.0.1 and localhost only")
		case len(r.URL.EscapedPath()) > maxPathBytes:
			plainError(w, http.StatusRequestURITooLong, "the address is too long")
		case len(r.URL.RawQuery) > maxQueryBytes:
			plainError(w, http.StatusRequestURITooLong, "the query is too long")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func plainError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg)
}

// httpError is an error with the status it answers a request with.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

var errNotFound = &httpError{http.StatusNotFound, "no such page"}

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// serve answers a request with the page its route names, or an error page.
func (s *Server) serve(parse func(*http.Request) (route, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				s.errorPage(w, &httpError{http.StatusInternalServerError, fmt.Sprintf("the viewer failed on this page: %v", v)})
			}
		}()
		rt, err := parse(r)
		if err != nil {
			s.errorPage(w, err)
			return
		}
		var body bytes.Buffer
		ctype, err := s.render(&body, rt, serverLinks{})
		if err != nil {
			s.errorPage(w, err)
			return
		}
		w.Header().Set("Content-Type", ctype)
		if rt.kind == pageKIF || rt.kind == pageCSA {
			w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", exportName(rt)))
		}
		w.Write(body.Bytes())
	}
}

func (s *Server) errorPage(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var he *httpError
	if errors.As(err, &he) {
		code = he.code
	}
	var body bytes.Buffer
	if terr := s.tmpl.ExecuteTemplate(&body, "error.html", s.pageData(serverLinks{}, http.StatusText(code), map[string]any{"Code": code, "Message": err.Error()})); terr != nil {
		plainError(w, code, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(body.Bytes())
}

// asset returns an embedded asset's bytes and type; only the files under assets/ exist.
func asset(name string) ([]byte, string, error) {
	if !fs.ValidPath(name) || strings.Contains(name, "/") {
		return nil, "", errNotFound
	}
	b, err := embedded.ReadFile("assets/" + name)
	if err != nil {
		return nil, "", errNotFound
	}
	ctype := mime.TypeByExtension(filepath.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	return b, ctype, nil
}

var templateFuncs = template.FuncMap{
	"pct":  func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"f3":   func(x float64) string { return fmt.Sprintf("%.3f", x) },
	"f1":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"elo":  eloText,
	"add1": func(n int) int { return n + 1 },
}
