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
# Ends with "N passed, M failed"; exits non-zero if M > 0. Every wait is bounded.
set -uo pipefail
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIX="$ROOT/tests/fixtures/bn254"
T="$(mktemp -d /tmp/zk_up_ready_XXXXXX)"
BASE=$((20000 + RANDOM % 20000))  # ports BASE..BASE+12
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
UP1="" UP2="" HELD=""
cleanup() {
  [ -n "$HELD" ] && kill -CONT "$HELD" 2>/dev/null
  for p in $UP1 $UP2; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  rm -rf "$T" "/tmp/zkfleet-up-$BASE".* "/tmp/zkfleet-up-$((BASE + 10))".*
}
trap cleanup EXIT
export XDG_CACHE_HOME="$T/cache"  # porep-lite's key is made here, not in the user's cache

# wait_for <seconds> <file> <regex> <pid>: until the file has a line matching, or the process ended.
wait_for() {
  local n=$(($1 * 10))
  for _ in $(seq 1 "$n"); do
    grep -Eq -- "$3" "$2" 2>/dev/null && return 0
    kill -0 "$4" 2>/dev/null || { grep -Eq -- "$3" "$2" 2>/dev/null; return; }
    sleep 0.1
  done
  return 1
}

# --- 1. configs/single-host.yaml ---------------------------------------------------------------
CFG1="$T/single-host.yaml"
sed -e "s#127.0.0.1:7400#127.0.0.1:$BASE#g" -e "s#127.0.0.1:7500#127.0.0.1:$((BASE + 1))#g" -e "s#127.0.0.1:7410#127.0.0.1:$((BASE + 2))#g" \
  -e "s#\.\./tests/fixtures#$ROOT/tests/fixtures#g" \
  -e "s#certs_dir: .*#certs_dir: $T/certs#" "$ROOT/configs/single-host.yaml" >"$CFG1"  # its own CA
"$ZK" up --config "$CFG1" --log-level debug >"$T/up1.log" 2>&1 &
UP1=$!
if wait_for 240 "$T/up1.log" "cluster ready" "$UP1"; then
  # At once: the node that holds every role must be in the scheduler's list already.
  if timeout 30 "$ZK" status --config "$CFG1" >"$T/status1.txt" 2>&1 && grep -q "^local " "$T/status1.txt"; then
    ok "single-host: right after 'cluster ready' the scheduler lists node local (synth + prover)"
  else
    bad "single-host: 'cluster ready' before node local joined: $(cat "$T/status1.txt")"
  fi
  grep -q "cluster ready: 1 nodes" "$T/up1.log" && ok "single-host: ready with its 1 node" || bad "single-host: $(cat "$T/up1.log")"
  pid=$(sed -n 2p "/tmp/zkfleet-up-$BASE.pid" 2>/dev/null)
  if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--log-level debug --node local $"; then
    ok "single-host: up passed --log-level debug to the node"
  else
    bad "single-host: the node's command line: $( [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline")"
  fi
  J=$(timeout 30 "$ZK" submit --config "$CFG1" --circuit mulchain-bn254 --input "$FIX/mulchain/witness.wtns" --partitions 2 2>"$T/submit1.log")
  if [ -n "$J" ] && timeout 120 "$ZK" await --config "$CFG1" "$J" --out "$T/proofs" --timeout 100 >"$T/await1.log" 2>&1 &&
    "$ZK" verify "$FIX/mulchain/verification_key.json" "$T/proofs/job$J-p1-public.json" "$T/proofs/job$J-p1-proof.json" >/dev/null; then
    ok "single-host: job $J proven and verified"
  else
    bad "single-host: job: $(cat "$T/submit1.log" "$T/await1.log" 2>/dev/null)"
  fi
  timeout 60 "$ZK" down --config "$CFG1" >"$T/down1.log" 2>&1 && ok "single-host: zkfleet down" || bad "single-host: down: $(cat "$T/down1.log")"
  wait_for 15 "$T/up1.log" "stopped 1 nodes" "$UP1"
  grep -q "info  \[local\] zkfleet node local ready" "/tmp/zkfleet-up-$BASE.logs/local.log" 2>/dev/null &&
    ok "single-host: the node's lines go through the log, named after it" ||
    bad "single-host: node log: $(cat "/tmp/zkfleet-up-$BASE.logs/local.log" 2>/dev/null)"
else
  bad "single-host: no 'cluster ready': $(cat "$T/up1.log"; cat "/tmp/zkfleet-up-$BASE.logs/"*.log 2>/dev/null)"
fi
wait "$UP1" 2>/dev/null
UP1=""

# --- 2. a node that joined and exited does not count ---------------------------------------------
B=$((BASE + 10))
CFG2="$T/three.yaml"
cat >"$CFG2" <<EOF
version: 1
scheduler: {endpoint: 127.0.0.1:$B}
security: {insecure: true}
circuits:
  mulchain: {zkey: $FIX/mulchain/circuit.zkey, r1cs: $FIX/mulchain/circuit.r1cs}
  porep: {native: porep-lite, params: "curve=bn254,challenges=1,depth=8", key_dir: $T/keys}
nodes:
  - {name: scheduler, roles: [scheduler], listen: {control: 127.0.0.1:$B}}
  - {name: synth-1, roles: [synth], listen: {data: 127.0.0.1:$((B + 1))}, resources: {cores: 1, memory_budget: 16MiB}}
  - {name: prover-1, roles: [prover], listen: {data: 127.0.0.1:$((B + 2))}, resources: {memory_budget: 256MiB, prover_backend: cpu}}
EOF
"$ZK" up --config "$CFG2" >"$T/up2.log" 2>&1 &
UP2=$!
# The prover is held before it can join (the scheduler keys porep-lite first, about a second).
for _ in $(seq 1 100); do [ -s "/tmp/zkfleet-up-$B.pid" ] && break; sleep 0.01; done
cp "/tmp/zkfleet-up-$B.pid" "$T/pids2" 2>/dev/null
HELD=$(sed -n 4p "$T/pids2" 2>/dev/null)
SYNTH=$(sed -n 3p "$T/pids2" 2>/dev/null)
if [ -z "$HELD" ] || [ -z "$SYNTH" ]; then
  bad "three nodes: no pid file: $(cat "$T/up2.log")"
else
  kill -STOP "$HELD"
  joined=0
  for _ in $(seq 1 300); do
    timeout 10 "$ZK" status --config "$CFG2" 2>/dev/null | grep -q "^synth-1 " && { joined=1; break; }
    kill -0 "$UP2" 2>/dev/null || break
    sleep 0.1
  done
  if [ "$joined" = 1 ]; then
    ok "three nodes: synth-1 joined while prover-1 is held"
    kill -9 "$SYNTH"
    sleep 0.3
    kill -CONT "$HELD"
    HELD=""
    for _ in $(seq 1 300); do kill -0 "$UP2" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$UP2" 2>/dev/null; then
      bad "three nodes: up still running 30 s after synth-1 died: $(cat "$T/up2.log")"
    else
      wait "$UP2"
      rc=$?
      if grep -q "cluster ready" "$T/up2.log"; then
        bad "three nodes: 'cluster ready' with synth-1 dead: $(cat "$T/up2.log")"
      else
        ok "three nodes: no 'cluster ready' once synth-1 has exited"
      fi
      grep -q "node synth-1 exited (signal 9) before the cluster was ready" "$T/up2.log" && [ "$rc" = 1 ] &&
        ok "three nodes: up names the node that exited and exits 1" || bad "three nodes: up (exit $rc): $(cat "$T/up2.log")"
      alive=0
      for p in $(tail -n +2 "$T/pids2" 2>/dev/null); do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
      [ "$alive" = 0 ] && [ ! -e "/tmp/zkfleet-up-$B.pid" ] && ok "three nodes: the other nodes stopped, the pid file removed" ||
        bad "three nodes: $alive node processes left, or the pid file"
    fi
  else
    bad "three nodes: synth-1 never listed: $(cat "$T/up2.log")"
  fi
fi
UP2=""

# --- 3. a node whose scheduler is gone reconnects and rejoins --------------------------------------
# The scheduler and the synthesis node of the file above, started one by one; the prover is not.
"$ZK" node --config "$CFG2" --node scheduler >"$T/sched3.log" 2>&1 &
S3=$!
UP1="$S3"  # cleanup stops it if this part fails early
"$ZK" node --config "$CFG2" --node synth-1 --log-level warn >"$T/synth3.log" 2>&1 &
Y3=$!
UP2="$Y3"
listed() {  # synth-1 in the scheduler's list, within 30 s
  for _ in $(seq 1 300); do
    timeout 10 "$ZK" status --config "$CFG2" 2>/dev/null | grep -q "^synth-1 " && return 0
    sleep 0.1
  done
  return 1
}
if listed; then
  kill -9 "$S3"
  wait "$S3" 2>/dev/null
  said=0
  for _ in $(seq 1 100); do
    grep -Eq "warn(ing)? \[synth-1\] zkfleet node synth-1: the scheduler at 127.0.0.1:$B is gone.*reconnecting" "$T/synth3.log" && { said=1; break; }
    sleep 0.1
  done
  [ "$said" = 1 ] && kill -0 "$Y3" 2>/dev/null &&
    ok "node: synth-1 keeps running when its scheduler is gone and says it reconnects" ||
    bad "node: synth-1 after its scheduler died: $(cat "$T/synth3.log")"
  "$ZK" node --config "$CFG2" --node scheduler >"$T/sched3b.log" 2>&1 &
  S3=$!
  UP1="$S3"
  listed && grep -q "node synth-1 joined" "$T/sched3b.log" &&
    ok "node: synth-1 rejoins the restarted scheduler" ||
    bad "node: synth-1 did not rejoin: $(cat "$T/sched3b.log" "$T/synth3.log")"
  ! grep -q " info " "$T/synth3.log" && ok "node: --log-level warn leaves out the info lines" ||
    bad "node: info lines at --log-level warn: $(cat "$T/synth3.log")"
  kill "$S3" "$Y3" 2>/dev/null
  wait "$S3" "$Y3" 2>/dev/null
else
  bad "node: synth-1 never joined: $(cat "$T/sched3.log" "$T/synth3.log")"
fi
UP1="" UP2=""

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
