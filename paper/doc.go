// Package paper builds the figures of the shogilab paper, with their captions, from the
// toolkit's packages and the shipped datasets (datasets/ in the repository).
//
// Each section of the paper is a study: a function that runs the toolkit with the paper's
// parameters (written here once, as constants) and returns the numbers, and a Figures method
// that turns them into figures. The notebooks in notebooks/ call the same functions and display
// the figures inline; cmd/figures saves them as PNG and SVG. Captions are computed from the
// numbers the figures show, so the notebook test can check that a notebook and cmd/figures
// agree by comparing captions and image bytes:
//
//	s, err := paper.NewMawariStudy()
//	for _, f := range s.Figures() {
//		paths, err := f.Save("figures") // figures/<name>.png and .svg
//		fmt.Println(f.Caption)
//	}
//
// Root finds the repository, for the datasets: the SHOGILAB_ROOT environment variable, or the
// nearest directory upwards whose go.mod is this module's.
package paper
