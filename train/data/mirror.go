package data

import (
	"strings"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Mirror returns pos reflected left to right (file 5 becomes file 1). The rules of
// Minishogi treat the files alike (docs/rules.md: every piece moves symmetrically, the
// promotion zone is a rank, the pawn-drop rules look at one file at a time), so a mirrored
// position has the same value: a training example for free.
func Mirror(pos *ms.Position) ms.Position {
	fields := strings.Fields(pos.SFEN())
	ranks := strings.Split(fields[0], "/")
	for i, r := range ranks {
		var tokens []string
		for j := 0; j < len(r); j++ {
			if r[j] == '+' {
				tokens = append(tokens, r[j:j+2])
				j++
				continue
			}
			tokens = append(tokens, r[j:j+1])
		}
		for a, b := 0, len(tokens)-1; a < b; a, b = a+1, b-1 {
			tokens[a], tokens[b] = tokens[b], tokens[a]
		}
		ranks[i] = strings.Join(tokens, "")
	}
	fields[0] = strings.Join(ranks, "/")
	m, err := ms.ParseSFEN(strings.Join(fields, " "))
	if err != nil {
		panic("data: mirror of a valid position is invalid: " + err.Error())
	}
	return m
}

// addMirrors appends to exs the mirror image of each example whose image is not in exs,
// its policy target's moves mirrored too.
func addMirrors(exs []Example) ([]Example, error) {
	seen := make(map[uint64]bool, 2*len(exs))
	for i := range exs {
		seen[exs[i].Pos.Hash()] = true
	}
	n := len(exs)
	for i := range n {
		m := Mirror(&exs[i].Pos)
		if seen[m.Hash()] {
			continue
		}
		seen[m.Hash()] = true
		ex := exs[i]
		ex.Pos = m
		var err error
		if ex.Policy, err = exs[i].Policy.Mirror(&m); err != nil {
			return nil, err
		}
		exs = append(exs, ex)
	}
	return exs, nil
}
