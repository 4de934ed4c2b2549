#!/usr/bin/env bash
# `zkfleet up` says "cluster ready" only when every node of the file has joined the scheduler with
# all its roles, and never counts a node that joined and then exited:
#
#  1. configs/single-host.yaml (one node: scheduler, synth and prover in one process; on ports of
#     its own, its key cache in a temporary directory): right after "cluster ready" the scheduler
#     lists the node, and a job is proven; `--log-level` reaches the node; `zkfleet down` stops it.
#  2. A scheduler, a synthesis node and a prover whose process is held (SIGSTOP) before it can
#     join: the synthesis node joins, is killed, then the prover is let go and joins. `up` must not
#     report the cluster ready; it names the node that exited and stops the others.
#  3. A node whose scheduler is gone (kill -9) keeps running, says it reconnects, and rejoins the
#     scheduler once it is started again; --log-level warn leaves its info lines out.
#
#   tests/cli/up_ready.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed"; exits non-zero if M > 0. Every wait is bounded
# (tests/lib/cluster.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init up_ready "${1:-}"

# listed NAME: the scheduler of $CFG lists node NAME.
listed() { timeout 10 "$ZK" status --config "$CFG" 2>/dev/null | grep -q "^$1 "; }

# --- 1. configs/single-host.yaml ---------------------------------------------------------------
cluster_new single-host tls  # its own CA in $T/certs
take_port DATA
take_port HTTP
sed -e "s#127.0.0.1:7400#127.0.0.1:$SCHED_PORT#g" -e "s#127.0.0.1:7500#127.0.0.1:$DATA#g" \
  -e "s#127.0.0.1:7410#127.0.0.1:$HTTP#g" -e "s#\.\./tests/fixtures#$ROOT/tests/fixtures#g" \
  -e "s#certs_dir: .*#certs_dir: $CERTS#" "$ROOT/configs/single-host.yaml" >"$CFG"
cluster_up --log-level debug
if wait_ready 240; then
  # At once: the node that holds every role must be in the scheduler's list already.
  if timeout 30 "$ZK" status --config "$CFG" >"$T/status1.txt" 2>&1 && grep -q "^local " "$T/status1.txt"; then
    ok "single-host: right after 'cluster ready' the scheduler lists node local (synth + prover)"
  else
    fail "single-host: 'cluster ready' before node local joined: $(cat "$T/status1.txt")"
  fi
  grep -q "cluster ready: 1 nodes" "$UP_LOG" && ok "single-host: ready with its 1 node" || fail "single-host: $(cat "$UP_LOG")"
  pid=$(sed -n 2p "$PIDF" 2>/dev/null)
  if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--log-level debug --node local $"; then
    ok "single-host: up passed --log-level debug to the node"
  else
    fail "single-host: the node's command line: $([ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline")"
  fi
  J=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain-bn254 --input "$FIX/mulchain/witness.wtns" --partitions 2 2>"$T/submit1.log")
  if [ -n "$J" ] && timeout 120 "$ZK" await --config "$CFG" "$J" --out "$T/proofs" --timeout 100 >"$T/await1.log" 2>&1 &&
    "$ZK" verify "$FIX/mulchain/verification_key.json" "$T/proofs/job$J-p1-public.json" "$T/proofs/job$J-p1-proof.json" >/dev/null; then
    ok "single-host: job $J proven and verified"
  else
    fail "single-host: job: $(cat "$T/submit1.log" "$T/await1.log" 2>/dev/null)"
  fi
  timeout 60 "$ZK" down --config "$CFG" >"$T/down1.log" 2>&1 && ok "single-host: zkfleet down" || fail "single-host: down: $(cat "$T/down1.log")"
  wait_log 15 "$UP_LOG" "stopped 1 nodes" 1 "$UP"
  grep -q "info  \[local\] zkfleet node local ready" "$LOGS/local.log" 2>/dev/null &&
    ok "single-host: the node's lines go through the log, named after it" ||
    fail "single-host: node log: $(cat "$LOGS/local.log" 2>/dev/null)"
else
  fail "single-host: no 'cluster ready'"
  dump_logs
fi
stop_bg "$UP"

# --- 2. a node that joined and exited does not count ---------------------------------------------
cluster_new three insecure
yaml_head
yaml_circuit mulchain mulchain
yaml_porep porep "curve=bn254,challenges=1,depth=8"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 16MiB}"
yaml_node prover-1 prover "resources: {memory_budget: 256MiB, prover_backend: cpu}"
cluster_up
# The prover is held before it can join (the scheduler keys porep-lite first, about a second).
POLL=0.01 wait_until 1 "up's pid file" test -s "$PIDF"
cp "$PIDF" "$T/pids2" 2>/dev/null
HELD=$(sed -n 4p "$T/pids2" 2>/dev/null)
SYNTH=$(sed -n 3p "$T/pids2" 2>/dev/null)
if [ -z "$HELD" ] || [ -z "$SYNTH" ]; then
  fail "three nodes: no pid file: $(cat "$UP_LOG")"
else
  kill -STOP "$HELD"  # the exit trap continues and ends it if the test stops early
  listed_or_up_gone() { listed synth-1 || ! kill -0 "$UP" 2>/dev/null; }
  if wait_until 30 "synth-1 in zkfleet status" listed_or_up_gone && listed synth-1; then
    ok "three nodes: synth-1 joined while prover-1 is held"
    kill -9 "$SYNTH"
    # The prover goes on once up has seen synth-1 exit.
    wait_log 5 "$UP_LOG" "node synth-1 exited" 1 "$UP"
    kill -CONT "$HELD"
    if ! wait_exit 30 "$UP"; then
      fail "three nodes: up still running 30 s after synth-1 died: $(cat "$UP_LOG")"
    else
      wait "$UP"
      rc=$?
      if grep -q "cluster ready" "$UP_LOG"; then
        fail "three nodes: 'cluster ready' with synth-1 dead: $(cat "$UP_LOG")"
      else
        ok "three nodes: no 'cluster ready' once synth-1 has exited"
      fi
      grep -q "node synth-1 exited (signal 9) before the cluster was ready" "$UP_LOG" && [ "$rc" = 1 ] &&
        ok "three nodes: up names the node that exited and exits 1" || fail "three nodes: up (exit $rc): $(cat "$UP_LOG")"
      alive=0
      for p in $(tail -n +2 "$T/pids2" 2>/dev/null); do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
      [ "$alive" = 0 ] && [ ! -e "$PIDF" ] && ok "three nodes: the other nodes stopped, the pid file removed" ||
        fail "three nodes: $alive node processes left, or the pid file"
    fi
  else
    fail "three nodes: synth-1 never listed: $(cat "$UP_LOG")"
  fi
fi

# --- 3. a node whose scheduler is gone reconnects and rejoins --------------------------------------
# The scheduler and the synthesis node of the file above, started one by one; the prover is not.
start_bg sched3 "$ZK" node --config "$CFG" --node scheduler
S3=$BG
start_bg synth3 "$ZK" node --config "$CFG" --node synth-1 --log-level warn
Y3=$BG
if wait_until 30 "synth-1 in zkfleet status" listed synth-1; then
  kill -9 "$S3"
  wait "$S3" 2>/dev/null
  wait_log 10 "$T/synth3.log" "warn(ing)? \[synth-1\] zkfleet node synth-1: the scheduler at 127.0.0.1:$SCHED_PORT is gone.*reconnecting" &&
    kill -0 "$Y3" 2>/dev/null &&
    ok "node: synth-1 keeps running when its scheduler is gone and says it reconnects" ||
    fail "node: synth-1 after its scheduler died: $(cat "$T/synth3.log")"
  start_bg sched3b "$ZK" node --config "$CFG" --node scheduler
  S3=$BG
  wait_until 30 "synth-1 in zkfleet status" listed synth-1 && grep -q "node synth-1 joined" "$T/sched3b.log" &&
    ok "node: synth-1 rejoins the restarted scheduler" ||
    fail "node: synth-1 did not rejoin: $(cat "$T/sched3b.log" "$T/synth3.log")"
  ! grep -q " info " "$T/synth3.log" && ok "node: --log-level warn leaves out the info lines" ||
    fail "node: info lines at --log-level warn: $(cat "$T/synth3.log")"
  stop_bg "$S3"
  stop_bg "$Y3"
else
  fail "node: synth-1 never joined: $(cat "$T/sched3.log" "$T/synth3.log")"
fi

finish
