package selfplay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCPULogAppends: two runs' lines appended to one log read back in order.
func TestCPULogAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu-3.jsonl")
	want := []CPULine{{Shard: "3/8", Played: 7, Wall: 60.5, CPU: 59.25}, {Shard: "3/8", Played: 0, Wall: 0.5, CPU: 0.125}}
	for _, l := range want {
		if err := AppendCPULog(path, l); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadCPULog(path)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, %v; want %+v", got, err, want)
	}
}

// TestCPULogRefuses: lines that are not a run's cost are refused with the file and line.
func TestCPULogRefuses(t *testing.T) {
	good := `{"shard":"0/2","played":3,"wall_seconds":2,"cpu_seconds":1.5}` + "\n"
	for _, c := range []struct{ name, text, want string }{
		{"not JSON", good + "cpu 12\n", "line 2"},
		{"no CPU time", `{"shard":"0/2","played":3,"wall_seconds":2}` + "\n", "line 1: want cpu_seconds"},
		{"negative CPU", `{"cpu_seconds":-1,"wall_seconds":2}` + "\n", "line 1: want"},
		{"negative wall", `{"cpu_seconds":1,"wall_seconds":-2}` + "\n", "line 1: want"},
		{"cut short", good + `{"shard":"1/2","played":3,"wall_sec`, "line 2"},
		{"too long", good + `{"shard":"` + strings.Repeat("x", 5000) + `"}` + "\n", "longer than 4096"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cpu-0.jsonl")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadCPULog(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v; want one line naming %s and %q", err, path, c.want)
			}
		})
	}
}
