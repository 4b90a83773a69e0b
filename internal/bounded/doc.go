// Package bounded reads untrusted input within stated limits: a file's size before it is
// read, a stream's bytes as they are decoded, and a short prefix of bad input for an error
// message. Each reader of the toolkit states its own limit (the largest valid input with
// room to spare) and refuses more before it allocates for it, so that a damaged, foreign or
// hostile file ends in a one-line error rather than in gigabytes of memory.
//
//	b, err := bounded.ReadFile(path, nnue.MaxFileBytes) // a regular file of at most that size
//	r := bounded.NewReader(zr, solver.MaxFileBytes, "decompressed")
//	fmt.Errorf("the first line is %s", bounded.Quote(line))
package bounded
