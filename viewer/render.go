package viewer

import (
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/analysis/match"
)

// render writes the page of a route and returns its content type.
func (s *Server) render(w io.Writer, rt route, lk linker) (ctype string, err error) {
	html := "text/html; charset=utf-8"
	switch rt.kind {
	case pageAsset:
		b, ctype, err := asset(rt.name)
		if err != nil {
			return "", err
		}
		_, err = w.Write(b)
		return ctype, err
	case pageKIF, pageCSA:
		text, err := s.gameText(rt)
		if err != nil {
			return "", err
		}
		_, err = io.WriteString(w, text)
		return "text/plain; charset=utf-8", err
	}
	var name, title string
	var data any
	switch rt.kind {
	case pageIndex:
		name, title, data = "index.html", "shogilab view", s.indexPage(lk)
	case pageGames:
		name, title = "games.html", "Games"
		data, err = s.gamesPage(rt, lk)
	case pageGame:
		name, title = "game.html", fmt.Sprintf("Game %d", rt.n)
		data, err = s.gamePage(rt, lk)
	case pageLishogi:
		name, title = "lishogi.html", fmt.Sprintf("Game %d for lishogi", rt.n)
		data, err = s.lishogiPage(rt, lk)
	case pageOpenings:
		name, title = "openings.html", "Openings"
		data, err = s.openingsPage(rt, lk)
	case pageMatch:
		name, title = "match.html", "Match "+s.sources[rt.n].Path
		data, err = s.matchPage(rt, lk)
	case pageProof:
		src := s.sources[rt.n]
		name, title = "proof.html", fmt.Sprintf("%s %s", src.Kind, src.Path)
		data, err = s.proofPage(rt, lk)
	case pageSource:
		name, title, data = "source.html", s.sources[rt.n].Path, s.sourcePage(rt, lk)
	default:
		return "", errNotFound
	}
	if err != nil {
		return "", err
	}
	return html, s.tmpl.ExecuteTemplate(w, name, s.pageData(lk, title, data))
}

// navLink is a link of the navigation bar or of a list.
type navLink struct {
	Href, Text string
}

// pageData is what the layout needs around a page's own data.
func (s *Server) pageData(lk linker, title string, content any) map[string]any {
	nav := []navLink{{lk.href(route{kind: pageIndex}), "Files"}}
	if len(s.index.entries) > 0 {
		nav = append(nav, navLink{lk.href(route{kind: pageGames}), "Games"}, navLink{lk.href(route{kind: pageOpenings}), "Openings"})
	}
	_, export := lk.(*exporter)
	return map[string]any{
		"Title":   title,
		"CSS":     lk.href(route{kind: pageAsset, name: "view.css"}),
		"JS":      lk.href(route{kind: pageAsset, name: "view.js"}),
		"Nav":     nav,
		"Export":  export,
		"Content": content,
	}
}

// sourceRow is one file of the index page.
type sourceRow struct {
	Path, Kind, Status string
	Href, Games        string
	Damaged            bool
}

func (s *Server) indexPage(lk linker) any {
	var rows []sourceRow
	for i, src := range s.sources {
		r := sourceRow{Path: src.Path, Kind: string(src.Kind), Status: "read", Href: lk.href(route{kind: pageSource, n: i})}
		games := 0
		for _, f := range src.files {
			games += s.index.files[f].games
		}
		switch src.Kind {
		case kindMatch:
			r.Href = lk.href(route{kind: pageMatch, n: i})
		case kindProof, kindCertificate:
			r.Href = lk.href(route{kind: pageProof, n: i})
		}
		if src.files != nil {
			r.Games = fmt.Sprintf("%d games", games)
		}
		if src.Err != nil {
			r.Status, r.Damaged = src.Err.Error(), true
		}
		rows = append(rows, r)
	}
	return map[string]any{"Sources": rows, "Games": len(s.index.entries)}
}

// sourcePage says what was read of one file, and what could not be.
func (s *Server) sourcePage(rt route, lk linker) any {
	src := s.sources[rt.n]
	type fileRow struct {
		Path       string
		Games, Bad int
		BadLines   []string
	}
	var files []fileRow
	for _, i := range src.files {
		f := s.index.files[i]
		files = append(files, fileRow{Path: f.path, Games: f.games, Bad: f.bad, BadLines: f.badLines})
	}
	d := map[string]any{"Path": src.Path, "Kind": string(src.Kind), "Files": files}
	if src.Err != nil {
		d["Err"] = src.Err.Error()
	}
	if len(src.files) > 0 {
		d["GamesHref"] = lk.href(route{kind: pageGames, filter: filter{Source: rt.n + 1}})
	}
	return d
}

// eloText writes an Elo difference as the match report's text does (match.EloText), with
// the infinities as the page's ±∞.
func eloText(x float64) string { return infinities.Replace(match.EloText(x)) }

var infinities = strings.NewReplacer("+inf", "+∞", "-inf", "−∞")
