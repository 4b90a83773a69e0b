package usi

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The lines of these tests are written by hand from the USI specification (Tord Romstad,
// 2007, as published with the Shogidokoro GUI; docs/architecture.md#usi) and Shogidokoro's
// extensions (`byoyomi`, `go mate`), and from lines that Fairy-Stockfish 11.1 prints. A
// canonical line is one that Format writes: the test checks both directions on it. Other
// lines are read, and Format then writes them in its own order.

func TestOption(t *testing.T) {
	for _, c := range []struct {
		name string
		line string
		want Option
	}{
		{"string with an empty default", "option name Debug Log File type string default <empty>",
			Option{Name: "Debug Log File", Type: "string"}},
		{"button", "option name Clear Hash type button", Option{Name: "Clear Hash", Type: "button"}},
		{"spin", "option name USI_Hash type spin default 256 min 1 max 1024",
			Option{Name: "USI_Hash", Type: "spin", Default: "256", Min: 1, Max: 1024}},
		{"negative spin", "option name Contempt type spin default -10 min -100 max 100",
			Option{Name: "Contempt", Type: "spin", Default: "-10", Min: -100, Max: 100}},
		{"check", "option name USI_Ponder type check default true", Option{Name: "USI_Ponder", Type: "check", Default: "true"}},
		{"combo", "option name UCI_Variant type combo default shogi var minishogi var shogi",
			Option{Name: "UCI_Variant", Type: "combo", Default: "shogi", Vars: []string{"minishogi", "shogi"}}},
		{"filename", "option name EvalFile type filename default eval/nn.bin",
			Option{Name: "EvalFile", Type: "filename", Default: "eval/nn.bin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseOption(c.line)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseOption(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			if f := c.want.Format(); f != c.line {
				t.Errorf("Format(%+v) = %q, want %q", c.want, f, c.line)
			}
		})
	}
	// Lines that are not canonical: read, then written in Format's form.
	for _, c := range []struct {
		name, line string
		want       Option
		format     string
	}{
		{"extra spaces", "option  name   Skill Level  type spin  default 20 min 0 max 20",
			Option{Name: "Skill Level", Type: "spin", Default: "20", Max: 20}, "option name Skill Level type spin default 20 min 0 max 20"},
		{"max before min", "option name Threads type spin default 1 max 512 min 1",
			Option{Name: "Threads", Type: "spin", Default: "1", Min: 1, Max: 512}, "option name Threads type spin default 1 min 1 max 512"},
		{"no default", "option name Book type check", Option{Name: "Book", Type: "check"}, "option name Book type check default <empty>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseOption(c.line)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseOption(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			if f := got.Format(); f != c.format {
				t.Errorf("Format = %q, want %q", f, c.format)
			}
		})
	}
	for _, c := range []struct{ name, line, want string }{
		{"no name", "option type spin", "does not start with"},
		{"no type", "option name X", "lacks a name or a type"},
		{"not an option", "id name X", "does not start with"},
		{"spin without bounds", "option name X type spin default 1", "a spin needs a min"},
		{"spin without max", "option name X type spin default 1 min 0", "a spin needs a max"},
		{"bound not a number", "option name X type spin default 1 min a max 3", `min "a" is not an integer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseOption(c.line); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "usi: ") {
				t.Errorf("ParseOption(%q): %v, want an error with %q", c.line, err, c.want)
			}
		})
	}
}

func TestOptionCheck(t *testing.T) {
	hash := Option{Name: "USI_Hash", Type: "spin", Default: "16", Min: 1, Max: 1024}
	style := Option{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}
	ponder := Option{Name: "USI_Ponder", Type: "check", Default: "false"}
	clear := Option{Name: "Clear Hash", Type: "button"}
	file := Option{Name: "EvalFile", Type: "filename"}
	for _, c := range []struct {
		name  string
		o     Option
		value string
		want  string // "" when the value is taken
	}{
		{"spin within", hash, "1024", ""},
		{"spin below", hash, "0", "from 1 to 1024"},
		{"spin above", hash, "1025", "from 1 to 1024"},
		{"spin not a number", hash, "lots", "an integer"},
		{"combo in any case", style, "risky", ""},
		{"combo not a var", style, "Wild", "one of Solid, Normal, Risky"},
		{"check", ponder, "TRUE", ""},
		{"check not a boolean", ponder, "yes", "true or false"},
		{"button", clear, "", ""},
		{"button with a value", clear, "now", "takes no value"},
		{"filename", file, "any/path with spaces.bin", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.o.Check(c.value)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("Check(%q) = %v, want %q", c.value, err, c.want)
			}
		})
	}
}

func TestSearchInfo(t *testing.T) {
	for _, c := range []struct {
		name string
		line string
		want SearchInfo
	}{
		{"our engine's search line", "info depth 3 seldepth 7 nodes 1000 nps 50000 time 20 hashfull 0 score cp 34 pv 2e3d 4a3b",
			SearchInfo{Has: InfoDepth | InfoSelDepth | InfoNodes | InfoNPS | InfoTime | InfoHashFull, Depth: 3, SelDepth: 7,
				Nodes: 1000, NPS: 50000, Time: 20 * time.Millisecond, Kind: ScoreCP, CP: 34, PV: []string{"2e3d", "4a3b"}}},
		{"zeros are written", "info depth 0 nodes 0 time 0", SearchInfo{Has: InfoDepth | InfoNodes | InfoTime}},
		{"our engine's tsume line", "info depth 5 nodes 123 time 4 hashfull 1",
			SearchInfo{Has: InfoDepth | InfoNodes | InfoTime | InfoHashFull, Depth: 5, Nodes: 123, Time: 4 * time.Millisecond, HashFull: 1}},
		{"mate with a drop", "info depth 9 score mate 3 pv P*3c 4a3b 3c3b+",
			SearchInfo{Has: InfoDepth, Depth: 9, Kind: ScoreMate, Mate: 3, PV: []string{"P*3c", "4a3b", "3c3b+"}}},
		{"being mated", "info score mate -2", SearchInfo{Kind: ScoreMate, Mate: -2}},
		{"mate of unknown length", "info score mate +", SearchInfo{Kind: ScoreMate, Mate: 1, MateLengthUnknown: true}},
		{"mated, unknown length", "info depth 4 score mate -", SearchInfo{Has: InfoDepth, Depth: 4, Kind: ScoreMate, Mate: -1, MateLengthUnknown: true}},
		{"bound", "info nodes 9 score cp -120 lowerbound", SearchInfo{Has: InfoNodes, Nodes: 9, Kind: ScoreCP, CP: -120, Bound: "lowerbound"}},
		{"string keeps its spacing", "info string variant minishogi files 5  ranks 5", SearchInfo{String: "variant minishogi files 5  ranks 5"}},
		{"string after a number", "info depth 2 string hello", SearchInfo{Has: InfoDepth, Depth: 2, String: "hello"}},
		{"current move", "info currmove 2e3d currmovenumber 3", SearchInfo{Has: InfoCurrMoveNumber, CurrMove: "2e3d", CurrMoveNumber: 3}},
		{"the word string as a move", "info currmove string string string twice",
			SearchInfo{CurrMove: "string", String: "string twice"}},
		{"nothing", "info", SearchInfo{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseInfo(c.line)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseInfo(%q) =\n %+v, %v; want\n %+v", c.line, got, err, c.want)
			}
			if f := c.want.Format(); f != c.line {
				t.Errorf("Format = %q, want %q", f, c.line)
			}
		})
	}
	for _, c := range []struct {
		name, line string
		want       SearchInfo
		format     string
	}{
		{"Fairy-Stockfish's line", "info depth 13 seldepth 23 multipv 1 score cp 74 nodes 51289 nps 502833 tbhits 0 time 102 pv 4a3b",
			SearchInfo{Has: InfoDepth | InfoSelDepth | InfoMultiPV | InfoNodes | InfoNPS | InfoTBHits | InfoTime, Depth: 13, SelDepth: 23, MultiPV: 1,
				Kind: ScoreCP, CP: 74, Nodes: 51289, NPS: 502833, Time: 102 * time.Millisecond, PV: []string{"4a3b"}},
			"info depth 13 seldepth 23 multipv 1 nodes 51289 nps 502833 time 102 tbhits 0 score cp 74 pv 4a3b"},
		{"pv first, unknown keys skipped", "info pv 5d5c 1a1b hashfull 12 foo bar currmove 2e3d currmovenumber 3",
			SearchInfo{Has: InfoHashFull | InfoCurrMoveNumber, PV: []string{"5d5c", "1a1b"}, HashFull: 12, CurrMove: "2e3d", CurrMoveNumber: 3},
			"info hashfull 12 currmove 2e3d currmovenumber 3 pv 5d5c 1a1b"},
		{"refutation and currline skipped", "info refutation 2e3d 4a3b currline 1 2e3d depth 2",
			SearchInfo{Has: InfoDepth, Depth: 2}, "info depth 2"},
		{"a later score replaces", "info score cp 5 upperbound score mate 3", SearchInfo{Kind: ScoreMate, Mate: 3}, "info score mate 3"},
		{"tabs", "info\tdepth 2\tstring a b", SearchInfo{Has: InfoDepth, Depth: 2, String: "a b"}, "info depth 2 string a b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseInfo(c.line)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseInfo(%q) =\n %+v, %v; want\n %+v", c.line, got, err, c.want)
			}
			if f := got.Format(); f != c.format {
				t.Errorf("Format = %q, want %q", f, c.format)
			}
		})
	}
	for _, c := range []struct{ name, line string }{
		{"not info", "bestmove 2e3d"}, {"empty", ""}, {"depth not a number", "info depth x"},
		{"score without value", "info score cp"}, {"fractional cp", "info score cp 1.5"},
		{"unknown score", "info score wdl 1 2 3"}, {"nodes without value", "info nodes"},
		{"time beyond a duration", "info time 9223372036854775807"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseInfo(c.line); err == nil {
				t.Errorf("ParseInfo(%q) succeeded", c.line)
			}
		})
	}
}

func TestGoParams(t *testing.T) {
	for _, c := range []struct {
		name string
		line string
		want GoParams
	}{
		{"bare", "go", GoParams{}},
		{"movetime", "go movetime 50", GoParams{MoveTime: 50 * time.Millisecond}},
		{"clocks and byoyomi", "go btime 60000 wtime 30000 byoyomi 1000", GoParams{BTime: time.Minute, WTime: 30 * time.Second, Byoyomi: time.Second}},
		{"Fischer increments", "go btime 1000 wtime 1000 binc 100 winc 200",
			GoParams{BTime: time.Second, WTime: time.Second, BInc: 100 * time.Millisecond, WInc: 200 * time.Millisecond}},
		{"depth and nodes", "go depth 7 nodes 10000", GoParams{Depth: 7, Nodes: 10000}},
		{"infinite", "go infinite", GoParams{Infinite: true}},
		{"ponder", "go btime 1000 wtime 2000 byoyomi 300 ponder", GoParams{Ponder: true, BTime: time.Second, WTime: 2 * time.Second, Byoyomi: 300 * time.Millisecond}},
		{"tsume search", "go mate 5000", GoParams{Mate: true, MoveTime: 5 * time.Second}},
		{"tsume search until stop", "go mate infinite", GoParams{Mate: true, Infinite: true}},
		{"perft", "go perft 3", GoParams{Perft: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseGo(c.line)
			if err != nil || got != c.want {
				t.Errorf("ParseGo(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			if f := c.want.Format(); f != c.line {
				t.Errorf("Format = %q, want %q", f, c.line)
			}
		})
	}
	for _, c := range []struct {
		name, line string
		want       GoParams
		format     string
	}{
		{"ponder first", "go ponder btime 1000 wtime 2000", GoParams{Ponder: true, BTime: time.Second, WTime: 2 * time.Second}, "go btime 1000 wtime 2000 ponder"},
		{"times capped", "go movetime 99999999999999999", GoParams{MoveTime: maxGoMillis * time.Millisecond}, "go movetime 1099511627776"},
		{"zero left out", "go nodes 0 byoyomi 0", GoParams{}, "go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseGo(c.line)
			if err != nil || got != c.want {
				t.Errorf("ParseGo(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			if f := got.Format(); f != c.format {
				t.Errorf("Format = %q, want %q", f, c.format)
			}
		})
	}
	for _, c := range []struct{ name, line, want string }{
		{"mate without time", "go mate", "go: mate needs a value"},
		{"movetime without value", "go movetime", "go: movetime needs a value"},
		{"negative time", "go movetime -1", `go: movetime "-1" is not a non-negative integer`},
		{"nodes not a number", "go nodes x", `go: nodes "x" is not a non-negative integer`},
		{"unknown parameter", "go sideways 3", `go: unknown parameter "sideways"`},
		{"perft without depth", "go perft", "go perft wants one depth"},
		{"perft with more", "go perft 3 nodes 1", "go perft wants one depth"},
		{"perft too deep", "go perft 16", `go perft: depth "16" is not an integer from 1 to 15`},
		{"perft zero", "go perft 0", `go perft: depth "0"`},
		{"not go", "position startpos", `"position startpos" is not a go command`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseGo(c.line); err == nil || !strings.HasPrefix(err.Error(), "usi: "+c.want) {
				t.Errorf("ParseGo(%q): %v, want %q", c.line, err, c.want)
			}
		})
	}
}

func TestBestMove(t *testing.T) {
	for _, c := range []struct {
		name string
		line string
		want BestMove
	}{
		{"move", "bestmove 2e3d", BestMove{Move: "2e3d"}},
		{"with ponder", "bestmove 2e3d ponder 4a3b", BestMove{Move: "2e3d", Ponder: "4a3b"}},
		{"drop and promotion", "bestmove P*3c ponder 4a3b+", BestMove{Move: "P*3c", Ponder: "4a3b+"}},
		{"resign", "bestmove resign", BestMove{Move: "resign"}},
		{"win", "bestmove win", BestMove{Move: "win"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseBestMove(c.line)
			if err != nil || got != c.want {
				t.Errorf("ParseBestMove(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			}
			if f := c.want.Format(); f != c.line {
				t.Errorf("Format = %q, want %q", f, c.line)
			}
		})
	}
	for _, c := range []struct{ name, line string }{{"no move", "bestmove"}, {"not bestmove", "info depth 1"}, {"empty", ""}} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseBestMove(c.line); err == nil {
				t.Errorf("ParseBestMove(%q) succeeded", c.line)
			}
		})
	}
}

func TestSetOptionAndPosition(t *testing.T) {
	for _, c := range []struct{ name, optName, value, line string }{
		{"value", "USI_Hash", "64", "setoption name USI_Hash value 64"},
		{"spaces in name and value", "Debug Log File", "my log.txt", "setoption name Debug Log File value my log.txt"},
		{"button", "Clear Hash", "", "setoption name Clear Hash"},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := setOptionLine(c.optName, c.value)
			if line != c.line {
				t.Errorf("setOptionLine = %q, want %q", line, c.line)
			}
			name, value, err := parseSetOption(strings.Fields(line)[1:])
			if err != nil || name != c.optName || value != c.value {
				t.Errorf("parseSetOption(%q) = %q, %q, %v", line, name, value, err)
			}
		})
	}
	const mini = "rbsgk/4p/5/P4/KGSBR b - 1"
	for _, c := range []struct {
		name  string
		sfen  string
		moves []string
		line  string
	}{
		{"start", "", nil, "position startpos"},
		{"start and moves", "", []string{"2e3d", "4a3b"}, "position startpos moves 2e3d 4a3b"},
		{"sfen", mini, nil, "position sfen " + mini},
		{"sfen and moves", mini, []string{"1e2d"}, "position sfen " + mini + " moves 1e2d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := positionLine(c.sfen, c.moves)
			if line != c.line {
				t.Errorf("positionLine = %q, want %q", line, c.line)
			}
			sfen, moves, err := parsePosition(strings.Fields(line)[1:])
			if err != nil || sfen != c.sfen || !reflect.DeepEqual(moves, c.moves) {
				t.Errorf("parsePosition(%q) = %q, %q, %v", line, sfen, moves, err)
			}
		})
	}
}

// The fuzz targets check each message's round trip on what Parse reads: x = Parse(line)
// formats to a line that parses back to x (Parse(Format(x)) == x), and formatting is stable
// (Format(Parse(Format(x))) == Format(x)).

func FuzzOption(f *testing.F) {
	for _, s := range []string{"option name Style type combo default Normal var Solid var Normal",
		"option name USI_Hash type spin default 16 min 1 max 1024", "option name Clear Hash type button default x",
		"option name A type string default <empty>", "option name B type Spin default 1 max 3 min -2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		x, err := ParseOption(line)
		if err != nil {
			return
		}
		if x.Name == "" || x.Type == "" {
			t.Errorf("%q: accepted without a name or a type: %+v", line, x)
		}
		roundTrip(t, line, x, Option.Format, ParseOption)
	})
}

func FuzzSearchInfo(f *testing.F) {
	for _, s := range []string{"info depth 5 seldepth 7 score cp 34 nodes 1234 nps 5000 pv 2e3d 1a2b",
		"info score mate -2 string x", "info score mate +", "info currmove string string  x ", "info time 0 hashfull 0",
		"info score cp 3 lowerbound currmovenumber 2 cpuload 500 tbhits 0 multipv 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		x, err := ParseInfo(line)
		if err != nil {
			return
		}
		if x.Kind == ScoreNone && (x.CP != 0 || x.Mate != 0 || x.Bound != "") {
			t.Errorf("%q: a score value without a score kind: %+v", line, x)
		}
		for _, m := range x.PV {
			if infoKeywords[m] {
				t.Errorf("%q: pv swallowed the key %q", line, m)
			}
		}
		roundTrip(t, line, x, SearchInfo.Format, ParseInfo)
	})
}

func FuzzGoParams(f *testing.F) {
	for _, s := range []string{"go btime 1000 wtime 2000 byoyomi 300 ponder", "go mate infinite", "go infinite mate 5",
		"go perft 3", "go depth 7 nodes 10000 movetime 50 binc 1 winc 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		x, err := ParseGo(line)
		if err != nil {
			return
		}
		roundTrip(t, line, x, GoParams.Format, ParseGo)
	})
}

func FuzzBestMove(f *testing.F) {
	for _, s := range []string{"bestmove 2e3d ponder 4a3b", "bestmove resign", "bestmove a ponder"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		x, err := ParseBestMove(line)
		if err != nil {
			return
		}
		roundTrip(t, line, x, BestMove.Format, ParseBestMove)
	})
}

// roundTrip checks Parse(Format(x)) == x and that Format is stable on it.
func roundTrip[T any](t *testing.T, line string, x T, format func(T) string, parse func(string) (T, error)) {
	t.Helper()
	written := format(x)
	y, err := parse(written)
	if err != nil {
		t.Fatalf("%q read as %+v, written %q, which does not parse: %v", line, x, written, err)
	}
	if !reflect.DeepEqual(x, y) {
		t.Fatalf("%q read as %+v, written %q, read back as %+v", line, x, written, y)
	}
	if again := format(y); again != written {
		t.Fatalf("%q written %q, then %q", line, written, again)
	}
}
