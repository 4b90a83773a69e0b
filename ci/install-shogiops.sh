#!/usr/bin/env bash
# Installs lishogi's shogiops (the rules and notation library behind lishogi.org) from npm, for the
# test that reads the toolkit's KIF files back with a parser that is not ours (go test
# ./notation). Idempotent.
#
#   bash ci/install-shogiops.sh        # into $SHOGILAB_SHOGIOPS (default /opt/shogilab-shogiops)
set -euo pipefail

VERSION=0.18.0
DIR="${SHOGILAB_SHOGIOPS:-/opt/shogilab-shogiops}"

if ! command -v npm >/dev/null; then
	apt-get install -y -qq nodejs npm >/dev/null
fi
if [ -f "$DIR/node_modules/shogiops/package.json" ] &&
	grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/shogiops/package.json"; then
	echo "install-shogiops: shogiops $VERSION already in $DIR"
	exit 0
fi
mkdir -p "$DIR"
npm install --prefix "$DIR" --no-audit --no-fund --silent "shogiops@$VERSION"
echo "install-shogiops: shogiops $VERSION installed in $DIR"
