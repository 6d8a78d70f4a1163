#!/usr/bin/env bash
# The project's test command: formatting, lints, and every test, the mail
# transport tests included (against a real Dovecot + Postfix).
#
# If UMPIRE_MAILSTACK names a running stack (tests/mail/mailstack.sh start DIR)
# it is used as it is; otherwise a throwaway one is started in a temp dir, on
# the first free port base of 10000, 20000, ..., and stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

# Wall time by step (after .ci/run's own, when it runs this), printed at the end.
export UMPIRE_TIMES=${UMPIRE_TIMES:-$(mktemp /tmp/umpire-times.XXXXXX)}
lap_start=$SECONDS
lap() { echo "$1	$(( SECONDS - lap_start ))" >>"$UMPIRE_TIMES"; lap_start=$SECONDS; }
print_times() {
  [ -s "$UMPIRE_TIMES" ] || return 0
  step "wall time by step (s)"
  awk -F'\t' '{ printf "%6d  %s\n", $2, $1; t += $2 } END { printf "%6d  in all\n", t }' "$UMPIRE_TIMES"
  rm -f "$UMPIRE_TIMES"
}

step "tools the tests use"
# tests/pictures/pictures.rs opens the game page in headless Chromium (Debian: chromium, fonts-dejavu-core).
if command -v chromium >/dev/null; then
  echo "chromium: $(chromium --version 2>/dev/null || echo present)"
elif [ -n "${CI:-}" ]; then
  echo "chromium is missing: .ci/run installs it (apt-get install chromium fonts-dejavu-core)" >&2
  exit 1
else
  echo "chromium not found: the browser tests in tests/pictures/pictures.rs will be skipped (apt-get install chromium fonts-dejavu-core)"
fi

step "cargo fmt --check"
cargo fmt --check
lap "cargo fmt --check"

# Clippy's lints run inside the test build (below), not in a build of their own:
# clippy-driver compiles the workspace's own crates, as `cargo clippy` has it do,
# but generating code, so the dependencies are compiled once for both instead of
# once more in check mode (about 5 minutes on 2 cores). Every target is linted,
# as by `cargo clippy --all-targets -- -D warnings`; a lint fails the build. The
# later `cargo test` runs keep the same setting, so nothing is rebuilt; a plain
# `cargo test` afterwards recompiles the workspace's crates (not the dependencies).
# UMPIRE_CLIPPY=0 leaves the lints out (a quicker local run).
if [ "${UMPIRE_CLIPPY:-1}" != 0 ]; then
  driver=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)
  sysroot_driver="$(rustc --print sysroot 2>/dev/null)/bin/clippy-driver"
  [ -n "$driver" ] || { [ -x "$sysroot_driver" ] && driver=$sysroot_driver; }
  if [ -n "$driver" ]; then
    export RUSTC_WORKSPACE_WRAPPER=$driver
    export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
  else
    # No driver to wrap the build with: clippy's own check build instead.
    step "cargo clippy --all-targets -- -D warnings (clippy-driver not found to lint in the test build)"
    cargo clippy --all-targets -- -D warnings
    lap "cargo clippy (its own check build)"
  fi
fi

if [ -z "${UMPIRE_MAILSTACK:-}" ]; then
  port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
  base=${MAILSTACK_PORT_BASE:-}
  if [ -z "$base" ]; then
    # Another checkout's stack may be up on this machine: find a free set.
    for b in 10000 20000 30000 40000 50000; do
      free=1
      for off in 12 24 25 143 465 587 993; do port_free $((b + off)) || { free=; break; }; done
      [ -n "$free" ] && { base=$b; break; }
    done
    [ -n "$base" ] || { echo "no free port base for the mail stack" >&2; exit 1; }
  fi
  stack=$(mktemp -d /tmp/umpire-mailstack.XXXXXX)
  # Set before starting, so a half-started stack is stopped too.
  trap 'bash tests/mail/mailstack.sh stop "$stack" || true; rm -rf "$stack"; print_times' EXIT
  step "mail stack in $stack (ports $base+)"
  t0=$(date +%s)
  MAILSTACK_PORT_BASE=$base bash tests/mail/mailstack.sh start "$stack"
  echo "started in $(( $(date +%s) - t0 )) s"
  export UMPIRE_MAILSTACK=$stack
  lap "mail stack started"
else
  trap print_times EXIT
fi

step "cargo test --all-targets --no-run, linted by clippy -D warnings (UMPIRE_MAILSTACK=$UMPIRE_MAILSTACK)"
cargo test --all-targets --no-run
lap "test build (clippy's lints in it)"
step "cargo test"

# The tests against the real servers (tests/mail_servers) spend most of their two
# minutes waiting on Postfix and Dovecot (deliveries, timeouts that must fire):
# they run beside the other tests and the self-play instead of before them, and
# their output is shown at the end. Their modules are skipped by name in the
# main run, so nothing runs twice.
mail_log=$(mktemp /tmp/umpire-mail-tests.XXXXXX)
cargo test --no-fail-fast --test mail_servers >"$mail_log" 2>&1 &
mail_pid=$!
mail_modules=(mail_deadlines mail_transport real_mail)
skip=()
for m in "${mail_modules[@]}"; do skip+=(--skip "$m::"); done

rc=0
cargo test --no-fail-fast -- "${skip[@]}" || rc=$?
lap "cargo test (the real-server tests beside it)"

# Self-play of every game ruleset, with the binary cargo test built: half the
# full counts, or all of them with UMPIRE_SELFPLAY=full
# (scripts/selfplay-suite.sh). UMPIRE_SELFPLAY=0 skips it.
if [ "${UMPIRE_SELFPLAY:-1}" != 0 ]; then
  step "self-play (scripts/selfplay-suite.sh)"
  bash scripts/selfplay-suite.sh target/debug/umpire || rc=$?
  lap "self-play (the real-server tests beside it)"
fi

step "cargo test --test mail_servers (run beside the above)"
mail_rc=0
wait "$mail_pid" || mail_rc=$?
lap "the real-server tests' end, waited for"
cat "$mail_log"
rm -f "$mail_log"
[ "$mail_rc" = 0 ] || { echo "the mail-server tests failed" >&2; rc=$mail_rc; }
exit "$rc"
