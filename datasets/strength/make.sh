#!/usr/bin/env bash
# Makes the strength datasets: our engine against Debian's Fairy-Stockfish 11.1 from the
# shipped balanced openings (datasets/openings/balanced.sfen), both colours, one thread each.
#
#   bash datasets/strength/make.sh MATCH...   (from the repository root; all matches without one)
#
# MATCH is one of
#   fsf-100ms     200 games at 100 ms a move each, two games at a time
#   ladder-1k     100 games: our engine at 1,000 playouts a move, Fairy-Stockfish at 2,000 nodes
#   ladder-10k    100 games: 10,000 playouts against 2,000 nodes
#   ladder-100k   30 games: 100,000 playouts against 2,000 nodes
#
# Each writes datasets/strength/MATCH/: the records (games-0-of-1.jsonl.gz, ordinary records:
# analyze and selfplay read them) and report.json (match --json). A killed match resumes.
# The node-limited matches replay exactly (one thread, fixed seeds); the timed one depends on
# the machine's load, so it runs at a raised priority where it can (nice -n -10, as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$fsf" ] || { echo "make.sh: fairy-stockfish not found (apt-get install fairy-stockfish)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/" ./cmd/match ./cmd/selfplay

openings=@datasets/openings/balanced.sfen
fsfspec="usi:$fsf,option.Threads=1,option.Hash=16,name=fairy-stockfish-11.1"
run() { # name, then match flags
	local name=$1; shift
	local out=datasets/strength/$name
	echo "== $name" >&2
	$nice "$bin/match" -start "$openings" -out "$out" -json "$@" > "$out.report.tmp"
	mkdir -p "$out" && mv "$out.report.tmp" "$out/report.json"
	# Gzip the finished records (the match writes plain JSON Lines, resumable).
	"$bin/selfplay" merge -o "$out/games-0-of-1.jsonl.gz" "$out/games-0-of-1.jsonl" && rm "$out/games-0-of-1.jsonl" "$out/.games-0-of-1.jsonl.lock"
}
nice=""
matches=("$@")
[ ${#matches[@]} -gt 0 ] || matches=(fsf-100ms ladder-1k ladder-10k ladder-100k)
for m in "${matches[@]}"; do
	case $m in
	fsf-100ms)
		nice=""; [ "$(id -u)" = 0 ] && nice="nice -n -10"
		run fsf-100ms -a mcts:name=shogilab -b "$fsfspec" -movetime 100ms -games 200 -parallel 2 ;;
	ladder-1k) nice=""; run ladder-1k -a mcts:playouts=1000,name=shogilab-1k -b "$fsfspec,nodes=2000" -games 100 -parallel 2 ;;
	ladder-10k) nice=""; run ladder-10k -a mcts:playouts=10000,name=shogilab-10k -b "$fsfspec,nodes=2000" -games 100 -parallel 2 ;;
	ladder-100k) nice=""; run ladder-100k -a mcts:playouts=100000,name=shogilab-100k -b "$fsfspec,nodes=2000" -games 30 -parallel 2 ;;
	*) echo "make.sh: unknown match $m" >&2; exit 2 ;;
	esac
done
