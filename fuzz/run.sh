#!/usr/bin/env bash
# Builds and runs the fuzz targets (cargo-fuzz, stable Rust, no sanitizer;
# debug assertions on, so an arithmetic overflow is a crash).
#
#   fuzz/run.sh --time 20            each target for 20 s
#   fuzz/run.sh --runs 10000000      each target for 10 million inputs (the long run)
#   fuzz/run.sh --time 60 mime sshsig   only these targets
#   fuzz/run.sh --runs 10000000 --time 1800   whichever comes first
#   UMPIRE_FUZZ_TIMEOUT=30 fuzz/run.sh --runs 10000000   a longer per-input
#                                    timeout, for a long run at low priority on a
#                                    busy machine (libFuzzer's timeout is wall time)
#   fuzz/run.sh --fast --runs 10000000 orders_ac
#                                    built without compare tracing (2-3x the
#                                    inputs a second; libFuzzer learns less from
#                                    each), into target/fuzz-fast/, on the same
#                                    corpora: for the long counts once the corpora
#                                    have grown with tracing
#   fuzz/run.sh --time 10 --jobs 2  two targets at a time (each is one
#                                    process: CI's two cores)
#   fuzz/run.sh --time 10 --jobs 2 --quick-build   what CI runs:
#                                    the fuzz workspace's dev profile (the
#                                    layers at opt-level 1, the dependencies
#                                    the targets never run unoptimised) into
#                                    target/fuzz-quick/: under half the
#                                    build time, slower inputs (CI's smoke run)
#   fuzz/run.sh --seeds              write the order targets' seed corpora
#                                    (fuzz/corpus/orders_*/) from self-play
#
# Seeds are in fuzz/corpus/<target>/ (read only); what a run learns goes to
# target/fuzz/corpus/<target>/, crashes, hangs and blow-ups to
# target/fuzz/artifacts/<target>/. Each target has a -max_len big enough for
# what it reads (a whole mail, a whole record) and a -timeout, so a hang or a
# quadratic blow-up fails the run, not only a panic. Exit 1 if any target fails.
#
# The orders_<ruleset> targets read their input as a move at one of the
# positions of a few self-played games, which each builds when it starts
# (umpire::core::grammar_fuzz); --seeds writes, for each, the moves those
# games played at each new kind of position as fuzz/corpus/orders_<ruleset>/.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=()
targets=()
seeds=0
fast=0
quick=0
jobs=1
orders=(orders_freeform orders_sarhu orders_ldf orders_ac orders_adp)
while [ $# -gt 0 ]; do
  case "$1" in
    --time) limit+=(-max_total_time="$2"); shift 2 ;;
    --runs) limit+=(-runs="$2"); shift 2 ;;
    --seeds) seeds=1; shift ;;
    --fast) fast=1; shift ;;
    --quick-build) quick=1; shift ;;
    --jobs) jobs="$2"; shift 2; [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "--jobs takes a number of targets at once (1 or more)" >&2; exit 2; } ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=20)
[ ${#targets[@]} -gt 0 ] || targets=(movefile armored mime record sshsig config smtp_wire "${orders[@]}")

# target: max_len (bytes) and timeout (s) per input.
declare -A max_len=(
  [movefile]=70000       # past the 64 KiB move-file cap
  [armored]=262144       # a mail body with blocks in it
  [mime]=1048576         # a whole mail (the default cap is 2 MiB; 1 MiB keeps runs fast)
  [record]=1048576       # a whole exported record
  [sshsig]=4096          # an SSHSIG blob is ~150 bytes
  [config]=65536         # an umpire.toml
  [smtp_wire]=65536      # server replies, or a message through DATA
  [orders_freeform]=8192 # a move's orders and standing orders (two bytes pick
  [orders_sarhu]=8192    # the position and the side); longer moves only
  [orders_ldf]=8192      # repeat lines
  [orders_ac]=8192
  [orders_adp]=8192
)
declare -A timeout=(
  [movefile]=5 [armored]=5 [mime]=10 [record]=10 [sshsig]=5 [config]=5 [smtp_wire]=5
  [orders_freeform]=5 [orders_sarhu]=5 [orders_ldf]=5 [orders_ac]=5 [orders_adp]=5
)
if [ -n "${UMPIRE_FUZZ_TIMEOUT:-}" ]; then
  for t in "${!timeout[@]}"; do timeout[$t]=$UMPIRE_FUZZ_TIMEOUT; done
fi

out="$PWD/target/fuzz"
build_dir="$out"
trace=()
if [ "$fast" = 1 ]; then build_dir="$PWD/target/fuzz-fast"; trace=(--no-trace-compares); fi
mode=(-O -a)
if [ "$quick" = 1 ]; then build_dir="$PWD/target/fuzz-quick"; mode=(-D); fi
fuzz() { local cmd=$1; shift; cargo fuzz "$cmd" "${mode[@]}" -s none "${trace[@]}" --target-dir "$build_dir" "$@"; }

fuzz build

if [ "$seeds" = 1 ]; then
  for t in "${orders[@]}"; do
    rm -rf "fuzz/corpus/$t"
    echo "== seeds of $t"
    UMPIRE_FUZZ_WRITE_SEEDS="$PWD/fuzz/corpus/$t" fuzz run "$t" -- -runs=0
    echo "   $(ls "fuzz/corpus/$t" | wc -l) seeds, $(du -sh "fuzz/corpus/$t" | cut -f1)"
  done
  exit 0
fi

# One target's run; its summary goes to $out/$t.summary, its status is the exit code.
run_target() {
  local t=$1 t0
  t0=$(date +%s)
  if fuzz run "$t" "$out/corpus/$t" "$PWD/fuzz/corpus/$t" -- \
      "${limit[@]}" -max_len="${max_len[$t]}" -timeout="${timeout[$t]}" \
      -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$out/artifacts/$t/" \
      > "$out/$t.log" 2>&1; then
    echo "   ok ($t) in $(( $(date +%s) - t0 )) s: $(grep -E '^stat::number_of_executed_units' "$out/$t.log" | awk '{print $2}') inputs" > "$out/$t.summary"
  else
    { echo "   FAILED ($t): see $out/$t.log and $out/artifacts/$t/"; tail -30 "$out/$t.log"; } > "$out/$t.summary"
    return 1
  fi
}

for t in "${targets[@]}"; do
  [ -n "${max_len[$t]:-}" ] || { echo "no fuzz target $t" >&2; exit 2; }
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
done

# --jobs N runs N targets at once (each is one process on one core), each for
# the whole of its own limit; the summaries are printed in the targets' order.
failed=()
pids=()
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  echo "== fuzz $t (max_len ${max_len[$t]}, timeout ${timeout[$t]} s, ${limit[*]})"
  run_target "$t" &
  pids[$i]=$!
  # Before starting another, wait for the oldest running one if N are running.
  oldest=$(( i + 1 - jobs ))
  if [ "$oldest" -ge 0 ]; then
    if ! wait "${pids[$oldest]}"; then failed+=("${targets[$oldest]}"); fi
    cat "$out/${targets[$oldest]}.summary"
  fi
done
for (( j = ${#targets[@]} - jobs + 1; j < ${#targets[@]}; j++ )); do
  [ "$j" -ge 0 ] || continue
  if ! wait "${pids[$j]}"; then failed+=("${targets[$j]}"); fi
  cat "$out/${targets[$j]}.summary"
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz targets failed: ${failed[*]}" >&2; exit 1; }
