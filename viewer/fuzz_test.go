package viewer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzURL sends arbitrary paths and queries: the server must answer every one without
// failing (no 5xx, no panic) and never show a file it was not given.
func FuzzURL(f *testing.F) {
	s, err := New([]string{handWrittenGames, bareKingProof, bareKingCert}, Options{Depth: 3})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler("127.0.0.1:80")
	for _, seed := range []string{"/", "/games?page=2&player=alpha", "/game/3", "/game/3/kif", "/openings?moves=2e3d,4a3b",
		"/proof/1?line=1a2a", "/proof/2?line=1a2b,2e4c", "/assets/view.js", "/source/0", "/../go.mod", "/game/%2e%2e"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\x00") {
			return // not a request target a client can send
		}
		req, err := http.NewRequest("GET", "http://127.0.0.1:80"+target, nil)
		if err != nil {
			return
		}
		req.Host = "127.0.0.1:80"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("GET %q: %d\n%.300s", target, w.Code, w.Body.String())
		}
		if strings.Contains(w.Body.String(), "module github.com/shogilab") {
			t.Fatalf("GET %q shows go.mod", target)
		}
	})
}
