#!/usr/bin/env bash
# Chaos: the cluster as processes under `zkfleet up` (mutual TLS on loopback: a scheduler with its
# journal, two synthesis nodes, two provers) proves jobs of two circuits (circom mulchain, native
# porep-lite) while, one after another:
#   1. synth-1 is killed (SIGKILL)                  → up restarts it; it rejoins
#   2. prover-1 is killed (SIGKILL)                 → up restarts it; it rejoins
#   3. prover-2 is stopped (SIGSTOP) past the node  → the scheduler drops it (its partitions go
#      timeout, then continued (SIGCONT)              elsewhere); continued, it rejoins
#   4. the scheduler is killed (SIGKILL)            → up restarts it; it replays its journal, the
#                                                     nodes rejoin, `await` reconnects
# Then: every job completes, every proof is accepted by snarkjs (zkfleet verify where snarkjs is
# not installed, said so), each partition comes back exactly once, and every node's reserved
# memory is back to zero. The figures (time to notice the stopped prover, time from the
# scheduler's kill to its next proof, proofs per minute) are printed; bench/chaos runs this
# against an undisturbed run (--calm: the same jobs, no faults).
#
#   tests/cli/chaos.sh <path-to-zkfleet> [--calm] [--partitions P] [--report FILE]
#
# --partitions P: per job (default 4; 10 jobs): bench/chaos makes the run work-bound with more.
#
# Ends with "N passed, M failed"; exits non-zero if M > 0. Every wait is bounded; about two
# minutes in all on 2 cores.
set -uo pipefail
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
CALM=0 REPORT="" P=4
while [ $# -gt 0 ]; do
  case "$1" in
    --calm) CALM=1; shift ;;
    --partitions) P="$2"; shift 2 ;;
    --report) REPORT="$2"; shift 2 ;;
    *) echo "chaos: unknown argument $1" >&2; exit 2 ;;
  esac
done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIX="$ROOT/tests/fixtures/bn254"
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
T="$(mktemp -d /tmp/zk_chaos_XXXXXX)"
B=$((20000 + RANDOM % 20000))  # ports B..B+4
CFG="$T/chaos.yaml"
LOGS="/tmp/zkfleet-up-$B.logs"
export XDG_CACHE_HOME="$T/cache"
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
UP=""
STOPPED=""
cleanup() {
  [ -n "$STOPPED" ] && kill -CONT "$STOPPED" 2>/dev/null
  if [ -n "$UP" ] && kill -0 "$UP" 2>/dev/null; then
    timeout 30 "$ZK" down --config "$CFG" >/dev/null 2>&1 || kill "$UP" 2>/dev/null
    wait "$UP" 2>/dev/null
  fi
  for p in $(pgrep -f -- "--config $CFG" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
  rm -rf "$T" "/tmp/zkfleet-up-$B".*
}
trap cleanup EXIT
die() {
  bad "$*"
  echo "--- up:"; tail -n 30 "$T/up.log" 2>/dev/null
  for f in "$LOGS"/*.log; do [ -f "$f" ] && { echo "--- $f:"; tail -n 25 "$f"; }; done
  echo "$pass passed, $fail failed"
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# node_pid NAME: the pid of that node's process now.
node_pid() { pgrep -f -- "--config $CFG .*--node $1\$" | head -n1; }
# wait_log SECONDS FILE REGEX [FROM_LINE]: until FILE has a matching line (after line FROM_LINE).
wait_log() {
  local end=$(($(date +%s) + $1))
  while [ "$(date +%s)" -le "$end" ]; do
    tail -n +"${4:-1}" "$2" 2>/dev/null | grep -Eq -- "$3" && return 0
    sleep 0.1
  done
  return 1
}
lines() { wc -l <"$1" 2>/dev/null || echo 0; }

cat >"$CFG" <<EOF
version: 1
scheduler:
  endpoint: 127.0.0.1:$B
  lookahead: 1
  input_roots: [$FIX]
  heartbeat: 500ms
  node_timeout: 3s
  stage_timeout: 30s
security:
  certs_dir: $T/certs
circuits:
  mulchain:
    zkey: $FIX/mulchain/circuit.zkey
    r1cs: $FIX/mulchain/circuit.r1cs
    shape: abc_witness
  porep:
    native: porep-lite
    params: curve=bn254,challenges=2,depth=12
    key_dir: $T/keys/porep
nodes:
  - name: scheduler
    roles: [scheduler]
    listen: {control: 127.0.0.1:$B}
  - name: synth-1
    roles: [synth]
    listen: {data: 127.0.0.1:$((B + 1))}
    resources: {cores: 1, memory_budget: 64MiB}
    data_plane: {connect_timeout: 1s, io_timeout: 3s, max_attempts: 2}
  - name: synth-2
    roles: [synth]
    listen: {data: 127.0.0.1:$((B + 2))}
    resources: {cores: 1, memory_budget: 64MiB}
    data_plane: {connect_timeout: 1s, io_timeout: 3s, max_attempts: 2}
  - name: prover-1
    roles: [prover]
    listen: {data: 127.0.0.1:$((B + 3))}
    resources: {cores: 1, memory_budget: 512MiB, prover_backend: cpu}
    hot_circuits: [mulchain, porep]
  - name: prover-2
    roles: [prover]
    listen: {data: 127.0.0.1:$((B + 4))}
    resources: {cores: 1, memory_budget: 512MiB, prover_backend: cpu}
    hot_circuits: [mulchain, porep]
EOF

"$ZK" up --config "$CFG" >"$T/up.log" 2>&1 &
UP=$!
wait_log 90 "$T/up.log" "cluster ready" || die "zkfleet up did not report ready"
ok "zkfleet up: 5 node processes ready"

# The jobs: a batch of two (one of each circuit, P partitions each) at the start and before each
# fault, so that every fault meets work in flight: 5 batches, 10 P partitions. Their waiters start
# at once and reconnect across the scheduler's restart.
T0=$(now)
JOBS=()
batch() {
  local j spec
  for spec in "mulchain:$FIX/mulchain/witness.wtns" "porep:seed=$1"; do
    j=$(timeout 60 "$ZK" submit --config "$CFG" --circuit "${spec%%:*}" --input "${spec#*:}" --partitions "$P") ||
      die "submit ${spec%%:*} (batch $1)"
    JOBS+=("$j:${spec%%:*}:$P")
    timeout 300 "$ZK" await --config "$CFG" "$j" --out "$T/proofs" --timeout 280 >"$T/await-$j.log" 2>&1 &
    echo $! >"$T/await-$j.pid"
  done
}
batch 1
NPARTS=$((10 * P))
SL="$LOGS/scheduler.log"
if [ "$CALM" = 1 ]; then  # the same batches at about the same pace, no fault
  wait_log 60 "$SL" "proof accepted" || true
  for b in 2 3 4 5; do
    batch "$b"
    sleep 4
  done
else
  wait_log 60 "$SL" "proof accepted" || true
  # 1. synth-1
  batch 2
  pid=$(node_pid synth-1)
  from=$(lines "$T/up.log")
  kill -9 "$pid"
  wait_log 30 "$T/up.log" "node synth-1 restarted" "$from" && ok "synth-1 killed (pid $pid), restarted by up" ||
    bad "synth-1 was not restarted: $(tail -n 5 "$T/up.log")"
  sleep 2
  # 2. prover-1
  batch 3
  pid=$(node_pid prover-1)
  from=$(lines "$T/up.log")
  kill -9 "$pid"
  wait_log 30 "$T/up.log" "node prover-1 restarted" "$from" && ok "prover-1 killed (pid $pid), restarted by up" ||
    bad "prover-1 was not restarted: $(tail -n 5 "$T/up.log")"
  sleep 2
  # 3. prover-2 silent past the node timeout (3 s)
  batch 4
  pid=$(node_pid prover-2)
  from=$(lines "$SL")
  STOPPED="$pid"
  t_stop=$(now)
  kill -STOP "$pid"
  if wait_log 20 "$SL" "node prover-2 lost" "$from"; then
    DETECT=$(since "$t_stop")
    ok "prover-2 stopped (SIGSTOP): the scheduler dropped it after ${DETECT} s (node_timeout 3 s)"
  else
    DETECT="-"
    bad "the stopped prover-2 was never dropped: $(tail -n 5 "$SL")"
  fi
  sleep 1
  from=$(lines "$SL")
  kill -CONT "$pid"
  STOPPED=""
  wait_log 40 "$SL" "node prover-2 joined" "$from" && ok "prover-2 continued (SIGCONT) and rejoined" ||
    bad "prover-2 did not rejoin: $(tail -n 5 "$LOGS/prover-2.log")"
  # 4. the scheduler
  batch 5
  pid=$(node_pid scheduler)
  before=$(grep -c "" "$SL")
  t_kill=$(now)
  kill -9 "$pid"
  wait_log 30 "$T/up.log" "node scheduler restarted" "$(lines "$T/up.log")" || true
  if wait_log 60 "$SL" "journal .*replayed" "$before"; then
    ok "scheduler killed (SIGKILL), restarted by up: $(tail -n +"$before" "$SL" | grep -m1 -o 'journal .*replayed.*')"
  else
    bad "the scheduler did not replay its journal: $(tail -n 10 "$SL")"
  fi
  if wait_log 90 "$SL" "proof accepted" "$before"; then
    RESTART=$(since "$t_kill")
    ok "first proof after the scheduler's kill: ${RESTART} s later"
  else
    RESTART="-"
  fi
fi

# Every job completes; each partition once; snarkjs accepts every proof.
checker="snarkjs"
[ -x "$SNARKJS" ] || checker="zkfleet verify (snarkjs not installed: scripts/deps --npm)"
declare -A RC
for spec in "${JOBS[@]}"; do
  j="${spec%%:*}"
  wait "$(cat "$T/await-$j.pid")"
  RC[$j]=$?
done
ELAPSED=$(since "$T0")  # the last job's proofs are in
total=0 good=0
for spec in "${JOBS[@]}"; do
  IFS=: read -r j c n <<<"$spec"
  rc=${RC[$j]}
  got=$(grep -c "verified" "$T/await-$j.log")
  parts=$(grep -o "job$j-p[0-9]*-proof.json" "$T/await-$j.log" | sort -u | wc -l)
  if [ "$rc" = 0 ] && [ "$got" = "$n" ] && [ "$parts" = "$n" ]; then :; else
    bad "job $j ($c): await exit $rc, $got proofs for $parts partitions of $n: $(tail -n 3 "$T/await-$j.log")"
    continue
  fi
  vk="$FIX/mulchain/verification_key.json"
  [ "$c" = porep ] && vk="$T/keys/porep/verification_key.json"
  for k in $(seq 0 $((n - 1))); do
    total=$((total + 1))
    p="$T/proofs/job$j-p$k"
    if [ -x "$SNARKJS" ]; then
      timeout 120 "$SNARKJS" groth16 verify "$vk" "$p-public.json" "$p-proof.json" 2>&1 | grep -q "OK" && good=$((good + 1))
    else
      "$ZK" verify "$vk" "$p-public.json" "$p-proof.json" >/dev/null 2>&1 && good=$((good + 1))
    fi
  done
done
[ "$total" = "$NPARTS" ] && [ "$good" = "$NPARTS" ] &&
  ok "every job completed, each partition once: $good of $NPARTS proofs accepted by $checker" ||
  bad "$good of $total proofs accepted by $checker ($NPARTS expected)"
RATE=$(awk -v n="$NPARTS" -v s="$ELAPSED" 'BEGIN { printf "%.1f", n * 60 / s }')
echo "figures: $NPARTS proofs in ${ELAPSED} s = ${RATE} proofs/min$([ "$CALM" = 0 ] && echo "; silent prover dropped after ${DETECT} s; first proof ${RESTART} s after the scheduler's kill")"
[ -z "$REPORT" ] || echo "calm=$CALM elapsed=$ELAPSED rate=$RATE detect=${DETECT:-} restart=${RESTART:-}" >>"$REPORT"

# Every reservation released (the scheduler's account of each node).
clean=0
for _ in $(seq 1 50); do
  timeout 10 "$ZK" status --config "$CFG" >"$T/status.txt" 2>&1 || true
  # node  reserved(value unit)  peak  budget  synth  pipeline: every reserved value 0
  if [ "$(tail -n +2 "$T/status.txt" | wc -l)" -ge 4 ] &&
    tail -n +2 "$T/status.txt" | awk '$2 != "0" { bad = 1 } END { exit bad }'; then
    clean=1
    break
  fi
  sleep 0.2
done
[ "$clean" = 1 ] && ok "every node's reserved memory is back to zero" ||
  bad "memory still reserved: $(cat "$T/status.txt")"

if [ "$fail" -gt 0 ]; then  # what the processes said, for whoever reads the failure
  for f in "$LOGS"/*.log; do [ -f "$f" ] && { echo "--- $f:"; grep -v "proof accepted" "$f" | tail -n 60; }; done
  [ -z "${ZK_CHAOS_KEEP:-}" ] || cp -r "$LOGS" "$ZK_CHAOS_KEEP"
fi
timeout 60 "$ZK" down --config "$CFG" >/dev/null 2>&1 && wait "$UP" 2>/dev/null
UP=""
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
