// Package solver settles forced-mate questions in Minishogi exactly, with proofs anyone can
// re-check: the shortest forced mate of an attacker from a position (the handicap starts in
// particular), checks of claimed mating lines, and studies of the reachable graph.
//
// Two independent methods answer the same question, both over package retro:
//
//	root, _ := minishogi.Handicap("bare-king")
//	d, err := solver.SolveDFPN(root, minishogi.Sente, solver.DFPNOptions{MaxPlies: 21})
//	// d.Plies == 8, d.PV (the defender's longest defence), d.Proof
//	err = solver.CheckProof(root, d.Proof)   // replayed with the rules engine's move generator
//	r := solver.SolveRetro(root, minishogi.Sente, solver.RetroOptions{MaxPlies: 8})
//	// r.Plies == 8, r.Layers (positions per ply), bytes and speeds of the two sweeps
//
// SolveDFPN runs df-pn with iterative deepening on the mate length: each length is proved or
// disproved exactly, so the first one proved is the minimum. SolveRetro enumerates every
// position within N plies, deduplicated by the exact 85-bit minishogi.Code, and labels them
// backwards (retro.Graph.SolveMate); it deepens N one ply at a time within a memory budget.
//
// Rules inside a mate search. A side without legal moves loses, whether in check or not
// (docs/rules.md#no-legal-move), and an illegal pawn-drop mate is never generated. Repetition is
// ignored: a shortest mate never repeats a position (its distance to mate falls by one each
// ply), so no repetition rule can fire along it, and a defender cannot escape a bounded mate
// by repeating, since the bound ends the line first. The edge case left out is the converse:
// a line that wins for the attacker by the repetition rules (the fourth occurrence, at least
// twelve plies of cycling) is not a mate and is not counted.
//
// Bounds. Every result has two sides, kept apart: an upper bound, "mate in at most U plies",
// shown by a proof that CheckProof replays, and a lower bound, "no mate within L plies",
// proved by the search and, where its size allows (DFPNOptions.Certificate), shown by a
// disproof certificate (for each attacker move, one defender reply that escapes, recursively
// to the bound) that CheckCertificate replays as plainly. DFPNOptions.Upper proves one length
// directly, without deepening: a cheap upper bound (the three-piece mate within 16 takes 2M
// nodes that way, the minimal-length search 60M, nearly all to disprove 14).
//
// The df-pn table (retro.MateSearch) has a fixed budget, hand and depth superiority through
// moveRules.Split, df-pn+ initial numbers through moveRules.Initial, and parallel workers
// (DFPNOptions.Workers) with virtual proof numbers at the attacker's nodes; two of them visit
// about as many nodes as one for about the same CPU, so on an idle machine the three-piece
// mate in 16 takes 1.9 times less by the medians, 27 s against 51 s (datasets/handicap/
// README.md, Two workers).
//
// Long solves. DFPNOptions.Checkpoint is given the search's state (a Checkpoint: the mate
// length being searched, the longest disproved, nodes, elapsed seconds and every table
// entry, under a CheckpointHeader naming the problem, the root, the attacker, MaxPlies and
// Upper) every CheckpointEvery and when a node limit (NodeLimit), the time limit or Interrupt
// stops the search; DFPNOptions.Resume continues from one with nothing decided lost.
// WriteCheckpoint saves it atomically (a .tmp file, fsync, rename) as gzip over encoding/gob,
// format CheckpointFormat, streaming the table from the search (retro.MateSearch.All) in
// messages of 65,536 entries, so that saving costs no copy of the table. OpenCheckpoint, the
// resume's reader, streams those messages into the new search's table one at a time, so that
// resuming costs none either (ReadCheckpoint reads the table whole, for inspection); both
// refuse a foreign, other-version, truncated or damaged file before anything is restored.
// The periodic events cut the search into deadline slices (retro.MateSearch.SetDeadline),
// after each of which the same length is searched on from the table; DFPNOptions.Status uses
// the same slices to report progress (DFPNStatus).
//
// Splitting. SplitLeaves lists the distinct positions exactly K plies from the root (the
// first K plies are a full tree of both sides' moves); each is an independent subproblem, a
// minimal mate within L-K plies, to be solved anywhere. MergeSplit puts their answers back by
// the AND/OR rule over those K plies (an attacker node takes its shortest child, a defender
// node its longest, a side without moves loses there) into the root's minimal mate within L,
// and joins the first plies' moves and the leaves' proofs into one proof, keeping at each
// position the move of the shortest mate known from it (so that every position still mates
// within its length); CheckProof checks the result like any other. MergeCertificate does the
// same for the lower bound: the defender's longest defence over the first K plies and the
// leaves' certificates below, where two give one position different replies the one shown
// over the most plies (retro.DisproofPlies), into one certificate that CheckCertificate
// checks (docs/proofs.md#split-certificates). SplitLeavesUnder splits with the defender's
// replies of a certificate of a shorter bound followed alone: a seventh of the subproblems
// at the two-piece start, for a lower bound only, which MergeCertificate merges the same way
// given those replies.
//
// Proofs are written as text (docs/proofs.md specifies the format): one line per attacker node,
// the position and the attacker's move; the checker generates every defence itself.
// Certificates (WriteCertificate) mirror them: one line per defender node and its reply.
// CheckProofWith and CheckCertificateWith check either with another engine's legal moves (a
// MoveSource such as Fairy-Stockfish through usi.Client) and report where they differ from
// ours (docs/proofs.md#another-engine). CheckLine
// judges a claimed line move by move and returns refutations: an illegal move, a line that
// does not end in mate, a defence that escapes or lasts longer, or a shorter mate.
package solver
