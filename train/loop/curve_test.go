package loop

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

// TestCurve reads a log by hand: generation 0 is the anchor itself (Elo 0 exactly),
// generation 1 lost every anchor game (its interval open below: null in JSON), generation 2
// has no anchor match (left out), generation 3 a finite interval.
func TestCurve(t *testing.T) {
	lines := []string{
		`{"generation":0,"result":"initial","anchor":{"games":0,"score":0.5,"elo":0,"elo_low":0,"elo_high":0,"exact":true}}`,
		`{"generation":1,"result":"promoted","anchor":{"games":4,"losses":4,"score":0,"elo":null,"elo_low":null,"elo_high":-200}}`,
		`{"generation":2,"result":"rejected"}`,
		`{"generation":3,"result":"promoted","anchor":{"games":100,"wins":60,"draws":0,"losses":40,"score":0.6,"elo":70.4,"elo_low":1.5,"elo_high":141.2}}`,
	}
	var gens []Generation
	for _, l := range lines {
		var g Generation
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		gens = append(gens, g)
	}
	pts := Curve(gens)
	if len(pts) != 3 || pts[0].Generation != 0 || pts[1].Generation != 1 || pts[2].Generation != 3 {
		t.Fatalf("curve %+v; want generations 0, 1 and 3", pts)
	}
	if p := pts[0]; p.Elo != 0 || p.Low != 0 || p.High != 0 {
		t.Errorf("generation 0: %+v; want exactly 0", p)
	}
	if p := pts[1]; !math.IsNaN(p.Elo) || !math.IsInf(p.Low, -1) || p.High != -200 {
		t.Errorf("generation 1: %+v; want no Elo, interval (-Inf, -200]", p)
	}
	if p := pts[2]; p.Elo != 70.4 || p.Low != 1.5 || p.High != 141.2 || p.Games != 100 {
		t.Errorf("generation 3: %+v", p)
	}
	c := CurveChart(pts, "the anchor")
	if xy := c.Series[0].XYs; len(xy) != 2 || xy[1].X != 3 || xy[1].Y != 70.4 {
		t.Errorf("plotted points %v; want generations 0 and 3 (1 has no finite Elo)", xy)
	}
	p, err := PlotCurve(pts, "the anchor")
	if err != nil {
		t.Fatal(err)
	}
	figuretest.Check(t, "learning curve", p)
}

// TestProvenanceKeys: provenance.json writes the gate's SPRT in snake_case, and a run
// directory written before (keys Elo0, Elo1, Alpha, Beta, Model) still reads to the same
// test, so its resume check still passes.
func TestProvenanceKeys(t *testing.T) {
	old := `{"config":{"sprt":{"Elo0":0,"Elo1":20,"Alpha":0.05,"Beta":0.05,"Model":"logistic"}}}`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "provenance.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ReadProvenance(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := sprt.Test{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: sprt.Logistic}
	if p.Config.SPRT != want {
		t.Fatalf("old keys read as %+v, want %+v", p.Config.SPRT, want)
	}
	b, err := json.Marshal(p.Config.SPRT)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := string(b), `{"elo0":0,"elo1":20,"alpha":0.05,"beta":0.05,"model":"logistic"}`; got != w {
		t.Errorf("written as %s, want %s", got, w)
	}
}
