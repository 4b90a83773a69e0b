package paper

// Section is one section of the paper: its name, the notebook that tells it, and how to make
// its figures from the repository at root (for the shipped datasets).
type Section struct {
	Name     string
	Notebook string // file name in notebooks/
	Figures  func(root string) ([]Figure, error)
}

// Sections are the paper's sections in order.
func Sections() []Section {
	return []Section{
		{Name: "mawari", Notebook: "mawari.ipynb", Figures: func(string) ([]Figure, error) {
			s, err := NewMawariStudy()
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
		{Name: "handicap", Notebook: "handicap.ipynb", Figures: func(root string) ([]Figure, error) {
			s, err := NewHandicapStudy(root)
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
		{Name: "bushi", Notebook: "bushi.ipynb", Figures: func(root string) ([]Figure, error) {
			s, err := NewBushiStudy(root)
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
		{Name: "games", Notebook: "games.ipynb", Figures: func(root string) ([]Figure, error) {
			s, err := NewGamesStudy(root)
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
		{Name: "strength", Notebook: "strength.ipynb", Figures: func(root string) ([]Figure, error) {
			s, err := NewStrengthStudy(root)
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
		{Name: "loop", Notebook: "loop.ipynb", Figures: func(root string) ([]Figure, error) {
			s, err := NewLoopStudy(root)
			if err != nil {
				return nil, err
			}
			return s.Figures(), nil
		}},
	}
}
