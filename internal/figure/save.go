package figure

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/shogilab/shogilab/internal/atomicfile"
)

// Encode draws p as o says (at o.Size, with its title if o.Titles; o.Formats is not used)
// and writes it to w in format f.
func (p *Plot) Encode(w io.Writer, f Format, o Options) error {
	width, height := o.Size.Dimensions()
	var canvas interface {
		vg.CanvasSizer
		io.WriterTo
	}
	var text *pdfText
	switch f {
	case PNG:
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI))}
	case SVG:
		canvas = vgsvg.New(width, height)
	case PDF:
		text = &pdfText{Canvas: vgpdf.New(width, height)}
		canvas = text
	default:
		return fmt.Errorf("figure: unknown format %q", f)
	}
	if _, err := p.Draw(draw.New(canvas), o); err != nil {
		return err
	}
	if text != nil && text.err != nil {
		return text.err
	}
	if _, err := canvas.WriteTo(w); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	return nil
}

// Save writes p to dir/name.<format> for each of o.Formats, creating dir if needed, and
// returns the paths written.
func (p *Plot) Save(dir, name string, o Options) ([]string, error) {
	if len(o.Formats) == 0 {
		return nil, fmt.Errorf("figure: %s: no formats to save", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("figure: %w", err)
	}
	var paths []string
	for _, f := range o.Formats {
		path := filepath.Join(dir, name+"."+string(f))
		if err := writeFile(path, func(w io.Writer) error { return p.Encode(w, f, o) }); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeFile writes a figure through package atomicfile: a killed run or a full disk leaves
// the previous figure, not a part of the new one.
func writeFile(path string, write func(io.Writer) error) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		buf := bufio.NewWriter(w)
		if err := write(buf); err != nil {
			return err
		}
		return buf.Flush()
	})
	if err != nil {
		return fmt.Errorf("figure: writing %s: %w", path, err)
	}
	return nil
}

// pdfText passes text to the PDF canvas in Windows-1252, the encoding vgpdf declares for
// its embedded TrueType fonts: handed UTF-8, it would print every byte of a non-ASCII
// character as a letter of its own ("Â±" for "±"). Text outside that encoding cannot be
// printed, and drawing it is an error rather than garbage in a paper.
type pdfText struct {
	*vgpdf.Canvas
	err error
}

func (c *pdfText) FillString(f font.Face, pt vg.Point, s string) {
	enc, err := charmap.Windows1252.NewEncoder().String(s)
	if err != nil {
		if c.err == nil {
			c.err = fmt.Errorf("figure: PDF: %q has a character outside Windows-1252, which the embedded fonts are encoded in", s)
		}
		return
	}
	c.Canvas.FillString(f, pt, enc)
}
