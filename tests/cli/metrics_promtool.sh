#!/usr/bin/env bash
# The scheduler's /metrics passes `promtool check metrics` (Prometheus's own linter of the text
# exposition format: names, HELP and TYPE lines, units, histogram series), before any job and
# after one: a loopback cluster (`zkfleet up`: a scheduler, a synthesis node, a prover; one
# process each) proves a 2-partition mulchain job, then the counter, the stage histograms and
# the node gauges are checked for their values too; then a refused submission, a cancelled job
# and a failed one, and their counters by circuit and reason.
#
#   tests/cli/metrics_promtool.sh path/to/zkfleet
#
# promtool: on PATH, else .tools/prometheus/promtool (scripts/deps puts it there). Without it the
# test says so and exits 77, which CTest reports as skipped. Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init metrics_promtool "${1:-}"
PROMTOOL="$(command -v promtool || echo "$ROOT/.tools/prometheus/promtool")"
[ -x "$PROMTOOL" ] || skip "promtool not found (on PATH or in .tools/prometheus; scripts/deps installs it)"

# Loopback without certificates: the HTTP endpoint is plain HTTP on a port of its own (0: any
# free one; the scheduler's log names it).
cluster_new cluster insecure
yaml_head "http: 127.0.0.1:0" "input_roots: [$FIX, $T]"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 16MiB}"
yaml_node prover-1 prover "resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}, hot_circuits: [mulchain]"

cluster_up
wait_ready 60 3 || die "zkfleet up did not report ready"
URL="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$LOGS/scheduler.log" | head -n1)/metrics"
[ "$URL" != /metrics ] && ok "cluster ready, metrics at $URL" || fail "no metrics address in the scheduler's log"

# fetch <file>: GET the metrics into file (python3: no curl needed).
fetch() {
  python3 - "$URL" "$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=20) as r:
    assert r.status == 200, r.status
    assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4"), r.headers["Content-Type"]
    open(sys.argv[2], "wb").write(r.read())
PY
}

# lint <name> <file>: promtool check metrics reads the exposition text on stdin; any lint
# problem is printed and makes it exit non-zero.
lint() {
  if "$PROMTOOL" check metrics <"$2" >"$T/promtool.out" 2>&1; then
    ok "$1: promtool check metrics passes ($(grep -c '^[a-z]' "$2") samples, $(grep -c '^# TYPE' "$2") metrics)"
  else
    fail "$1: promtool check metrics: $(cat "$T/promtool.out")"
    sed 's/^/  | /' "$2"
  fi
}

if fetch "$T/idle.txt" 2>"$T/fetch.err"; then lint "before any job" "$T/idle.txt"; else fail "GET $URL: $(cat "$T/fetch.err")"; fi

J=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 2 2>"$T/submit.err")
if [ -n "$J" ] && timeout 120 "$ZK" await --config "$CFG" "$J" --out "$T/proofs" --timeout 100 >"$T/await.log" 2>&1; then
  ok "job $J: 2 partitions proven"
else
  fail "job: $(cat "$T/submit.err" "$T/await.log" 2>/dev/null)"
fi

# The proofs reach the aggregator's counter with the nodes' next timeline report: poll briefly.
counted() { fetch "$T/busy.txt" 2>"$T/fetch.err" && grep -q '^zkfleet_proofs_total 2$' "$T/busy.txt"; }
wait_until 10 "zkfleet_proofs_total 2 at $URL" counted
if [ -s "$T/busy.txt" ]; then
  lint "after a job" "$T/busy.txt"
  if python3 - "$T/busy.txt" >"$T/values.txt" 2>&1 <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
samples = {}
for l in lines:
    if l and not l.startswith("#"):
        name, value = l.rsplit(" ", 1)
        samples[name] = float(value)
assert samples.get("zkfleet_proofs_total") == 2, "zkfleet_proofs_total: %s" % samples.get("zkfleet_proofs_total")
for stage in ("SYNTH", "GPU"):
    n = samples.get('zkfleet_stage_duration_seconds_count{stage="%s"}' % stage)
    assert n and n >= 2, "%s count %s" % (stage, n)
    assert samples['zkfleet_stage_duration_seconds_bucket{stage="%s",le="+Inf"}' % stage] == n
for node in ("synth-1", "prover-1"):
    for m in ("reserved_bytes", "peak_reserved_bytes", "budget_bytes", "synthesizing", "pipeline"):
        assert 'zkfleet_node_%s{node="%s"}' % (m, node) in samples, "zkfleet_node_%s of %s" % (m, node)
print("zkfleet_proofs_total 2; SYNTH and GPU histograms; 5 gauges for each of synth-1 and prover-1")
PY
  then ok "values: $(cat "$T/values.txt")"; else fail "values: $(cat "$T/values.txt")"; sed 's/^/  | /' "$T/busy.txt"; fi
else
  fail "GET $URL after the job: $(cat "$T/fetch.err")"
fi

# The jobs that end without proofs, counted by circuit and a reason of a fixed set: a circuit the
# scheduler does not have (refused; its name is no label), a job cancelled, a witness that does
# not satisfy the circuit (one byte of its last value changed: the synthesis node fails it).
timeout 30 "$ZK" submit --config "$CFG" --circuit no-such-circuit --input "$FIX/mulchain/witness.wtns" \
  >/dev/null 2>"$T/refused.err" && fail "an unknown circuit was taken" || ok "an unknown circuit refused"
C=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 32 2>"$T/submit2.err")
[ -n "$C" ] && timeout 30 "$ZK" cancel --config "$CFG" "$C" >"$T/cancel.log" 2>&1 &&
  ok "job $C cancelled" || fail "cancel: $(cat "$T/submit2.err" "$T/cancel.log" 2>/dev/null)"
python3 - "$FIX/mulchain/witness.wtns" "$T/bad.wtns" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) - 32] ^= 1  # the last value's lowest byte: still a field element, no longer a solution
open(sys.argv[2], "wb").write(b)
PY
B=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$T/bad.wtns" 2>"$T/submit3.err")
if [ -n "$B" ] && ! timeout 120 "$ZK" await --config "$CFG" "$B" --timeout 100 >"$T/await3.log" 2>&1 &&
  grep -q "does not satisfy" "$T/await3.log"; then
  ok "job $B failed: the witness does not satisfy the circuit"
else
  fail "the bad witness: $(cat "$T/submit3.err" "$T/await3.log" 2>/dev/null)"
fi
if fetch "$T/ends.txt" 2>"$T/fetch.err"; then
  lint "after a refusal, a cancel and a failure" "$T/ends.txt"
  if python3 - "$T/ends.txt" >"$T/ends.out" 2>&1 <<'PY'
import sys
samples = {}
for l in open(sys.argv[1]).read().splitlines():
    if l and not l.startswith("#"):
        name, value = l.rsplit(" ", 1)
        samples[name] = float(value)
want = {
    'zkfleet_jobs_refused_total{circuit="(unknown)",reason="unknown_circuit"}': 1,
    'zkfleet_jobs_cancelled_total{circuit="mulchain"}': 1,
    'zkfleet_jobs_failed_total{circuit="mulchain",reason="bad_input"}': 1,
}
for k, v in want.items():
    assert samples.get(k) == v, "%s: %s" % (k, samples.get(k))
ends = sorted(k for k in samples if k.startswith("zkfleet_jobs_"))
assert len(ends) == 3, "more than these three: %s" % ends
print("; ".join("%s %d" % (k, v) for k, v in want.items()))
PY
  then ok "$(cat "$T/ends.out")"; else fail "job counts: $(cat "$T/ends.out")"; sed 's/^/  | /' "$T/ends.txt"; fi
else
  fail "GET $URL: $(cat "$T/fetch.err")"
fi

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || fail "zkfleet down: $(cat "$T/down.log")"
wait "$UP" 2>/dev/null

finish
