package solver

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/ulikunitz/xz"
)

// MaxFileBytes bounds what ReadFile decompresses: a proof or certificate of 20 million
// entries, far above any shipped one, so that a damaged or hostile file cannot fill memory.
const MaxFileBytes = 1 << 30

// ReadFile reads a proof or certificate file, plain or compressed: gzip or xz, told by the
// first bytes (a large certificate ships as .cert.xz: datasets/README.md). What it returns is
// the plain text that ReadProof and ReadCertificate read, at most MaxFileBytes.
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r io.Reader
	switch {
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %v", path, err)
		}
		r = zr
	case bytes.HasPrefix(b, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		xr, err := xz.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: xz: %v", path, err)
		}
		r = xr
	default:
		return b, nil
	}
	out, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: truncated or damaged: %v", path, err)
	}
	if len(out) > MaxFileBytes {
		return nil, fmt.Errorf("%s: decompresses to more than %d bytes", path, MaxFileBytes)
	}
	return out, nil
}
