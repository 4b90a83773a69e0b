package selfplay

import (
	"strings"
	"testing"
)

// FuzzParsePlayerSpec: a spec either fails with one "selfplay: player" line or gives a
// spec that validates, whose record the reader would take, and whose mcts settings an
// engine accepts; nothing panics. Parsing starts no process.
func FuzzParsePlayerSpec(f *testing.F) {
	for _, s := range []string{"random", "mcts:playouts=10", "shogilab:movetime=1ms,threads=2", "mcts:hash=-5,playouts=3",
		"usi:/bin/e -x,nodes=5,option.Skill Level=3", "mcts:time=1s,inc=10,byoyomi=0", "x:y", "mcts:CPuct=1e39", "usi:e,depth=1,name=n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParsePlayerSpec(text, PlayerSpec{Limits: Limits{Nodes: 7}})
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "selfplay: player ") || strings.Contains(msg, "\n") {
				t.Errorf("%q: error %q", text, msg)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%q parsed but does not validate: %v", text, err)
		}
		if p := s.Record(); p.Name == "" || p.Kind != s.Kind {
			t.Errorf("%q: record player %+v", text, p)
		}
		if s.Kind == "mcts" {
			st, err := s.settings()
			if err == nil {
				err = st.Player.Validate()
			}
			if err != nil {
				t.Errorf("%q: settings: %v", text, err)
			}
		}
	})
}
