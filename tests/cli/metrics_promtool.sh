#!/usr/bin/env bash
# The scheduler's /metrics passes `promtool check metrics` (Prometheus's own linter of the text
# exposition format: names, HELP and TYPE lines, units, histogram series), before any job and
# after one: a loopback cluster (`zkfleet up`: a scheduler, a synthesis node, a prover; one
# process each) proves a 2-partition mulchain job, then the counter, the stage histograms and
# the node gauges are checked for their values too.
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
yaml_head "http: 127.0.0.1:0" "input_roots: [$FIX]"
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

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || fail "zkfleet down: $(cat "$T/down.log")"
wait "$UP" 2>/dev/null

finish
