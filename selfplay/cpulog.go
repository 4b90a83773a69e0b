package selfplay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// CPULine is one line of a CPU log (selfplay run --cpu-log FILE): what one run of a shard
// cost, appended when it ends, whether it finished or was stopped. A cluster's array tasks
// write one each, and whoever submitted them adds them up (train/loop counts them among a
// generation's CPU-hours), since getrusage sees only a process's own children.
type CPULine struct {
	Shard  string  `json:"shard"`
	Played int     `json:"played"`       // games this run played (not those a resume kept)
	Wall   float64 `json:"wall_seconds"` // the run's wall-clock time
	CPU    float64 `json:"cpu_seconds"`  // user and system, with its USI engines (internal/cputime)
}

// maxCPULogLine bounds a CPU log's line: a JSON object of four short fields is far shorter,
// so a longer line is not a CPU log's.
const maxCPULogLine = 4096

// AppendCPULog appends l as a line of JSON to the CPU log at path, creating it. A line is
// written with one write(2) to a file opened for appending, so that tasks sharing a log
// cannot interleave their lines.
func AppendCPULog(path string, l CPULine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("selfplay: cpu log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("selfplay: cpu log: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("selfplay: cpu log: %w", err)
	}
	return nil
}

// ReadCPULog reads every line of the CPU log at path. A line that is not a CPULine, or
// holds a negative or missing time, is an error naming the file and the line: a line cut
// short is one, and the sum would silently lose a run's cost.
func ReadCPULog(path string) ([]CPULine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("selfplay: cpu log: %w", err)
	}
	defer f.Close()
	var lines []CPULine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 256), maxCPULogLine)
	for n := 1; sc.Scan(); n++ {
		var l struct {
			CPULine
			CPU *float64 `json:"cpu_seconds"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("selfplay: cpu log %s: line %d: %v", path, n, err)
		}
		if l.CPU == nil || *l.CPU < 0 || l.Wall < 0 {
			return nil, fmt.Errorf("selfplay: cpu log %s: line %d: want cpu_seconds and wall_seconds of 0 or more", path, n)
		}
		l.CPULine.CPU = *l.CPU
		lines = append(lines, l.CPULine)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("selfplay: cpu log %s: a line longer than %d bytes", path, maxCPULogLine)
		}
		return nil, fmt.Errorf("selfplay: cpu log %s: %w", path, err)
	}
	return lines, nil
}
