#!/usr/bin/env bash
# The idle cron poll against process start: `umpire poll` with no mail in a
# fresh data directory against `umpire --version`, in alternating pairs (the
# machine is shared, so each pair's ratio is taken and the median reported).
#
#   scripts/idle-poll.sh [BINARY] [PAIRS]
#
# BINARY defaults to target/release/umpire (`cargo build --release` first),
# PAIRS to 40. Prints the medians of each and of the pairs' ratios, and the
# spread of the ratios (first and third quartiles). The goal is at most 2x.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/umpire}
pairs=${2:-40}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" --dir "$dir/club" init >/dev/null
# One poll first: it records the rulesets' versions, as any poll after the
# first finds them.
"$bin" --dir "$dir/club" poll >/dev/null 2>&1 || true

# Wall time of one run of "$@" in nanoseconds.
run() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

: >"$dir/pairs"
for _ in $(seq "$pairs"); do
	v=$(run "$bin" --version)
	p=$(run "$bin" --dir "$dir/club" poll)
	echo "$v $p" >>"$dir/pairs"
done
awk '
	{ v[NR] = $1; p[NR] = $2; r[NR] = $2 / $1 }
	function median(a, n,   i, j, t, b) {
		for (i = 1; i <= n; i++) b[i] = a[i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
		return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
	}
	function quart(a, n, q,   i, j, t, b) {
		for (i = 1; i <= n; i++) b[i] = a[i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
		return b[int(q * (n - 1)) + 1]
	}
	END {
		printf "umpire --version: %.2f ms (median of %d)\n", median(v, NR) / 1e6, NR
		printf "umpire poll, idle: %.2f ms\n", median(p, NR) / 1e6
		printf "ratio (median of pairs): %.2fx, quartiles %.2fx to %.2fx\n", median(r, NR), quart(r, NR, 0.25), quart(r, NR, 0.75)
	}' "$dir/pairs"
