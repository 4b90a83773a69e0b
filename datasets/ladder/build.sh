#!/usr/bin/env bash
# Builds the ladder's frozen engines: for every anchor of ladder.json with a commit, the USI
# engine (./cmd/usi) of that commit as DIR/shogilab-COMMIT. Put DIR on PATH before a
# gauntlet against the ladder (match -ladder). Needs git history and Go; each build is of a
# clean checkout of its commit, so local changes do not leak into an anchor.
#
#   bash datasets/ladder/build.sh ~/ladder-bin && PATH="$HOME/ladder-bin:$PATH:/usr/games"
set -euo pipefail
dir=${1:?usage: build.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
commits=$(grep -o '"commit": *"[0-9a-f]*"' "$here/ladder.json" | grep -o '[0-9a-f]\{7,\}' | sort -u)
for c in $commits; do
	out="$dir/shogilab-$c"
	if [ -x "$out" ]; then
		echo "$out exists"
		continue
	fi
	tmp=$(mktemp -d)
	git -C "$repo" worktree add --quiet --detach "$tmp/src" "$c"
	(cd "$tmp/src" && go build -trimpath -o "$out" ./cmd/usi)
	git -C "$repo" worktree remove --force "$tmp/src"
	rm -rf "$tmp"
	echo "built $out"
done
