#!/usr/bin/env bash
# Installs what the notebook tests need on a fresh Debian machine (run as root): Jupyter from
# Debian packages, and the GoNB Go kernel with goimports, built from source at pinned versions.
# Idempotent: packages already installed, binaries already built at the right version and a
# kernel already registered are left as they are, so a second run only checks.
#
#   bash ci/install-notebooks.sh          # binaries to $GONB_BIN (default /usr/local/bin)
#
# Why built in a scratch module: `go install github.com/janpfeifer/gonb@v0.11.1` fails here
# (go install asks the proxy for the module's version list to check deprecation, and the
# proxy this project uses refuses that), while go get of the pinned version and go build in a
# module that requires it work. GoNB runs goimports on every cell, so it must be on PATH; gopls is
# optional (it only serves autocompletion) and is not installed.
set -euo pipefail

GONB_VERSION=v0.11.1
GOIMPORTS_VERSION=v0.36.0 # golang.org/x/tools; the version the main module already uses
GONB_BIN="${GONB_BIN:-/usr/local/bin}"

say() { echo "install-notebooks: $*"; }

# Jupyter: the notebook server, nbconvert (which executes notebooks headless) and the Python
# kernel package, which brings jupyter_client for GoNB's kernel protocol.
packages=(jupyter-notebook jupyter-nbconvert python3-ipykernel)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
else
	say "Jupyter packages already installed"
fi

mkdir -p "$GONB_BIN"
export PATH="$GONB_BIN:$PATH"

# built_version prints the module version a Go binary was built from, or nothing.
built_version() { # binary module
	[ -x "$1" ] || return 0
	go version -m "$1" 2>/dev/null | awk -v m="$2" '$1 == "dep" && $2 == m { print $3 } $1 == "mod" && $2 == m { print $3 }'
}

if [ "$(built_version "$GONB_BIN/gonb" github.com/janpfeifer/gonb)" = "$GONB_VERSION" ] &&
	[ "$(built_version "$GONB_BIN/goimports" golang.org/x/tools)" = "$GOIMPORTS_VERSION" ]; then
	say "gonb $GONB_VERSION and goimports $GOIMPORTS_VERSION already in $GONB_BIN"
else
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch"' EXIT
	say "building gonb $GONB_VERSION and goimports $GOIMPORTS_VERSION in $scratch"
	(
		cd "$scratch"
		go mod init gonbbuild >/dev/null 2>&1
		go get "github.com/janpfeifer/gonb@$GONB_VERSION" "golang.org/x/tools/cmd/goimports@$GOIMPORTS_VERSION" >/dev/null 2>&1
		go build -o "$GONB_BIN/gonb" github.com/janpfeifer/gonb
		go build -o "$GONB_BIN/goimports" golang.org/x/tools/cmd/goimports
	)
fi

# Register the kernel (gonb --install copies itself into the kernel directory, by default
# ~/.local/share/jupyter/kernels/gonb) unless the registered copy is this very binary.
kernel="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gonb/kernel.json"
registered=""
[ -f "$kernel" ] && registered=$(sed -n 's/^{"argv":\["\([^"]*\)".*/\1/p' "$kernel")
if [ -n "$registered" ] && cmp -s "$registered" "$GONB_BIN/gonb"; then
	say "kernel already registered in $kernel"
else
	say "registering the GoNB kernel"
	"$GONB_BIN/gonb" --install --force_deps >/dev/null 2>&1 || "$GONB_BIN/gonb" --install --force_deps
fi
say "ready: jupyter $(jupyter --version 2>/dev/null | awk '/^nbconvert/ {print "nbconvert " $3}'), gonb $GONB_VERSION in $GONB_BIN"
