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
# Every wait is bounded (tests/lib/cluster.sh).
#
#   tests/actors/loopback_cluster.sh path/to/zkfleet
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init loopback "${1:-}"

cluster_new cluster tls  # mutual TLS; zkfleet up makes the development certificates
yaml_head "lookahead: 1" "http: 127.0.0.1:0" "default_priority: high" "input_roots: [$FIX]"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_circuit poseidon poseidon "shape: witness_only"
yaml_porep porep "curve=bn254,challenges=1,depth=8" "priority: low"
yaml_node scheduler scheduler
for s in synth-1 synth-2; do
  yaml_node "$s" synth "resources: {cores: 1, memory_budget: 16MiB}, data_plane: {send_streams: 2}"
done
for p in prover-1 prover-2; do
  yaml_node "$p" prover "resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}, hot_circuits: [mulchain, poseidon, porep]"
done

cluster_up
wait_ready 60 5 || die "zkfleet up did not report ready"
ok "zkfleet up: 5 node processes joined"
NODES=$(tail -n +2 "$PIDF")
[ "$(echo "$NODES" | wc -l)" = 5 ] && ok "5 node processes" || fail "expected 5 node processes: $NODES"

# The synthesis processes' resident memory before any job (what their peak may grow from).
declare -A RSS0
for name in synth-1 synth-2; do
  pid=$(node_pid "$name")
  [ -n "$pid" ] && RSS0[$name]=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
done
J1=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 4)
J2=$(timeout 30 "$ZK" submit --config "$CFG" --circuit poseidon --input "$FIX/poseidon/witness.wtns" --partitions 4 --priority high)
[ -n "$J1" ] && [ -n "$J2" ] && ok "submitted jobs $J1 (mulchain, abc+witness) and $J2 (poseidon, witness-only)" || fail "submit"

if timeout 60 "$ZK" submit --config "$CFG" --circuit nope --input "$FIX/mulchain/witness.wtns" >"$T/bad.log" 2>&1; then
  fail "a job of an unknown circuit was accepted"
else
  grep -q "bad_request: unknown circuit 'nope'" "$T/bad.log" && ok "unknown circuit refused: $(cat "$T/bad.log")" || fail "refusal message: $(cat "$T/bad.log")"
fi

J3=$(timeout 30 "$ZK" submit --config "$CFG" --circuit porep --seed 11 --partitions 6)
[ -n "$J3" ] && ok "submitted job $J3 (porep-lite, native, 6 partitions)" || fail "submit porep-lite"

for J in "$J1" "$J2" "$J3"; do
  if timeout 180 "$ZK" await --config "$CFG" "$J" --out "$T/proofs" --timeout 150 >"$T/await-$J.log" 2>&1; then
    ok "job $J: $(grep -c verified "$T/await-$J.log") proofs returned"
  else
    fail "await job $J: $(cat "$T/await-$J.log")"
  fi
done
timeout 30 "$ZK" status --config "$CFG" "$J1" | head -1 | grep -q "4/4 done, 0 failed, finished" && ok "status of job $J1: 4/4 done" || fail "status of job $J1"
# No --priority: the circuit's configured priority (porep: low), else default_priority (high).
s1=$(timeout 30 "$ZK" status --config "$CFG" "$J1" | head -1) s2=$(timeout 30 "$ZK" status --config "$CFG" "$J2" | head -1)
s3=$(timeout 30 "$ZK" status --config "$CFG" "$J3" | head -1)
case "$s1|$s2|$s3" in
  *", mulchain, high)"*", poseidon, high)"*", porep, low)"*) ok "priorities from the config: $s1 / $s3" ;;
  *) fail "priorities: $s1 / $s2 / $s3" ;;
esac

n=0
for J in "$J1" "$J2"; do
  c=mulchain
  [ "$J" = "$J2" ] && c=poseidon
  verify_job "$FIX/$c/verification_key.json" "$T/proofs" "$J" 4
  n=$((n + VERIFIED))
done
[ "$n" = 8 ] && ok "8 of 8 proofs accepted by $CHECKER" || fail "$n of 8 proofs accepted by $CHECKER"
verify_job "$T/keys/porep/verification_key.json" "$T/proofs" "$J3" 6
[ "$VERIFIED" = 6 ] && ok "6 of 6 native porep-lite proofs accepted by $CHECKER" || fail "$VERIFIED of 6 porep-lite proofs accepted"

# The merged timeline: every process reported, clock-corrected into one order.
if timeout 60 "$ZK" timeline --config "$CFG" --format json >"$T/timeline.json" 2>"$T/timeline.err"; then
  # The timeline names jobs by the scheduler's job number (status: "job ID (#N, ...").
  SEQS=$(for s in "$s1" "$s2" "$s3"; do sed -n 's/^job [0-9a-f]* (#\([0-9]*\),.*/\1/p' <<<"$s"; done)
  if python3 - "$T/timeline.json" $SEQS >"$T/timeline.check" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
jobs = [int(j) for j in sys.argv[2:]]
names = t["nodes"]
seen = {names[str(e["node"])] for e in t["events"]}
missing = {"scheduler", "synth-1", "synth-2", "prover-1", "prover-2"} - seen
assert not missing, f"no events from {sorted(missing)} (have {sorted(seen)})"
# send_streams 2 with two provers: a synthesis node sends to each prover on its own stream
# (tracks "send 0/1"). Which prover gets a partition is the scheduler's choice (under load one
# prover may take all of a node's partitions), so the check is the mapping: one stream per prover.
track_name = {(tr["node"], tr["track"]): tr["name"] for tr in t["tracks"]}
# A partition proved once (a retried one may have gone to two provers) names its prover.
gpu_nodes = {}
for e in t["events"]:
    if e["stage"] == "GPU" and e["phase"] == "begin":
        gpu_nodes.setdefault((e["job"], e["partition"]), []).append(e["node"])
prover_of = {k: v[0] for k, v in gpu_nodes.items() if len(v) == 1}
streams, stream_of = set(), {}
for e in t["events"]:
    if e["stage"] != "XFER" or not names[str(e["node"])].startswith("synth-"):
        continue
    name = track_name.get((e["node"], e["track"]), "?")
    streams.add((e["node"], name))
    p = prover_of.get((e["job"], e["partition"]))
    if p is not None:
        stream_of.setdefault((e["node"], p), set()).add(name)
assert streams and all(name.startswith("send ") for _, name in streams), f"XFER on {sorted(streams)}"
assert stream_of, "no synthesis node's send matched to the prover that proved it"
assert all(len(v) == 1 for v in stream_of.values()), f"a prover reached on several streams: {stream_of}"
for n in {n for n, _ in stream_of}:
    used = [next(iter(v)) for (m, _), v in stream_of.items() if m == n]
    assert len(used) == len(set(used)), f"two provers share a stream of node {n}: {stream_of}"
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
  then ok "merged timeline: $(cat "$T/timeline.check")"; else fail "merged timeline: $(cat "$T/timeline.check")"; fi
else
  fail "zkfleet timeline --config: $(cat "$T/timeline.err")"
fi
timeout 60 "$ZK" timeline --config "$CFG" --format stats >"$T/stats.txt" 2>&1 && grep -q "^bottleneck: " "$T/stats.txt" &&
  ok "stats of the running cluster: $(grep '^bottleneck:' "$T/stats.txt" | cut -d';' -f1)" || fail "timeline stats: $(cat "$T/stats.txt")"

# Prometheus at the scheduler: counters and stage histograms of the merged timeline, node gauges.
# HTTPS with mutual TLS (security.certs_dir): this client shows client.admin's certificate.
MURL=$(grep -o 'metrics at https\?://[^ )]*' "$LOGS/scheduler.log" | cut -d' ' -f3 || true)
if [ -n "$MURL" ] && python3 - "$MURL" "$T/certs" >"$T/metrics.check" 2>&1 <<'PY'
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
then ok "GET $MURL: $(cat "$T/metrics.check")"; else fail "metrics at '$MURL': $(cat "$T/metrics.check" 2>/dev/null)"; fi

# Memory: the scheduler's account never passed a budget (peak ≤ budget per node) ...
if timeout 30 "$ZK" status --config "$CFG" >"$T/nodes.txt" 2>&1; then
  python3 - "$T/nodes.txt" >"$T/nodes.check" 2>&1 <<'PY' && ok "memory account: $(cat "$T/nodes.check")" || fail "memory account: $(cat "$T/nodes.check") $(cat "$T/nodes.txt")"
import sys
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
assert len(rows) == 4, f"{len(rows)} nodes"
out = []
for r in rows:
    # node alive reserved(value unit) peak(value unit) budget(value unit) synth pipeline work
    peak, budget = float(r[4]) * unit[r[5]], float(r[6]) * unit[r[7]]
    assert r[1] == "yes", f"{r[0]}: alive {r[1]}"
    assert 0 < peak <= budget, f"{r[0]}: peak {peak} budget {budget}"
    out.append(f"{r[0]} peak {r[4]} {r[5]} of {r[6]} {r[7]}")
print("; ".join(out))
PY
else
  fail "zkfleet status --config: $(cat "$T/nodes.txt")"
fi
# ... and each synthesis process's resident memory grew by at most its buffer budget plus the
# working memory outside it (prove-mode synthesis writes straight into the buffer; what remains
# is the replica, the r1cs in CSR form, the witness file read): 16 MiB + 16 MiB here.
for name in synth-1 synth-2; do
  pid=$(node_pid "$name")
  if [ -z "$pid" ] || [ -z "${RSS0[$name]:-}" ]; then fail "$name: no process to measure"; continue; fi
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
  grow=$(( (hwm - RSS0[$name]) / 1024 ))
  [ "$grow" -le 32 ] && ok "$name: peak RSS $((hwm / 1024)) MiB, $grow MiB above its idle ${RSS0[$name]} KiB (budget 16 MiB + 16 MiB working)" ||
    fail "$name: peak RSS grew by $grow MiB (budget 16 MiB + 16 MiB working)"
done

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || fail "zkfleet down: $(cat "$T/down.log")"
wait_exit 10 "$UP" && ok "zkfleet up exited" || fail "zkfleet up still running"
alive=0
for p in $NODES; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ "$alive" = 0 ] && ok "every node process stopped" || fail "$alive node processes still running"

finish
