package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLocateAndReadAt indexes files of every form with Locate and reads each game back alone
// with ReadAt: the games must be the ones written, and the bad lines reported where they are.
func TestLocateAndReadAt(t *testing.T) {
	dir := t.TempDir()
	ids := []int{0, 1, 2, 3, 4, 5, 6}
	plain := filepath.Join(dir, "plain.jsonl")
	members := filepath.Join(dir, "members.jsonl.gz")
	writeFile(t, plain, false, ids...)
	writeFile(t, members, true, ids...)
	// A file compressed whole, as gzip -9 of a finished file is.
	text, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.jsonl.gz")
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(text)
	zw.Close()
	if err := os.WriteFile(whole, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A damaged line (line 3), a blank line (line 5), and a cut last record.
	damaged := filepath.Join(dir, "damaged.jsonl")
	lines := bytes.SplitAfter(text, []byte{'\n'})
	var d []byte
	d = append(d, lines[0]...)
	d = append(d, lines[1]...)
	d = append(d, "{\"id\": 7, not json\n\n"...)
	d = append(d, lines[2]...)
	d = append(d, lines[3][:20]...)
	if err := os.WriteFile(damaged, d, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		path      string
		ids       []int
		badLines  []int
		seekable  bool // every record has a byte offset
		wantLines []int
	}{
		{"plain", plain, ids, nil, true, []int{1, 2, 3, 4, 5, 6, 7}},
		{"gzip, a member per game", members, ids, nil, true, []int{1, 2, 3, 4, 5, 6, 7}},
		{"gzip compressed whole", whole, ids, nil, false, []int{1, 2, 3, 4, 5, 6, 7}},
		{"damaged", damaged, []int{0, 1, 2}, []int{3, 6}, true, []int{1, 2, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got, badLines, gotLines []int
			var locs []Location
			err := Locate(c.path, FieldID|FieldPlies, func(g *Game, at Location, err error) error {
				if err != nil {
					var le *LineError
					if !errors.As(err, &le) || le.Line != at.Line {
						t.Errorf("bad record at line %d: error %v is not a LineError of that line", at.Line, err)
					}
					badLines = append(badLines, at.Line)
					return nil
				}
				if g.Moves != nil || g.Players.Sente.Name != "" {
					t.Errorf("game %d: fields not asked for were decoded", g.ID)
				}
				got = append(got, g.ID)
				gotLines = append(gotLines, at.Line)
				locs = append(locs, at)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.ids) || !reflect.DeepEqual(badLines, c.badLines) || !reflect.DeepEqual(gotLines, c.wantLines) {
				t.Fatalf("ids %v at lines %v, bad lines %v; want %v at %v, bad %v", got, gotLines, badLines, c.ids, c.wantLines, c.badLines)
			}
			for i, at := range locs {
				if (at.Offset >= 0) != (c.seekable || i == 0) {
					t.Errorf("game %d: offset %d", got[i], at.Offset)
				}
				g, err := ReadAt(c.path, at)
				if err != nil {
					t.Fatalf("ReadAt(%+v): %v", at, err)
				}
				want := testGame(got[i])
				if !reflect.DeepEqual(g, want) {
					t.Errorf("ReadAt(%+v) = game %d %v, want %v", at, g.ID, g.Moves, want.Moves)
				}
			}
		})
	}
}

func TestReadAtPastTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.jsonl")
	writeFile(t, path, false, 0, 1)
	if _, err := ReadAt(path, Location{Offset: -1, Line: 9}); err == nil {
		t.Error("ReadAt of line 9 of a two-line file: no error")
	}
	if _, err := ReadAt(path, Location{Offset: 3, Line: 1}); err == nil {
		t.Error("ReadAt of an offset inside a record: no error")
	}
}
