package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestProgressLines: off a terminal, NewProgress writes a line as the count passes each
// tenth and at the total, even when the count jumps (work done in batches), and NewCounter
// a line every so many items.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	update, finish := NewProgress(&b, 100, "layouts")
	for _, done := range []int{3, 9, 10, 11, 25, 26, 71, 100} {
		update(done)
	}
	finish()
	counts := regexp.MustCompile(`(?m)^layouts: (\d+)/100, \d+ s$`).FindAllStringSubmatch(b.String(), -1)
	var got []string
	for _, m := range counts {
		got = append(got, m[1])
	}
	if want := "10 25 71 100"; strings.Join(got, " ") != want || strings.Count(b.String(), "\n") != len(got) {
		t.Errorf("lines %q; want the counts %s", b.String(), want)
	}

	b.Reset()
	update, finish = NewCounter(&b, "games read", 1000)
	for done := 1; done <= 2500; done++ {
		update(done)
	}
	finish()
	if !regexp.MustCompile(`^games read: 1000 \(\d+/s\)\ngames read: 2000 \(\d+/s\)\n$`).MatchString(b.String()) {
		t.Errorf("counter lines %q", b.String())
	}
	b.Reset()
	update, _ = NewCounter(&b, "games", 0)
	update(5000)
	if b.Len() != 0 {
		t.Errorf("a counter without lines wrote %q", b.String())
	}
	if IsTerminal(&b) {
		t.Error("a buffer is a terminal")
	}
}
