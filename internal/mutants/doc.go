// Command mutants is the mutation audit of the test suite: it plants small, plausible bugs
// (a flipped comparison, an off-by-one, a skipped check) one at a time in a copy of the
// module and runs the tests of the packages that should catch each one. A planted bug that
// no test catches marks a hole in the tests: a claim the suite makes and does not hold. The
// audit began with issue 38, which found 17 such holes in the checkers (proofs,
// certificates, proof files, checkpoints), the match harness and the statistics.
//
// The planted bugs are data, the table in list.go: for each, the file, the exact text it
// changes (which must occur once in that file), the text it becomes, the packages whose
// tests must catch it, whether the -short tests must catch it too (the analysis/sprt
// bounds: -short is what people run while they work), and, for the rare bug that changes
// nothing a test could see, why it is equivalent. go test ./internal/mutants/ checks that
// every entry still applies to the code, so an edit that moves or removes a line fails there
// with every entry to update; the audit checks the same before it copies anything, and
// refuses to run a table with a stale entry rather than skip it.
//
// Run it from anywhere in the module, niced (it runs package tests 70 times: at the merge of
// main 163722a, 26 minutes at a load of 7 to 14 on two cores, with 63 of its 64 planted bugs
// caught and the one equivalent, proof-memo-off, surviving as expected):
//
//	nice -n 5 go run ./internal/mutants            # every planted bug
//	go run ./internal/mutants -only proof-memo     # some of them, by id
//	go run ./internal/mutants -list                # the table, without running anything
//	go run ./internal/mutants -module /tmp/old     # audit another checkout (an older commit)
//
// It copies the module (without .git) to a temporary directory, first runs each package's
// tests there unchanged (they must pass, or the audit would count their failures as kills),
// then, for each planted bug in turn, changes the file, runs go test -count=1 -failfast on
// the packages named (with -short as well where asked), and puts the file back. It prints
// one line per planted bug (killed, with the first failing test; survived; equivalent; or
// broken, for a change that does not compile, which is a mistake in the table) and a
// summary, or with --json one JSON object. The exit status is 1 when a planted bug that is
// not equivalent survives.
package main
