package viewer

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// pageKind is a kind of page.
type pageKind int

const (
	pageIndex pageKind = iota + 1
	pageGames
	pageGame
	pageKIF
	pageCSA
	pageLishogi
	pageOpenings
	pageMatch
	pageProof
	pageSource
	pageAsset
)

// route names one page: the server reads it from a URL, the export writes it to a file, and
// every link between pages is a route, so that the two show the same pages.
type route struct {
	kind   pageKind
	n      int // the game's number in the index, or the source's
	page   int // the games list's page, from 0
	filter filter
	start  int      // the opening explorer's start position
	moves  []string // the explorer's line, or a proof walk's from its root
	name   string   // an asset's name
}

// linker turns a route into the address of its page: a URL for the server, a file name for
// the export. An empty address means the page is not there (past the export's limit).
type linker interface {
	href(r route) string
}

// serverLinks are the server's URLs.
type serverLinks struct{}

func (serverLinks) href(r route) string {
	q := url.Values{}
	var path string
	switch r.kind {
	case pageIndex:
		path = "/"
	case pageGames:
		path = "/games"
		for _, kv := range r.filter.values() {
			q.Set(kv[0], kv[1])
		}
		if r.page > 0 {
			q.Set("page", strconv.Itoa(r.page+1))
		}
	case pageGame:
		path = fmt.Sprintf("/game/%d", r.n)
	case pageKIF:
		path = fmt.Sprintf("/game/%d/kif", r.n)
	case pageCSA:
		path = fmt.Sprintf("/game/%d/csa", r.n)
	case pageLishogi:
		path = fmt.Sprintf("/game/%d/lishogi", r.n)
	case pageOpenings:
		path = "/openings"
		if r.start > 0 {
			q.Set("start", strconv.Itoa(r.start))
		}
		if len(r.moves) > 0 {
			q.Set("moves", strings.Join(r.moves, ","))
		}
	case pageMatch:
		path = fmt.Sprintf("/match/%d", r.n)
	case pageProof:
		path = fmt.Sprintf("/proof/%d", r.n)
		if len(r.moves) > 0 {
			q.Set("line", strings.Join(r.moves, ","))
		}
	case pageSource:
		path = fmt.Sprintf("/source/%d", r.n)
	case pageAsset:
		path = "/assets/" + r.name
	}
	if len(q) > 0 {
		return path + "?" + q.Encode()
	}
	return path
}

// exportName is the file of a route in a static export: every page in one directory, so
// that links are plain names; a line of moves or a filter is named by a hash of it.
func exportName(r route) string {
	switch r.kind {
	case pageIndex:
		return "index.html"
	case pageGames:
		if r.filter.empty() {
			return fmt.Sprintf("games-p%d.html", r.page+1)
		}
		return fmt.Sprintf("games-%s-p%d.html", hashName(fmt.Sprint(r.filter.values())), r.page+1)
	case pageGame:
		return fmt.Sprintf("game-%d.html", r.n)
	case pageKIF:
		return fmt.Sprintf("game-%d.kif", r.n)
	case pageCSA:
		return fmt.Sprintf("game-%d.csa", r.n)
	case pageLishogi:
		return fmt.Sprintf("game-%d-lishogi.html", r.n)
	case pageOpenings:
		if len(r.moves) == 0 {
			return fmt.Sprintf("openings-%d.html", r.start)
		}
		return fmt.Sprintf("openings-%d-%s.html", r.start, hashName(strings.Join(r.moves, ",")))
	case pageMatch:
		return fmt.Sprintf("match-%d.html", r.n)
	case pageProof:
		if len(r.moves) == 0 {
			return fmt.Sprintf("proof-%d.html", r.n)
		}
		return fmt.Sprintf("proof-%d-%s.html", r.n, hashName(strings.Join(r.moves, ",")))
	case pageSource:
		return fmt.Sprintf("source-%d.html", r.n)
	case pageAsset:
		return "assets/" + r.name
	}
	panic(fmt.Sprintf("viewer: no file name for page kind %d", r.kind))
}

func hashName(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%016x", h.Sum64())
}

// Reading routes from requests. Every value is checked here, before any work: numbers are
// bounded, names must be known, and lines of moves are short lists of USI moves.

func (s *Server) gamesRoute(r *http.Request) (route, error) {
	q := r.URL.Query()
	f, err := parseFilter(q.Get, len(s.sources))
	if err != nil {
		return route{}, badRequest("games: %v", err)
	}
	page, err := queryInt(q.Get("page"), 0, 1<<30)
	if err != nil {
		return route{}, badRequest("games: page: %v", err)
	}
	return route{kind: pageGames, filter: f, page: max(page-1, 0)}, nil
}

func (s *Server) gameRoute(kind pageKind) func(*http.Request) (route, error) {
	return func(r *http.Request) (route, error) {
		n, err := s.index.gameNumber(r.PathValue("n"))
		if err != nil {
			return route{}, errNotFound
		}
		return route{kind: kind, n: n}, nil
	}
}

func (s *Server) sourceRoute(kind pageKind) func(*http.Request) (route, error) {
	return func(r *http.Request) (route, error) {
		n, err := s.sourceNumber(r.PathValue("n"))
		if err != nil {
			return route{}, err
		}
		if kind == pageMatch && s.sources[n].Kind != kindMatch {
			return route{}, errNotFound
		}
		return route{kind: kind, n: n}, nil
	}
}

func (s *Server) sourceNumber(text string) (int, error) {
	n, err := queryInt(text, 0, len(s.sources)-1)
	if err != nil || text == "" || strings.HasPrefix(text, "+") || len(text) > 1 && text[0] == '0' {
		return 0, errNotFound
	}
	return n, nil
}

func (s *Server) openingsRoute(r *http.Request) (route, error) {
	q := r.URL.Query()
	start, err := queryInt(q.Get("start"), 0, 1<<20)
	if err != nil {
		return route{}, badRequest("openings: start: %v", err)
	}
	moves, err := parseLine(q.Get("moves"), maxDepth)
	if err != nil {
		return route{}, badRequest("openings: moves: %v", err)
	}
	return route{kind: pageOpenings, start: start, moves: moves}, nil
}

func (s *Server) proofRoute(r *http.Request) (route, error) {
	n, err := s.sourceNumber(r.PathValue("n"))
	if err != nil {
		return route{}, err
	}
	if k := s.sources[n].Kind; k != kindProof && k != kindCertificate {
		return route{}, errNotFound
	}
	moves, err := parseLine(r.URL.Query().Get("line"), maxLine)
	if err != nil {
		return route{}, badRequest("proof: line: %v", err)
	}
	return route{kind: pageProof, n: n, moves: moves}, nil
}

func assetRoute(r *http.Request) (route, error) {
	name := r.PathValue("name")
	if _, _, err := asset(name); err != nil {
		return route{}, err
	}
	return route{kind: pageAsset, name: name}, nil
}

// Bounds on lines of moves in addresses: the explorer's depth, and a walk's length (the
// longest proof shipped mates in 22 plies).
const (
	maxDepth = 40
	maxLine  = 200
)

// parseLine reads a comma-separated line of USI moves; it checks their spelling only, and a
// page replays them with the rules.
func parseLine(text string, most int) ([]string, error) {
	if text == "" {
		return nil, nil
	}
	moves := strings.Split(text, ",")
	if len(moves) > most {
		return nil, fmt.Errorf("%d moves; at most %d", len(moves), most)
	}
	for _, m := range moves {
		if len(m) < 4 || len(m) > 5 || !isUSISpelling(m) {
			return nil, fmt.Errorf("%.12q is not a USI move", m)
		}
	}
	return moves, nil
}

func isUSISpelling(m string) bool {
	for _, c := range m {
		if !(c >= '1' && c <= '5' || c >= 'a' && c <= 'e' || c == '*' || c == '+' || strings.ContainsRune("PSGBR", c)) {
			return false
		}
	}
	return true
}
