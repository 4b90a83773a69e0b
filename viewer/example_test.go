package viewer_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"regexp"

	"github.com/shogilab/shogilab/viewer"
)

// A server over the bare-king proof: its root page says the mate's length.
func Example() {
	s, err := viewer.New([]string{"../datasets/handicap/bare-king.proof"}, viewer.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := httptest.NewRequest("GET", "/proof/0", nil)
	req.Host = "127.0.0.1:8080"
	w := httptest.NewRecorder()
	s.Handler("127.0.0.1:8080").ServeHTTP(w, req)
	body, _ := io.ReadAll(w.Body)
	fmt.Println(w.Code, regexp.MustCompile(`Mate in <b id="distance">(\d+)</b>`).FindStringSubmatch(string(body))[1])
	// Output: 200 8
}
