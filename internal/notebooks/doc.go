// Package notebooks runs the project's Jupyter notebooks headless and checks them.
//
// The notebooks of the folder notebooks/ (*.ipynb, Go kernel GoNB) are short paper sections that turn
// the shipped datasets into the paper's figures; their figures and captions come from package
// paper, which cmd/figures calls too, so both show the same numbers. This package (internal:
// only the tests use it) is what the
// tests use to execute a notebook:
//
//	nb, err := notebooks.Execute(ctx, "notebooks/mawari.ipynb", notebooks.Options{Root: repoRoot})
//	// err reports the first failing cell; nb holds the executed cells and their outputs
//
// Execute copies the notebook to a temporary directory and runs `jupyter nbconvert --execute`
// on the copy, so the repository never changes. GoNB reports a compile error as a cell error,
// which makes nbconvert fail, but a panic or a non-zero exit only as an "exit status N" line on
// the cell's stderr; Failures finds both kinds.
//
// The notebooks find the repository through the SHOGILAB_ROOT environment variable, which
// Execute sets from Options.Root; opened by hand in Jupyter they default to their parent
// directory. Their first cell makes GoNB's scratch module a Go workspace with the repository,
// so the cells import the toolkit's packages as they are in the checkout.
//
// Tools lists what is missing to run notebooks: jupyter (Debian: jupyter-nbconvert), the gonb
// kernel and goimports; ci/install-notebooks.sh installs them.
package notebooks
