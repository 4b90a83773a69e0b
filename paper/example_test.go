package paper_test

import (
	"fmt"

	"github.com/shogilab/shogilab/paper"
)

// The Bushi section: solve the default layout (White wins in 20 plies, docs/rules.md
// #bushi-draws; the 1061 positions are the shipped datasets/bushi/default-layout.json's),
// read the shipped study of every layout, and list the figures.
func ExampleNewBushiStudy() {
	root, err := paper.Root()
	if err != nil {
		panic(err)
	}
	s, err := paper.NewBushiStudy(root)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s wins in %d plies; %d positions reachable\n", s.Winner, s.Plies, s.Reachable)
	for _, f := range s.Figures() {
		fmt.Println(f.Name)
	}
	// Output:
	// white wins in 20 plies; 1061 positions reachable
	// bushi_default_layers
	// bushi_layouts
}

// The sections of the paper and their notebooks.
func ExampleSections() {
	for _, s := range paper.Sections() {
		fmt.Println(s.Name, s.Notebook)
	}
	// Output:
	// mawari mawari.ipynb
	// handicap handicap.ipynb
	// bushi bushi.ipynb
	// games games.ipynb
	// strength strength.ipynb
	// loop loop.ipynb
}
