package bounded_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/internal/bounded"
)

// A stream decoded past its limit is an error, and the error quotes the bad input by its
// first bytes only.
func Example() {
	line := strings.Repeat("\x00", 1<<20)
	_, err := io.ReadAll(bounded.NewReader(strings.NewReader(line), 64<<10, "the first line"))
	fmt.Println(err)
	fmt.Println("the line is", bounded.Quote([]byte("not a record: "+strings.Repeat("x", 100))))
	// Output:
	// the first line: more than 64 KiB: beyond the limit
	// the line is "not a record: xxxxxxxxxxxxxxxxxxxxxxxxxx"... (114 bytes)
}
