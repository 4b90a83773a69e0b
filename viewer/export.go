package viewer

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/internal/atomicfile"
)

// exporter is the static export's linker: it names each page's file and queues every page
// linked from the pages written, up to a limit; a page past the limit is not linked.
type exporter struct {
	limit   int
	queued  map[string]bool
	queue   []route
	skipped map[string]bool
}

func (e *exporter) href(r route) string {
	name := exportName(r)
	if e.queued[name] {
		return name
	}
	if len(e.queued) >= e.limit && r.kind != pageAsset {
		e.skipped[name] = true
		return ""
	}
	e.queued[name] = true
	e.queue = append(e.queue, r)
	return name
}

// ExportStats say what an export wrote.
type ExportStats struct {
	Pages   int // files written, assets included
	Skipped int // pages linked but not written, past the limit
	Failed  int // pages written as error pages (a damaged record's KIF, say)
}

// Export writes the pages a reader reaches from the index by following links, as files in
// dir (created if needed), at most limit pages: a static site that works offline from the
// files alone, for a paper's supplementary material. The games list has no filters there
// (they need the server); everything else is as the server shows it. progress, if not nil,
// is called with the pages written so far.
func (s *Server) Export(dir string, limit int, progress func(pages int)) (ExportStats, error) {
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		return ExportStats{}, fmt.Errorf("viewer: export: %w", err)
	}
	e := &exporter{limit: limit, queued: map[string]bool{}, skipped: map[string]bool{}}
	e.href(route{kind: pageIndex})
	var st ExportStats
	for len(e.queue) > 0 {
		rt := e.queue[0]
		e.queue = e.queue[1:]
		var body bytes.Buffer
		if _, err := s.render(&body, rt, e); err != nil {
			st.Failed++
			body.Reset()
			code := http.StatusInternalServerError
			if he, ok := err.(*httpError); ok {
				code = he.code
			}
			if terr := s.tmpl.ExecuteTemplate(&body, "error.html", s.pageData(e, http.StatusText(code), map[string]any{"Code": code, "Message": err.Error()})); terr != nil {
				return st, fmt.Errorf("viewer: export: %w", terr)
			}
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, exportName(rt)), body.Bytes()); err != nil {
			return st, fmt.Errorf("viewer: export: %w", err)
		}
		st.Pages++
		if progress != nil {
			progress(st.Pages)
		}
	}
	st.Skipped = len(e.skipped)
	return st, nil
}
