#!/usr/bin/env bash
# Integration: the cluster as separate processes on loopback — `zkfleet up` starts a scheduler,
# two synthesis nodes and a prover (one process each, CAF middleman + the Asio data plane); jobs
# of two circuits and both buffer shapes (mulchain: abc+witness from the r1cs, poseidon:
# witness-only), 8 partitions in all, submitted and awaited with the client commands; every
# proof checked by snarkjs (zkfleet verify when snarkjs is not installed, said so); a bad
# request is refused; `zkfleet down` stops every process. Every wait is bounded.
#
#   tests/actors/loopback_cluster.sh path/to/zkfleet
set -euo pipefail
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIX="$ROOT/tests/fixtures/bn254"
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
WORK="$(mktemp -d /tmp/zk_loopback_XXXXXX)"
BASE=$((20000 + RANDOM % 20000))  # ports BASE..BASE+3, unlikely to clash with another run
CFG="$WORK/cluster.yaml"
UP_PID=""
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

cleanup() {
  if [ -n "$UP_PID" ] && kill -0 "$UP_PID" 2>/dev/null; then
    timeout 30 "$ZK" down --config "$CFG" >/dev/null 2>&1 || kill "$UP_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK" "/tmp/zkfleet-up-$BASE.logs"
}
trap cleanup EXIT

cat >"$CFG" <<EOF
version: 1
scheduler:
  endpoint: 127.0.0.1:$BASE
  lookahead: 1
circuits:
  mulchain:
    zkey: $FIX/mulchain/circuit.zkey
    r1cs: $FIX/mulchain/circuit.r1cs
    shape: abc_witness
  poseidon:
    zkey: $FIX/poseidon/circuit.zkey
    r1cs: $FIX/poseidon/circuit.r1cs
    shape: witness_only
nodes:
  - name: scheduler
    roles: [scheduler]
    listen: {control: 127.0.0.1:$BASE}
  - name: synth-1
    roles: [synth]
    listen: {data: 127.0.0.1:$((BASE + 1))}
    resources: {cores: 1, memory_budget: 64MiB}
  - name: synth-2
    roles: [synth]
    listen: {data: 127.0.0.1:$((BASE + 2))}
    resources: {cores: 1, memory_budget: 64MiB}
  - name: prover-1
    roles: [prover]
    listen: {data: 127.0.0.1:$((BASE + 3))}
    resources: {cores: 2, memory_budget: 256MiB, prover_backend: cpu}
    hot_circuits: [mulchain, poseidon]
EOF

"$ZK" up --config "$CFG" >"$WORK/up.log" 2>&1 &
UP_PID=$!
for _ in $(seq 1 300); do
  grep -q "cluster ready" "$WORK/up.log" && break
  kill -0 "$UP_PID" 2>/dev/null || break
  sleep 0.2
done
if grep -q "cluster ready: 4 nodes" "$WORK/up.log"; then ok "zkfleet up: 4 node processes joined"; else
  bad "zkfleet up did not report ready"; cat "$WORK/up.log"; cat /tmp/zkfleet-up-$BASE.logs/*.log 2>/dev/null || true
  echo "$pass passed, $fail failed"; exit 1
fi
NODES=$(tail -n +2 "/tmp/zkfleet-up-$BASE.pid")
[ "$(echo "$NODES" | wc -l)" = 4 ] && ok "4 node processes" || bad "expected 4 node processes: $NODES"

J1=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 4)
J2=$(timeout 30 "$ZK" submit --config "$CFG" --circuit poseidon --input "$FIX/poseidon/witness.wtns" --partitions 4 --priority high)
[ -n "$J1" ] && [ -n "$J2" ] && ok "submitted jobs $J1 (mulchain, abc+witness) and $J2 (poseidon, witness-only)" || bad "submit"

if timeout 60 "$ZK" submit --config "$CFG" --circuit nope --input "$FIX/mulchain/witness.wtns" >"$WORK/bad.log" 2>&1; then
  bad "a job of an unknown circuit was accepted"
else
  grep -q "bad_request: unknown circuit 'nope'" "$WORK/bad.log" && ok "unknown circuit refused: $(cat "$WORK/bad.log")" || bad "refusal message: $(cat "$WORK/bad.log")"
fi

for J in "$J1" "$J2"; do
  if timeout 180 "$ZK" await --config "$CFG" "$J" --out "$WORK/proofs" --timeout 150 >"$WORK/await-$J.log" 2>&1; then
    ok "job $J: $(grep -c verified "$WORK/await-$J.log") proofs returned"
  else
    bad "await job $J: $(cat "$WORK/await-$J.log")"
  fi
done
timeout 30 "$ZK" status --config "$CFG" "$J1" | head -1 | grep -q "4/4 done, 0 failed, finished" && ok "status of job $J1: 4/4 done" || bad "status of job $J1"

checker="snarkjs"
[ -x "$SNARKJS" ] || checker="zkfleet verify (snarkjs not installed: scripts/deps --npm)"
n=0
for J in "$J1" "$J2"; do
  c=mulchain
  [ "$J" = "$J2" ] && c=poseidon
  for k in 0 1 2 3; do
    p="$WORK/proofs/job$J-p$k"
    if [ ! -s "$p-proof.json" ]; then bad "job $J partition $k: no proof"; continue; fi
    if [ -x "$SNARKJS" ]; then
      timeout 120 "$SNARKJS" groth16 verify "$FIX/$c/verification_key.json" "$p-public.json" "$p-proof.json" >"$WORK/v.log" 2>&1 && grep -q "OK" "$WORK/v.log" && n=$((n + 1)) || bad "snarkjs rejects job $J partition $k: $(cat "$WORK/v.log")"
    else
      "$ZK" verify "$FIX/$c/verification_key.json" "$p-public.json" "$p-proof.json" >/dev/null && n=$((n + 1)) || bad "job $J partition $k invalid"
    fi
  done
done
[ "$n" = 8 ] && ok "8 of 8 proofs accepted by $checker" || bad "$n of 8 proofs accepted by $checker"

timeout 60 "$ZK" down --config "$CFG" >"$WORK/down.log" 2>&1 && ok "zkfleet down" || bad "zkfleet down: $(cat "$WORK/down.log")"
for _ in $(seq 1 100); do kill -0 "$UP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$UP_PID" 2>/dev/null; then bad "zkfleet up still running"; else ok "zkfleet up exited"; fi
alive=0
for p in $NODES; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ "$alive" = 0 ] && ok "every node process stopped" || bad "$alive node processes still running"
UP_PID=""

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
