package minishogi

import "testing"

// benchPositions are a quiet start and a busy middle game with pieces in hand.
var benchPositions = []struct{ name, sfen string }{
	{"start", StartSFEN},
	{"midgame", "r3k/2G1p/5/P1b2/KGS1R w Bs 9"},
	{"drops", "2k2/5/2P2/5/2K2 b RBGSrbgs 1"},
}

// benchEach times op on every position of benchPositions, one sub-benchmark each.
func benchEach(b *testing.B, op func(p *Position, ml *MoveList)) {
	for _, c := range benchPositions {
		b.Run(c.name, func(b *testing.B) {
			p, _ := ParseSFEN(c.sfen)
			var ml MoveList
			for b.Loop() {
				op(&p, &ml)
			}
		})
	}
}

func BenchmarkGenerateLegal(b *testing.B) {
	benchEach(b, func(p *Position, ml *MoveList) { p.GenerateLegal(ml) })
}

func BenchmarkMakeUnmake(b *testing.B) {
	for _, c := range benchPositions {
		b.Run(c.name, func(b *testing.B) {
			p, _ := ParseSFEN(c.sfen)
			var ml MoveList
			p.GenerateLegal(&ml)
			moves := ml.Slice()
			i := 0
			for b.Loop() {
				m := moves[i]
				u := p.MakeMove(m)
				p.UnmakeMove(m, u)
				if i++; i == len(moves) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkPerft reports leaves per second from the start position, single thread.
func BenchmarkPerft(b *testing.B) {
	p := StartPosition()
	var leaves uint64
	for b.Loop() {
		leaves += p.Perft(6)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

func BenchmarkParallelPerft(b *testing.B) {
	p := StartPosition()
	var leaves uint64
	for b.Loop() {
		leaves += p.ParallelPerft(6, 0)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
