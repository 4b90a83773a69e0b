// Package nodetest finds a Node.js package that a script under ci/ installed for the tests:
// DuckDB's client (internal/duckdbtest) and lishogi's shogiops (internal/shogiopstest), the
// independent readers of the Parquet tables and of KIF. A test that needs one fails under
// CI=true when it is missing (.ci/run installs it) and skips elsewhere, as a test that needs
// Fairy-Stockfish does (internal/fsftest).
package nodetest
