package mawari

import (
	"slices"
	"strings"
	"testing"
)

func TestAdvance(t *testing.T) {
	std := standardRules(t)
	with := func(change func(*Rules)) Rules { r := std; change(&r); return r }
	lap := with(func(r *Rules) { r.Promotion = PerLap })
	jump := with(func(r *Rules) { r.CornerJump = true })
	lapJump := with(func(r *Rules) { r.Promotion = PerLap; r.CornerJump = true })
	back := with(func(r *Rules) { r.SpoilBack = true })
	lapBack := with(func(r *Rules) { r.Promotion = PerLap; r.SpoilBack = true })
	gold := with(func(r *Rules) { r.GoldStep = true })
	tests := []struct {
		name  string
		rules Rules
		from  Piece
		move  Move
		want  Piece
		won   bool
	}{
		{"short of a corner", std, Piece{0, 0}, Move{Steps: 3}, Piece{0, 3}, false},
		{"exactly on the next corner", std, Piece{0, 3}, Move{Steps: 5}, Piece{1, 8}, false},
		{"past a corner is no stop", std, Piece{0, 3}, Move{Steps: 6}, Piece{0, 9}, false},
		{"a zero throw is no stop on the start corner", std, Piece{2, 0}, Move{}, Piece{2, 0}, false},
		{"a full lap stops on the start corner", std, Piece{0, 0}, Move{Steps: 32}, Piece{1, 0}, false},
		{"a long throw wraps the ring", std, Piece{0, 30}, Move{Steps: 20}, Piece{0, 18}, false},
		{"jump from between corners", std, Piece{0, 3}, Move{ToNextCorner: true}, Piece{1, 8}, false},
		{"jump from a corner", std, Piece{0, 24}, Move{ToNextCorner: true}, Piece{1, 0}, false},
		{"king stops on a corner and wins", std, Piece{6, 12}, Move{Steps: 4}, Piece{7, 16}, true},
		{"rook stops on a corner and becomes king", std, Piece{5, 12}, Move{Steps: 4}, Piece{6, 16}, false},
		{"gold step: rook is one rung higher", gold, Piece{6, 12}, Move{Steps: 4}, Piece{7, 16}, false},
		{"gold step: king wins on rung 7", gold, Piece{7, 12}, Move{Steps: 4}, Piece{8, 16}, true},
		{"corner jump promotes twice", jump, Piece{0, 4}, Move{Steps: 4}, Piece{2, 16}, false},
		{"corner jump does not chain", jump, Piece{0, 0}, Move{Steps: 8}, Piece{2, 16}, false},
		{"corner jump after the all-backs jump", jump, Piece{0, 5}, Move{ToNextCorner: true}, Piece{2, 16}, false},
		{"corner jump: the king wins before jumping", jump, Piece{6, 4}, Move{Steps: 4}, Piece{7, 8}, true},
		{"corner jump: a rook wins on the jump", jump, Piece{5, 4}, Move{Steps: 4}, Piece{7, 16}, true},
		{"lap: a corner is nothing special", lap, Piece{0, 0}, Move{Steps: 8}, Piece{0, 8}, false},
		{"lap: completing the lap promotes", lap, Piece{0, 30}, Move{Steps: 5}, Piece{1, 3}, false},
		{"lap: two laps in one throw", lap, Piece{0, 0}, Move{Steps: 70}, Piece{2, 6}, false},
		{"lap: the king's lap wins", lap, Piece{6, 31}, Move{Steps: 1}, Piece{7, 0}, true},
		{"lap: corner jump completes the lap", lapJump, Piece{0, 20}, Move{Steps: 4}, Piece{1, 0}, false},
		{"lap: all-backs jump", lap, Piece{0, 27}, Move{ToNextCorner: true}, Piece{1, 0}, false},
		{"back: never a stop", back, Piece{1, 13}, Move{Steps: -5}, Piece{1, 8}, false},
		{"back: wraps behind the start corner", back, Piece{1, 3}, Move{Steps: -5}, Piece{1, 30}, false},
		{"lap back: not behind the lap's start", lapBack, Piece{1, 3}, Move{Steps: -5}, Piece{1, 0}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, won := tc.rules.Advance(tc.from, tc.move)
			if got != tc.want || won != tc.won {
				t.Errorf("Advance(%+v, %s) = %+v, %t; want %+v, %t", tc.from, tc.move, got, won, tc.want, tc.won)
			}
		})
	}
}

func TestLadder(t *testing.T) {
	std := standardRules(t)
	if got, want := std.Ladder(), []Rank{Pawn, Lance, Knight, Silver, Bishop, Rook, King}; !slices.Equal(got, want) {
		t.Errorf("standard ladder %v; want %v", got, want)
	}
	std.GoldStep = true
	if got, want := std.Ladder(), []Rank{Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King}; !slices.Equal(got, want) {
		t.Errorf("gold-step ladder %v; want %v", got, want)
	}
	if got := (Piece{Rung: 4}).Rank(std); got != Gold {
		t.Errorf("rung 4 with the gold step is %v; want gold", got)
	}
}

func TestStartCorners(t *testing.T) {
	for players, want := range map[int][]int{2: {0, 16}, 3: {0, 8, 16}, 4: {0, 8, 16, 24}} {
		for seat, corner := range want {
			if got := StartCorner(seat, players); got != corner {
				t.Errorf("StartCorner(%d, %d) = %d; want %d", seat, players, got, corner)
			}
		}
	}
	if got := (Piece{Progress: 20}).Square(1, 2); got != 4 {
		t.Errorf("seat 1 of 2, 20 squares on: square %d; want 4", got)
	}
}

func TestPresetsAndValidate(t *testing.T) {
	names := PresetNames()
	if names[0] != DefaultPreset {
		t.Errorf("first preset %q; want %q", names[0], DefaultPreset)
	}
	for _, p := range Presets() {
		if err := p.Rules.Validate(); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
	std := standardRules(t)
	if std.PointScore != 20 || std.AllBacksScore != 8 || std.AllBacksJump || std.Spoil != 0 ||
		std.Promotion != ExactCorner || std.CornerJump || std.GoldStep || std.Players != 2 {
		t.Errorf("standard preset %v differs from docs/rules.md#mawari-presets", std)
	}
	_, err := LookupPreset("chess")
	if err == nil || !strings.HasPrefix(err.Error(), `mawari: unknown preset "chess"`) {
		t.Errorf("LookupPreset(chess) error %v", err)
	}
	bad := []struct {
		change func(*Rules)
		want   string
	}{
		{func(r *Rules) { r.Players = 1 }, "1 players"},
		{func(r *Rules) { r.Players = 5 }, "5 players"},
		{func(r *Rules) { r.Spoil = 1 }, "spoil probability 1"},
		{func(r *Rules) { r.Spoil = -0.1 }, "spoil probability -0.1"},
		{func(r *Rules) { r.PointScore = 0 }, "point score 0"},
		{func(r *Rules) { r.AllBacksScore = 0 }, "all-backs score 0"},
		{func(r *Rules) { r.Promotion = 7 }, "unknown promotion"},
	}
	for _, tc := range bad {
		t.Run(tc.want, func(t *testing.T) {
			r := std
			tc.change(&r)
			if err := r.Validate(); err == nil || !strings.HasPrefix(err.Error(), "mawari: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate(%v) = %v; want an error about %q", r, err, tc.want)
			}
		})
	}
	r := std
	r.AllBacksScore, r.AllBacksJump = 0, true
	if err := r.Validate(); err != nil {
		t.Errorf("the all-backs jump needs no score: %v", err)
	}
}
