package solver

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/ulikunitz/xz"
)

// The limits of a proof or certificate file, read by OpenFile, ReadProof and
// ReadCertificate (package internal/bounded).
const (
	// MaxEntries bounds the entries a file may declare, and so the table a reader builds:
	// 67,108,864, nine times the largest shipped file (the two-piece certificate's
	// 7,387,031, datasets/README.md) and room for the two-piece certificate of 20 plies
	// (some 44 million, datasets/handicap/README.md), a table of some 4 GB in memory.
	MaxEntries = 1 << 26
	// MaxLineBytes bounds a line: an entry line is some 40 bytes, the root's some 30.
	MaxLineBytes = 4 << 10
	// MaxFileBytes bounds the plain text OpenFile delivers: MaxEntries lines of 64 bytes
	// (4 GiB).
	MaxFileBytes = MaxEntries * 64
)

// OpenFile opens a proof or certificate file, plain or compressed, and returns its plain
// text as a stream (PlainText). The caller closes it. Its errors opening the file name the
// path; those of the stream (a damaged or cut compressed file) say what went wrong, for the
// caller to place.
func OpenFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := PlainText(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &file{r, f}, nil
}

// PlainText returns the plain text of a proof or certificate file read from r, plain or
// compressed (gzip or xz, told by the first bytes; a large certificate ships as .cert.xz:
// datasets/README.md), as a stream that fails past MaxFileBytes: what is decompressed is
// never held whole.
func PlainText(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(6)
	var plain io.Reader = br
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %v", err)
		}
		plain = &streamErrors{zr, "gzip"}
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		xr, err := xz.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("xz: %v", err)
		}
		plain = &streamErrors{xr, "xz"}
	}
	return bounded.NewReader(plain, MaxFileBytes, "the plain text"), nil
}

type file struct {
	io.Reader
	io.Closer
}

// streamErrors says which file a decompression error is in, and that the file is damaged.
type streamErrors struct {
	r    io.Reader
	what string
}

func (s *streamErrors) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("%s: the file ends early (truncated?)", s.what)
		} else {
			err = fmt.Errorf("%s: damaged: %v", s.what, err)
		}
	}
	return n, err
}

// FileFormat reads the first line of a proof or certificate file from r without consuming
// it: ProofFormat, CertificateFormat, or an error that quotes at most a short prefix of
// what is there instead.
func FileFormat(r *bufio.Reader) (string, error) {
	longest := max(len(ProofFormat), len(CertificateFormat))
	head, err := r.Peek(longest + 2) // the line, perhaps a carriage return, and its newline
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return "", err
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	switch f := string(bytes.TrimSpace(line)); f {
	case ProofFormat, CertificateFormat:
		return f, nil
	}
	// Quote what the line starts with, however long it is.
	peek, _ := r.Peek(bounded.QuoteBytes + 1)
	first, _, _ := bytes.Cut(peek, []byte("\n"))
	return "", fmt.Errorf("the first line is %s, want %q or %q", bounded.Prefix(first), ProofFormat, CertificateFormat)
}
