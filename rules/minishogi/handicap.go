package minishogi

import (
	"fmt"
	"strings"
)

// Handicaps lists the handicap start positions of docs/rules.md#handicaps by name. The handicap giver plays
// Gote and moves first, as in shogi.
var handicaps = []struct{ name, sfen string }{
	{"bishop", "r1sgk/4p/5/P4/KGSBR w - 1"},
	{"rook", "1bsgk/4p/5/P4/KGSBR w - 1"},
	{"two-piece", "2sgk/4p/5/P4/KGSBR w - 1"},
	{"three-piece", "3gk/4p/5/P4/KGSBR w - 1"},
	{"four-piece", "4k/4p/5/P4/KGSBR w - 1"},
	{"bare-king", "4k/5/5/P4/KGSBR w - 1"},
}

// HandicapNames returns the names Handicap accepts, from the smallest handicap to the largest.
func HandicapNames() []string {
	names := make([]string, len(handicaps))
	for i, h := range handicaps {
		names[i] = h.name
	}
	return names
}

// Handicap returns the start position of the named handicap.
func Handicap(name string) (Position, error) {
	for _, h := range handicaps {
		if h.name == name {
			return ParseSFEN(h.sfen)
		}
	}
	return Position{}, fmt.Errorf("minishogi: unknown handicap %q (want one of %s)", name, strings.Join(HandicapNames(), ", "))
}

// NamedStart returns the start position for "startpos" (or "") or a handicap name.
func NamedStart(name string) (Position, error) {
	if name == "" || name == "startpos" {
		return StartPosition(), nil
	}
	return Handicap(name)
}
