package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/solver"
)

// status shows how a long df-pn search stands: on a terminal as one line refreshed in
// place, otherwise as a line per interval, so that a log keeps the history.
type status struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	// costs are the nodes each decided length took, for the estimate of the current one.
	costs    []int64
	cum      int64
	lastN    int64
	lastTime float64
}

func newStatus(stderr io.Writer) *status {
	return &status{w: stderr, terminal: cli.IsTerminal(stderr)}
}

// decided records that a length was decided when the search had generated nodes nodes.
func (s *status) decided(nodes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.costs = append(s.costs, nodes-s.cum)
	s.cum = nodes
}

// estimate returns the nodes the current length may take in all, by the growth from the
// last-but-one length to the last (lengths of one parity grow by a steady factor, roughly),
// or 0 without two lengths to go by.
func (s *status) estimate() int64 {
	n := len(s.costs)
	if n < 2 || s.costs[n-2] <= 0 {
		return 0
	}
	return int64(float64(s.costs[n-1]) * float64(s.costs[n-1]) / float64(s.costs[n-2]))
}

func (s *status) show(st solver.DFPNStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rate := 0.0
	if dt := st.Seconds - s.lastTime; dt > 0 && s.lastN > 0 {
		rate = float64(st.Nodes-s.lastN) / dt
	} else if st.Seconds > 0 {
		rate = float64(st.Nodes) / st.Seconds
	}
	s.lastN, s.lastTime = st.Nodes, st.Seconds
	fill := fmt.Sprintf("%d entries", st.TableSize)
	if st.TableLimit > 0 {
		fill = fmt.Sprintf("%d entries (%.0f%% of %d)", st.TableSize, 100*float64(st.TableSize)/float64(st.TableLimit), st.TableLimit)
	}
	line := fmt.Sprintf("solve: df-pn: searching %d plies (no mate within %d), %d nodes, %.0f nodes/s, table %s, %.1f s", st.Plies, st.Disproved, st.Nodes, rate, fill, st.Seconds)
	if est := s.estimate(); est > 0 && rate > 0 {
		left := float64(est-(st.Nodes-s.cum)) / rate
		if left > 0 {
			line += fmt.Sprintf(", this length ~%.0f s more at the last growth", left)
		} else {
			line += ", past this length's estimate"
		}
	}
	if s.terminal {
		fmt.Fprintf(s.w, "\r\x1b[K%s", line)
		return
	}
	fmt.Fprintln(s.w, line)
}
