#!/usr/bin/env bash
# Installs DuckDB's Node.js client (which ships its own DuckDB binary) for the tests that read the
# Parquet tables with an independent reader (go test ./record/table). Idempotent.
#
#   bash ci/install-duckdb.sh        # into $SHOGILAB_DUCKDB (default /opt/shogilab-duckdb)
set -euo pipefail

VERSION=1.5.6-r.1
DIR="${SHOGILAB_DUCKDB:-/opt/shogilab-duckdb}"

if ! command -v npm >/dev/null; then
	apt-get install -y -qq nodejs npm >/dev/null
fi
if [ -f "$DIR/node_modules/@duckdb/node-api/package.json" ] &&
	grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/@duckdb/node-api/package.json"; then
	echo "install-duckdb: @duckdb/node-api $VERSION already in $DIR"
	exit 0
fi
mkdir -p "$DIR"
npm install --prefix "$DIR" --no-audit --no-fund --silent "@duckdb/node-api@$VERSION"
echo "install-duckdb: @duckdb/node-api $VERSION installed in $DIR"
