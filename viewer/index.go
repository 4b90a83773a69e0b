package viewer

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// indexFields are the record fields the games list shows and filters on: the rest of a
// record (its moves and statistics, nine tenths of its bytes) is read again only for the game
// page, from the record's location.
const indexFields = record.FieldID | record.FieldVariant | record.FieldStart | record.FieldStartName |
	record.FieldResult | record.FieldTermination | record.FieldPlies | record.FieldPlayers

// entry is one game of the index: where its record is and what the list shows of it, in a
// few dozen bytes, so that a hundred thousand games take a few megabytes.
type entry struct {
	loc         record.Location
	id          int64
	plies       int32
	file        uint16 // the record file, an index in gameIndex.files
	sente, gote uint32 // player names, indices in gameIndex.names
	start       uint32 // the start's name (or SFEN), an index in gameIndex.starts
	result      uint8  // an index in results
	termination uint8  // an index in terminations (record.Terminations)
}

var results = []record.Result{record.Sente, record.Gote, record.Draw}

// recordFile is one record file or games table of the index.
type recordFile struct {
	path     string
	source   int // the source that named it
	table    bool
	first    int // its games are entries [first, first+games)
	games    int
	bad      int      // bad records skipped
	badLines []string // the first few, to show
}

// maxBadShown is how many bad records a damaged file's page quotes.
const maxBadShown = 5

// gameIndex is the games of every record file, in the order of the command line and of the
// files, with the strings they share interned.
type gameIndex struct {
	entries []entry
	files   []*recordFile
	names   interner
	starts  interner
}

type interner struct {
	ids  map[string]uint32
	list []string
}

func (in *interner) id(s string) uint32 {
	if id, ok := in.ids[s]; ok {
		return id
	}
	if in.ids == nil {
		in.ids = map[string]uint32{}
	}
	id := uint32(len(in.list))
	in.ids[s] = id
	in.list = append(in.list, s)
	return id
}

// sorted returns the strings in alphabetical order, for a filter's choices.
func (in *interner) sorted() []string {
	out := slices.Clone(in.list)
	slices.Sort(out)
	return out
}

// add indexes one record file or games table. A bad record is counted and skipped; a file
// that cannot be read at all is an error, and the games read before it stay indexed.
func (ix *gameIndex) add(path string, source int, progress func()) (*recordFile, error) {
	if len(ix.files) == 1<<16-1 {
		return nil, fmt.Errorf("more than %d record files", 1<<16-1)
	}
	f := &recordFile{path: path, source: source, first: len(ix.entries), table: table.IsParquet(path)}
	ix.files = append(ix.files, f)
	keep := func(g *record.Game, at record.Location) {
		ix.entries = append(ix.entries, ix.entryOf(g, at, len(ix.files)-1))
		f.games++
		if progress != nil {
			progress()
		}
	}
	bad := func(err error) {
		f.bad++
		if len(f.badLines) < maxBadShown {
			f.badLines = append(f.badLines, err.Error())
		}
	}
	if f.table {
		r := table.NewReader([]string{path}, table.Options{Fields: indexFields, SkipInvalid: true, OnSkip: bad})
		defer r.Close()
		for {
			g, err := r.Read()
			if err == io.EOF {
				return f, nil
			}
			if err != nil {
				return f, err
			}
			_, row := r.Position()
			keep(g, record.Location{Offset: -1, Line: row})
		}
	}
	return f, record.Locate(path, indexFields, func(g *record.Game, at record.Location, err error) error {
		if err != nil {
			bad(err)
		} else {
			keep(g, at)
		}
		return nil
	})
}

func (ix *gameIndex) entryOf(g *record.Game, at record.Location, file int) entry {
	start := g.StartName
	if start == "" {
		start = g.Start
	}
	e := entry{loc: at, id: int64(g.ID), plies: int32(min(g.Plies, 1<<31-1)), file: uint16(file),
		sente: ix.names.id(g.Players.Sente.Name), gote: ix.names.id(g.Players.Gote.Name), start: ix.starts.id(start)}
	e.result = uint8(slices.Index(results, g.Result))
	e.termination = uint8(slices.Index(record.Terminations(), g.Termination))
	return e
}

// read reads the whole record of game n of the index.
func (ix *gameIndex) read(n int) (*record.Game, error) {
	e := ix.entries[n]
	f := ix.files[e.file]
	if !f.table {
		return record.ReadAt(f.path, e.loc)
	}
	// A games table has no byte offsets: read on to the row.
	r := table.NewReader([]string{f.path}, table.Options{SkipInvalid: true})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: row %d: no such game: the file changed since it was read", f.path, e.loc.Line)
		}
		if err != nil {
			return nil, err
		}
		if _, row := r.Position(); row == e.loc.Line {
			return g, nil
		}
	}
}

// filter is what the games list selects: every field empty or zero selects all games.
type filter struct {
	Source      int    // 1 + the source's index; 0: every source
	Player      string // a side's player
	Result      string
	Termination string
	Start       string
	MinPlies    int
	MaxPlies    int // 0: no bound
}

// maxFilterText bounds a filter's text values: longer ones name nothing in the index.
const maxFilterText = 200

// parseFilter reads a filter from a query. A value that names nothing (an unknown result,
// a player no game has) is kept and selects no game; one that is not a number where a number
// is wanted is an error.
func parseFilter(get func(string) string, sources int) (filter, error) {
	f := filter{Player: get("player"), Result: get("result"), Termination: get("termination"), Start: get("start")}
	for _, s := range []string{f.Player, f.Result, f.Termination, f.Start} {
		if len(s) > maxFilterText {
			return f, fmt.Errorf("a filter value of %d bytes (at most %d)", len(s), maxFilterText)
		}
	}
	for _, n := range []struct {
		key string
		to  *int
		max int
	}{{"src", &f.Source, sources}, {"min", &f.MinPlies, 1 << 30}, {"max", &f.MaxPlies, 1 << 30}} {
		v, err := queryInt(get(n.key), 0, n.max)
		if err != nil {
			return f, fmt.Errorf("%s: %w", n.key, err)
		}
		*n.to = v
	}
	return f, nil
}

// queryInt reads a count from a query value: empty is 0, anything else must be a decimal
// integer in [lo, hi].
func queryInt(s string, lo, hi int) (int, error) {
	if s == "" {
		return 0, nil
	}
	if len(s) > 10 {
		return 0, fmt.Errorf("%.20q… is not a number from %d to %d", s, lo, hi)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// values returns the filter as query values, for links to other pages of the same list.
func (f filter) values() [][2]string {
	var out [][2]string
	add := func(k, v string) {
		if v != "" && v != "0" {
			out = append(out, [2]string{k, v})
		}
	}
	add("src", strconv.Itoa(f.Source))
	add("player", f.Player)
	add("result", f.Result)
	add("termination", f.Termination)
	add("start", f.Start)
	add("min", strconv.Itoa(f.MinPlies))
	add("max", strconv.Itoa(f.MaxPlies))
	return out
}

func (f filter) empty() bool { return f.values() == nil }

// matcher is a filter compiled against the index: its strings turned into ids once, so that
// a scan of the entries compares integers only.
type matcher struct {
	none                bool // a value names nothing: no game matches
	files               []bool
	player, start       int64 // -1: any
	result, termination int
	minPlies, maxPlies  int32
}

func (ix *gameIndex) matcher(f filter) matcher {
	m := matcher{player: -1, start: -1, result: -1, termination: -1, minPlies: int32(f.MinPlies), maxPlies: int32(f.MaxPlies)}
	if f.Source > 0 {
		m.files = make([]bool, len(ix.files))
		for i, file := range ix.files {
			m.files[i] = file.source == f.Source-1
		}
	}
	lookup := func(in *interner, s string) int64 {
		id, ok := in.ids[s]
		if !ok {
			m.none = true
		}
		return int64(id)
	}
	if f.Player != "" {
		m.player = lookup(&ix.names, f.Player)
	}
	if f.Start != "" {
		m.start = lookup(&ix.starts, f.Start)
	}
	if f.Result != "" {
		if m.result = slices.Index(results, record.Result(f.Result)); m.result < 0 {
			m.none = true
		}
	}
	if f.Termination != "" {
		if m.termination = slices.Index(record.Terminations(), record.Termination(f.Termination)); m.termination < 0 {
			m.none = true
		}
	}
	return m
}

func (m *matcher) match(e *entry) bool {
	switch {
	case m.none,
		m.files != nil && !m.files[e.file],
		m.player >= 0 && int64(e.sente) != m.player && int64(e.gote) != m.player,
		m.start >= 0 && int64(e.start) != m.start,
		m.result >= 0 && int(e.result) != m.result,
		m.termination >= 0 && int(e.termination) != m.termination,
		e.plies < m.minPlies,
		m.maxPlies > 0 && e.plies > m.maxPlies:
		return false
	}
	return true
}

// page returns the entries (as indices) of one page of the games the filter selects, and
// how many it selects in all. One pass over the index, comparing integers: a few
// milliseconds for a hundred thousand games.
func (ix *gameIndex) page(f filter, page, size int) (rows []int, total int) {
	m := ix.matcher(f)
	if m.none {
		return nil, 0
	}
	from := page * size
	for i := range ix.entries {
		if !m.match(&ix.entries[i]) {
			continue
		}
		if total >= from && total < from+size {
			rows = append(rows, i)
		}
		total++
	}
	return rows, total
}

// gameRow is one game as the list shows it.
type gameRow struct {
	N           int // its number in the index: its page's address
	ID          int64
	Sente, Gote string
	Result      string
	Termination string
	Plies       int
	Start       string
	File        string
}

func (ix *gameIndex) row(n int) gameRow {
	e := &ix.entries[n]
	r := gameRow{N: n, ID: e.id, Sente: ix.names.list[e.sente], Gote: ix.names.list[e.gote], Plies: int(e.plies),
		Start: ix.starts.list[e.start], File: ix.files[e.file].path}
	if int(e.result) < len(results) {
		r.Result = string(results[e.result])
	}
	if ts := record.Terminations(); int(e.termination) < len(ts) {
		r.Termination = string(ts[e.termination])
	}
	return r
}

// errNoGame is a game number past the index.
var errNoGame = errors.New("no such game")

// gameNumber reads a game's number from a URL.
func (ix *gameIndex) gameNumber(s string) (int, error) {
	if len(ix.entries) == 0 {
		return 0, errNoGame
	}
	n, err := queryInt(s, 0, len(ix.entries)-1)
	if err != nil || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "0") && s != "0" {
		return 0, errNoGame
	}
	return n, nil
}
