#!/usr/bin/env bash
# Makes the strength datasets: our engine against Debian's Fairy-Stockfish 11.1 from the
# shipped balanced openings (datasets/openings/balanced.sfen), both colours, one thread each.
#
#   bash datasets/strength/make.sh ENGINE [MATCH...]   (from the repository root; all matches without one)
#
# ENGINE labels the engine being measured: the engine of the checked-out commit with its
# default settings, named shogilab-ENGINE in the records (the README's Strength section says
# which commit made each). MATCH is one of
#   100ms         200 games at 100 ms a move each, two games at a time
#   ladder-1k     100 games: our engine at 1,000 playouts a move, Fairy-Stockfish at 2,000 nodes
#   ladder-10k    100 games: 10,000 playouts against 2,000 nodes
#   ladder-100k   30 games: 100,000 playouts against 2,000 nodes
#   100ms-book    400 games at 100 ms a move from the first 200 openings of the book
#                 (datasets/openings/book.sfen.gz, in its order), two games at a time
#   1s            100 games at 1 s a move from the first 50 balanced openings, two at a time
#   odds-200ms    200 games: our engine at 200 ms a move, Fairy-Stockfish at 100 ms (time odds)
#   odds-400ms    200 games: our engine at 400 ms a move, Fairy-Stockfish at 100 ms
#
# Each writes datasets/strength/ENGINE/MATCH/: the records (games-0-of-1.jsonl.gz, ordinary
# records: analyze and selfplay read them) and report.json (match --json). A killed match
# resumes. The node-limited matches replay exactly (one thread, fixed seeds); the timed ones
# depend on the machine's load, so they run at a raised priority where they can (nice -n -10,
# as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: make.sh ENGINE [MATCH...]" >&2; exit 2; }
engine=$1; shift
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$fsf" ] || { echo "make.sh: fairy-stockfish not found (apt-get install fairy-stockfish)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/" ./cmd/match ./cmd/selfplay

openings=@datasets/openings/balanced.sfen
book=@datasets/openings/book.sfen.gz
fsfspec="usi:$fsf,option.Threads=1,option.Hash=16,name=fairy-stockfish-11.1"
run() { # match, then match flags
	local out=datasets/strength/$engine/$1; shift
	echo "== $out" >&2
	mkdir -p "$out"
	$nice "$bin/match" -start "$start" -out "$out" -json "$@" > "$out/report.tmp"
	mv "$out/report.tmp" "$out/report.json"
	# Gzip the finished records (the match writes plain JSON Lines, resumable).
	"$bin/selfplay" merge -o "$out/games-0-of-1.jsonl.gz" "$out/games-0-of-1.jsonl" && rm -f "$out/games-0-of-1.jsonl" "$out/.games-0-of-1.jsonl.lock"
}
us=mcts:name=shogilab-$engine
# The timed matches run at a raised priority where they can; the node-limited ones need not.
raised=""; [ "$(id -u)" = 0 ] && raised="nice -n -10"
matches=("$@")
[ ${#matches[@]} -gt 0 ] || matches=(100ms ladder-1k ladder-10k ladder-100k)
for m in "${matches[@]}"; do
	start=$openings nice=""
	case $m in
	100ms) nice=$raised; run 100ms -a "$us" -b "$fsfspec" -movetime 100ms -games 200 -parallel 2 ;;
	ladder-1k) run ladder-1k -a "$us-1k,playouts=1000" -b "$fsfspec,nodes=2000" -games 100 -parallel 2 ;;
	ladder-10k) run ladder-10k -a "$us-10k,playouts=10000" -b "$fsfspec,nodes=2000" -games 100 -parallel 2 ;;
	ladder-100k) run ladder-100k -a "$us-100k,playouts=100000" -b "$fsfspec,nodes=2000" -games 30 -parallel 2 ;;
	100ms-book)
		nice=$raised start=$book
		run 100ms-book -a "$us" -b "$fsfspec" -movetime 100ms -book-order sequential -games 400 -parallel 2 ;;
	1s) nice=$raised; run 1s -a "$us" -b "$fsfspec" -movetime 1s -games 100 -parallel 2 ;;
	odds-200ms | odds-400ms)
		nice=$raised ms=${m#odds-}; ms=${ms%ms}
		run "$m" -a "$us-${ms}ms,movetime=$ms" -b "$fsfspec,movetime=100" -games 200 -parallel 2 ;;
	*) echo "make.sh: unknown match $m" >&2; exit 2 ;;
	esac
done
