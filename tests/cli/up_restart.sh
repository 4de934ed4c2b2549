#!/usr/bin/env bash
# `zkfleet up` restarts a node process that exits after the cluster is ready:
#
#  1. A scheduler, a synthesis node and a prover (insecure loopback, random ports). After "cluster
#     ready", synth-1 is killed with SIGKILL: up says so on stderr ("signal 9 (SIGKILL)", restart in
#     1 s, attempt 1), starts a new process for it (a new pid, in the pid file; its log appended to
#     after a "--- zkfleet up: restarting ..." line), the node joins the scheduler again, and a job
#     is proven through it (the only synthesis node).
#  2. Killed twice more at once: the stated delays grow (2 s, attempt 2; then 4 s, attempt 3), and
#     the pid file drops the dead pid while it waits.
#  3. `zkfleet down` during that 4 s backoff stops everything within seconds; nothing is restarted
#     and no process of the config is left.
#
#   tests/cli/up_restart.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed"; exits non-zero if M > 0. A failed step the rest depends on ends
# the script there ("FAIL: <check>: ..."). Every wait is bounded; about 15 s in all.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init up_restart "${1:-}"

# listed_pid <name>: the pid of that node's process, as the pid file lists it (its command line
# ends with "--node <name>" and names this config).
listed_pid() {
  local p
  for p in $(tail -n +2 "$PIDF" 2>/dev/null); do
    tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "--config $CFG .*--node $1 $" && { echo "$p"; return 0; }
  done
  return 1
}
# restarted <attempt>: the pid that up's stderr gives synth-1's restart number <attempt>.
restarted() {
  sed -n "s/^zkfleet up: node synth-1 restarted (process \([0-9]*\), attempt $1)$/\1/p" "$UP_ERR" | tail -n 1
}
in_pid_file() { tail -n +2 "$PIDF" 2>/dev/null | grep -qx -- "$1"; }

cluster_new three insecure
yaml_head "input_roots: [$FIX]"
yaml_circuit mulchain mulchain
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 16MiB}"
yaml_node prover-1 prover "resources: {memory_budget: 256MiB, prover_backend: cpu}"
T0=$SECONDS
cluster_up --split
wait_ready 30 3 || die "ready: no 'cluster ready: 3 nodes' within 30 s"
ok "ready: the cluster of 3 nodes is up"

# --- 1. a node killed after ready is restarted ----------------------------------------------------
[ "$(head -n 1 "$PIDF" 2>/dev/null)" = "$UP" ] || die "pid file: its first line is not up's pid $UP: $(cat "$PIDF" 2>/dev/null)"
OLD=$(listed_pid synth-1) || die "pid file: no process of synth-1 in it: $(cat "$PIDF" 2>/dev/null)"
kill -9 "$OLD"
wait_log 5 "$UP_ERR" "^zkfleet up: node synth-1 \(process $OLD\) exited \(signal 9 \(SIGKILL\)\); restarting it in 1 s \(attempt 1\)" 1 "$UP" ||
  die "exit report: up's stderr does not report synth-1 ($OLD) killed by signal 9 (SIGKILL), restart in 1 s, attempt 1"
ok "exit report: up names synth-1, its pid, signal 9 (SIGKILL), the delay 1 s and attempt 1"
wait_log 5 "$UP_ERR" "^zkfleet up: node synth-1 restarted \(process [0-9]+, attempt 1\)$" 1 "$UP" ||
  die "restart: synth-1 not restarted within 5 s of its exit"
NEW=$(restarted 1)
[ -n "$NEW" ] && [ "$NEW" != "$OLD" ] && kill -0 "$NEW" 2>/dev/null ||
  die "restart: the restarted process ($NEW) is not a new live process (old $OLD)"
tr '\0' ' ' <"/proc/$NEW/cmdline" | grep -q -- "--config $CFG .*--node synth-1 $" ||
  die "restart: process $NEW is not synth-1's: $(tr '\0' ' ' <"/proc/$NEW/cmdline")"
ok "restart: a new process $NEW for synth-1 (was $OLD)"
if [ "$(head -n 1 "$PIDF")" = "$UP" ] && in_pid_file "$NEW" && ! in_pid_file "$OLD" && [ "$(wc -l <"$PIDF")" = 4 ]; then
  ok "pid file: up's pid, then the new pid of synth-1 (not the old one) among the 3 nodes"
else
  fail "pid file: after the restart: $(tr '\n' ' ' <"$PIDF")(up $UP, old $OLD, new $NEW)"
fi
LOG="$LOGS/synth-1.log"
SEP="^--- zkfleet up: restarting synth-1 \(attempt 1, after signal 9 \(SIGKILL\)\) at [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4} ---$"
if grep -Eq -- "$SEP" "$LOG" && [ "$(grep -c "zkfleet node synth-1 ready" "$LOG")" -ge 1 ] &&
  grep -q "zkfleet node synth-1 ready" <(sed -n '/^--- zkfleet up: restarting synth-1 (attempt 1/,$p' "$LOG") &&
  grep -q "zkfleet node synth-1 ready" <(sed '/^--- zkfleet up: restarting/,$d' "$LOG"); then
  ok "log: appended to, the first run's lines, the separator line, then the new run's"
else
  # The new process may not have joined yet: its "ready" line is checked again below.
  grep -Eq -- "$SEP" "$LOG" && ok "log: the separator line (the new run not ready yet)" || fail "log: no separator line: $(cat "$LOG")"
fi
# The scheduler takes it back: it says it joined again, and a job goes through it (the only
# synthesis node; `zkfleet status` lists nodes that left too, so it is not enough).
joined_twice() { [ "$(grep -Ec "node synth-1 (re)?joined" "$LOGS/scheduler.log")" -ge 2 ]; }
wait_until 15 "a second join of synth-1 in the scheduler's log" joined_twice && ok "rejoin: the scheduler says synth-1 joined again" ||
  die "rejoin: the scheduler's log has no second join of synth-1 within 15 s$(grep -h "already in the cluster" "$LOGS"/*.log | head -n 1 | sed 's/^/: /')"
timeout 10 "$ZK" status --config "$CFG" >"$T/status.txt" 2>&1 && grep -q "^synth-1 " "$T/status.txt" &&
  ok "rejoin: zkfleet status lists synth-1" || fail "rejoin: zkfleet status: $(cat "$T/status.txt")"
J=$(timeout 15 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" 2>"$T/submit.log")
if [ -n "$J" ] && timeout 30 "$ZK" await --config "$CFG" "$J" --out "$T/proofs" --timeout 25 >"$T/await.log" 2>&1; then
  ok "rejoin: job $J proven through the restarted synth-1"
else
  fail "rejoin: job: $(cat "$T/submit.log" "$T/await.log" 2>/dev/null)"
fi

# --- 2. killed again at once: the backoff grows ---------------------------------------------------
kill -9 "$NEW"
wait_log 5 "$UP_ERR" "^zkfleet up: node synth-1 \(process $NEW\) exited \(signal 9 \(SIGKILL\)\); restarting it in 2 s \(attempt 2\)" 1 "$UP" ||
  die "backoff: the second kill does not say 'restarting it in 2 s (attempt 2)'"
ok "backoff: the second restart waits 2 s"
wait_log 5 "$UP_ERR" "^zkfleet up: node synth-1 restarted \(process [0-9]+, attempt 2\)$" 1 "$UP" ||
  die "backoff: synth-1 not restarted (attempt 2) within 5 s"
THIRD=$(restarted 2)
kill -9 "$THIRD"
wait_log 5 "$UP_ERR" "^zkfleet up: node synth-1 \(process $THIRD\) exited \(signal 9 \(SIGKILL\)\); restarting it in 4 s \(attempt 3\)" 1 "$UP" ||
  die "backoff: the third kill does not say 'restarting it in 4 s (attempt 3)'"
ok "backoff: the third restart waits 4 s"
if [ "$(wc -l <"$PIDF")" = 3 ] && ! in_pid_file "$THIRD" && [ "$(head -n 1 "$PIDF")" = "$UP" ]; then
  ok "pid file: while synth-1 waits for its restart, its dead pid is not listed"
else
  fail "pid file: while synth-1 waits: $(tr '\n' ' ' <"$PIDF")(dead $THIRD)"
fi

# --- 3. zkfleet down during the backoff --------------------------------------------------------
ALL="$(tail -n +2 "$PIDF")"
t0=$(date +%s%N)
timeout 20 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 || fail "down: $(cat "$T/down.log")"
wait_exit 5 "$UP" || die "down: up still runs 5 s after zkfleet down returned"
ms=$((($(date +%s%N) - t0) / 1000000))
wait "$UP"
rc=$?
[ "$rc" = 0 ] && [ "$ms" -lt 3500 ] && ok "down: up stopped in $ms ms during the 4 s backoff, exit 0" ||
  fail "down: up exit $rc after $ms ms: $(cat "$UP_OUT" "$T/down.log")"
grep -q "zkfleet up: stopped 2 nodes" "$UP_OUT" && ok "down: up stopped the 2 running nodes" ||
  fail "down: up's stdout: $(cat "$UP_OUT")"
! grep -q "attempt 3)$" <(grep "restarted" "$UP_ERR") && ok "down: nothing restarted after the stop" ||
  fail "down: a restart after the stop: $(cat "$UP_ERR")"
left=""
for p in $ALL $(pgrep -f -- "--config $CFG " 2>/dev/null); do kill -0 "$p" 2>/dev/null && left="$left $p"; done
[ -z "$left" ] && [ ! -e "$PIDF" ] && ok "down: no process of the config left, the pid file removed" ||
  fail "down: processes left:$left; pid file: $(cat "$PIDF" 2>/dev/null)"

echo "($((SECONDS - T0)) s)"
finish
