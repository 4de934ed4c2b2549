#!/usr/bin/env bash
# Integration: the cluster as separate processes on loopback — `zkfleet up` starts a scheduler,
# two synthesis nodes (two send streams each) and two provers (one process each, CAF middleman +
# the Asio data plane); jobs
# of two circom circuits and both buffer shapes (mulchain: abc+witness from the r1cs, poseidon:
# witness-only), 8 partitions in all, and a native porep-lite job (keyed by the scheduler at
# start-up), submitted and awaited with the client commands; every proof checked by snarkjs
# (zkfleet verify when snarkjs is not installed, said so); a bad request is refused; the merged
# timeline (`zkfleet timeline --config`) holds events of every process in causal order; the
# scheduler's memory account never passed a budget, and each synthesis process's peak RSS grew
# by no more than its budget plus its working memory; `zkfleet down` stops every process.
# Every wait is bounded.
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
  http: 127.0.0.1:0
  default_priority: high
  input_roots: [$FIX]
security:
  certs_dir: $WORK/certs            # mutual TLS; zkfleet up makes the development certificates
circuits:
  mulchain:
    zkey: $FIX/mulchain/circuit.zkey
    r1cs: $FIX/mulchain/circuit.r1cs
    shape: abc_witness
  poseidon:
    zkey: $FIX/poseidon/circuit.zkey
    r1cs: $FIX/poseidon/circuit.r1cs
    shape: witness_only
  porep:
    native: porep-lite
    params: curve=bn254,challenges=1,depth=8
    key_dir: $WORK/keys/porep
    priority: low
nodes:
  - name: scheduler
    roles: [scheduler]
    listen: {control: 127.0.0.1:$BASE}
  - name: synth-1
    roles: [synth]
    listen: {data: 127.0.0.1:$((BASE + 1))}
    resources: {cores: 1, memory_budget: 16MiB}
    data_plane: {send_streams: 2}
  - name: synth-2
    roles: [synth]
    listen: {data: 127.0.0.1:$((BASE + 2))}
    resources: {cores: 1, memory_budget: 16MiB}
    data_plane: {send_streams: 2}
  - name: prover-1
    roles: [prover]
    listen: {data: 127.0.0.1:$((BASE + 3))}
    resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}
    hot_circuits: [mulchain, poseidon, porep]
  - name: prover-2
    roles: [prover]
    listen: {data: 127.0.0.1:$((BASE + 4))}
    resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}
    hot_circuits: [mulchain, poseidon, porep]
EOF

: >"$WORK/up.log"
"$ZK" up --config "$CFG" >"$WORK/up.log" 2>&1 &
UP_PID=$!
for _ in $(seq 1 300); do
  grep -q "cluster ready" "$WORK/up.log" && break
  kill -0 "$UP_PID" 2>/dev/null || break
  sleep 0.2
done
if grep -q "cluster ready: 5 nodes" "$WORK/up.log"; then ok "zkfleet up: 5 node processes joined"; else
  bad "zkfleet up did not report ready"; cat "$WORK/up.log"; cat /tmp/zkfleet-up-$BASE.logs/*.log 2>/dev/null || true
  echo "$pass passed, $fail failed"; exit 1
fi
NODES=$(tail -n +2 "/tmp/zkfleet-up-$BASE.pid")
[ "$(echo "$NODES" | wc -l)" = 5 ] && ok "5 node processes" || bad "expected 5 node processes: $NODES"

# The synthesis processes' resident memory before any job (what their peak may grow from).
declare -A RSS0
for name in synth-1 synth-2; do
  pid=$(pgrep -f -- "--node $name\$" | head -n1 || true)
  [ -n "$pid" ] && RSS0[$name]=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
done

J1=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 4)
J2=$(timeout 30 "$ZK" submit --config "$CFG" --circuit poseidon --input "$FIX/poseidon/witness.wtns" --partitions 4 --priority high)
[ -n "$J1" ] && [ -n "$J2" ] && ok "submitted jobs $J1 (mulchain, abc+witness) and $J2 (poseidon, witness-only)" || bad "submit"

if timeout 60 "$ZK" submit --config "$CFG" --circuit nope --input "$FIX/mulchain/witness.wtns" >"$WORK/bad.log" 2>&1; then
  bad "a job of an unknown circuit was accepted"
else
  grep -q "bad_request: unknown circuit 'nope'" "$WORK/bad.log" && ok "unknown circuit refused: $(cat "$WORK/bad.log")" || bad "refusal message: $(cat "$WORK/bad.log")"
fi

J3=$(timeout 30 "$ZK" submit --config "$CFG" --circuit porep --input seed=11 --partitions 6)
[ -n "$J3" ] && ok "submitted job $J3 (porep-lite, native, 6 partitions)" || bad "submit porep-lite"

for J in "$J1" "$J2" "$J3"; do
  if timeout 180 "$ZK" await --config "$CFG" "$J" --out "$WORK/proofs" --timeout 150 >"$WORK/await-$J.log" 2>&1; then
    ok "job $J: $(grep -c verified "$WORK/await-$J.log") proofs returned"
  else
    bad "await job $J: $(cat "$WORK/await-$J.log")"
  fi
done
timeout 30 "$ZK" status --config "$CFG" "$J1" | head -1 | grep -q "4/4 done, 0 failed, finished" && ok "status of job $J1: 4/4 done" || bad "status of job $J1"
# No --priority: the circuit's configured priority (porep: low), else default_priority (high).
s1=$(timeout 30 "$ZK" status --config "$CFG" "$J1" | head -1) s2=$(timeout 30 "$ZK" status --config "$CFG" "$J2" | head -1)
s3=$(timeout 30 "$ZK" status --config "$CFG" "$J3" | head -1)
case "$s1|$s2|$s3" in
  *", mulchain, high)"*", poseidon, high)"*", porep, low)"*) ok "priorities from the config: $s1 / $s3" ;;
  *) bad "priorities: $s1 / $s2 / $s3" ;;
esac

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
n=0
for k in 0 1 2 3 4 5; do
  p="$WORK/proofs/job$J3-p$k"
  if [ -x "$SNARKJS" ]; then
    timeout 120 "$SNARKJS" groth16 verify "$WORK/keys/porep/verification_key.json" "$p-public.json" "$p-proof.json" >"$WORK/v.log" 2>&1 && grep -q "OK" "$WORK/v.log" && n=$((n + 1)) || bad "snarkjs rejects porep-lite partition $k: $(cat "$WORK/v.log")"
  else
    "$ZK" verify "$WORK/keys/porep/verification_key.json" "$p-public.json" "$p-proof.json" >/dev/null && n=$((n + 1)) || bad "porep-lite partition $k invalid"
  fi
done
[ "$n" = 6 ] && ok "6 of 6 native porep-lite proofs accepted by $checker" || bad "$n of 6 porep-lite proofs accepted"

# The merged timeline: every process reported, clock-corrected into one order.
if timeout 60 "$ZK" timeline --config "$CFG" --format json >"$WORK/timeline.json" 2>"$WORK/timeline.err"; then
  # The timeline names jobs by the scheduler's job number (status: "job ID (#N, ...").
  SEQS=$(for s in "$s1" "$s2" "$s3"; do sed -n 's/^job [0-9a-f]* (#\([0-9]*\),.*/\1/p' <<<"$s"; done)
  if python3 - "$WORK/timeline.json" $SEQS >"$WORK/timeline.check" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
jobs = [int(j) for j in sys.argv[2:]]
names = t["nodes"]
seen = {names[str(e["node"])] for e in t["events"]}
missing = {"scheduler", "synth-1", "synth-2", "prover-1", "prover-2"} - seen
assert not missing, f"no events from {sorted(missing)} (have {sorted(seen)})"
# send_streams 2 with two provers: a synthesis node sends on two streams (tracks "send 0/1").
track_name = {(tr["node"], tr["track"]): tr["name"] for tr in t["tracks"]}
streams = {(e["node"], track_name.get((e["node"], e["track"]), "?")) for e in t["events"]
           if e["stage"] == "XFER" and names[str(e["node"])].startswith("synth-")}
assert all(name.startswith("send ") for _, name in streams), f"XFER on {sorted(streams)}"
per_node = {}
for n, _ in streams:
    per_node[n] = per_node.get(n, 0) + 1
assert per_node and max(per_node.values()) == 2, f"no synthesis node used both send streams: {sorted(streams)}"
times = [e["t_ns"] for e in t["events"]]
assert times == sorted(times), "events not in time order"
# Per partition, in the common time base: queued before synthesis ends before proving starts
# before done — each recorded by a different process.
first = {}
for e in t["events"]:
    first.setdefault((e["job"], e["partition"], e["stage"], e["phase"]), e["t_ns"])
checked = 0
for j in jobs:
    for k in range(8):
        q, s, g, d = (first.get((j, k, st, ph)) for st, ph in
                      (("QUEUED", "begin"), ("SYNTH", "end"), ("GPU", "begin"), ("DONE", "instant")))
        if None in (q, s, g, d):
            continue
        assert q <= s <= g <= d, f"job {j} partition {k}: queued {q}, synth end {s}, gpu {g}, done {d} out of order"
        checked += 1
assert checked >= 14, f"only {checked} partitions with every stage"
print(f"{len(t['events'])} events from {len(seen)} processes, {checked} partitions in causal order, "
      f"buffers on {len(streams)} send streams")
PY
  then ok "merged timeline: $(cat "$WORK/timeline.check")"; else bad "merged timeline: $(cat "$WORK/timeline.check")"; fi
else
  bad "zkfleet timeline --config: $(cat "$WORK/timeline.err")"
fi
timeout 60 "$ZK" timeline --config "$CFG" --format stats >"$WORK/stats.txt" 2>&1 && grep -q "^bottleneck: " "$WORK/stats.txt" &&
  ok "stats of the running cluster: $(grep '^bottleneck:' "$WORK/stats.txt" | cut -d';' -f1)" || bad "timeline stats: $(cat "$WORK/stats.txt")"

# Prometheus at the scheduler: counters and stage histograms of the merged timeline, node gauges.
# HTTPS with mutual TLS (security.certs_dir): this client shows client.admin's certificate.
MURL=$(grep -o 'metrics at https\?://[^ )]*' "/tmp/zkfleet-up-$BASE.logs/scheduler.log" | cut -d' ' -f3 || true)
if [ -n "$MURL" ] && python3 - "$MURL" "$WORK/certs" >"$WORK/metrics.check" 2>&1 <<'PY'
import ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=f"{sys.argv[2]}/ca.crt")
ctx.check_hostname = False  # the certificate names the node (scheduler), not 127.0.0.1
ctx.load_cert_chain(f"{sys.argv[2]}/client.admin.crt", f"{sys.argv[2]}/client.admin.key")
r = urllib.request.urlopen(sys.argv[1], timeout=20, context=ctx)
body = r.read().decode()
assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain; version=0.0.4"), r.headers["Content-Type"]
lines = body.splitlines()
proofs = [l for l in lines if l.startswith("zkfleet_proofs_total ")]
assert proofs and float(proofs[0].split()[1]) == 14, proofs
for node in ("synth-1", "synth-2", "prover-1", "prover-2"):
    assert any(l.startswith(f'zkfleet_node_budget_bytes{{node="{node}"}} ') for l in lines), node
assert any(l.startswith("zkfleet_stage_duration_seconds_count") for l in lines)
print(f"{len(lines)} lines, zkfleet_proofs_total 14, budgets of 4 nodes")
PY
then ok "GET $MURL: $(cat "$WORK/metrics.check")"; else bad "metrics at '$MURL': $(cat "$WORK/metrics.check" 2>/dev/null)"; fi

# Memory: the scheduler's account never passed a budget (peak ≤ budget per node) ...
if timeout 30 "$ZK" status --config "$CFG" >"$WORK/nodes.txt" 2>&1; then
  python3 - "$WORK/nodes.txt" >"$WORK/nodes.check" 2>&1 <<'PY' && ok "memory account: $(cat "$WORK/nodes.check")" || bad "memory account: $(cat "$WORK/nodes.check") $(cat "$WORK/nodes.txt")"
import sys
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
assert len(rows) == 4, f"{len(rows)} nodes"
out = []
for r in rows:
    peak, budget = float(r[3]) * unit[r[4]], float(r[5]) * unit[r[6]]
    assert 0 < peak <= budget, f"{r[0]}: peak {peak} budget {budget}"
    out.append(f"{r[0]} peak {r[3]} {r[4]} of {r[5]} {r[6]}")
print("; ".join(out))
PY
else
  bad "zkfleet status --config: $(cat "$WORK/nodes.txt")"
fi
# ... and each synthesis process's resident memory grew by at most its buffer budget plus the
# working memory outside it (prove-mode synthesis writes straight into the buffer; what remains
# is the replica, the r1cs in CSR form, the witness file read): 16 MiB + 16 MiB here.
for name in synth-1 synth-2; do
  pid=$(pgrep -f -- "--node $name\$" | head -n1 || true)
  if [ -z "$pid" ] || [ -z "${RSS0[$name]:-}" ]; then bad "$name: no process to measure"; continue; fi
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  grow=$(( (hwm - RSS0[$name]) / 1024 ))
  [ "$grow" -le 32 ] && ok "$name: peak RSS $((hwm / 1024)) MiB, $grow MiB above its idle ${RSS0[$name]} KiB (budget 16 MiB + 16 MiB working)" ||
    bad "$name: peak RSS grew by $grow MiB (budget 16 MiB + 16 MiB working)"
done

timeout 60 "$ZK" down --config "$CFG" >"$WORK/down.log" 2>&1 && ok "zkfleet down" || bad "zkfleet down: $(cat "$WORK/down.log")"
for _ in $(seq 1 100); do kill -0 "$UP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$UP_PID" 2>/dev/null; then bad "zkfleet up still running"; else ok "zkfleet up exited"; fi
alive=0
for p in $NODES; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ "$alive" = 0 ] && ok "every node process stopped" || bad "$alive node processes still running"
UP_PID=""

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
