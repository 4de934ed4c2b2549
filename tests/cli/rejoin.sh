#!/usr/bin/env bash
# A node that rejoins is one node (issue 27, item 1). A loopback cluster under `zkfleet up`
# (scheduler, synth-1, gpu-1, gpu-2; heartbeat 500ms, node_timeout 3s; plain HTTP on loopback):
#   1. gpu-1 is stopped (SIGSTOP) past the node timeout: the scheduler drops it; `zkfleet status`
#      shows it once, not alive;
#   2. it is continued (SIGCONT) and rejoins; 3. it is killed and `zkfleet up` restarts it;
# after each rejoin: `zkfleet status` has one row per node (with an alive column), /v1/nodes one
# entry per name, /metrics no two samples of one series, the dashboard (headless chromium) one row
# per node and NODES 4/4, a job still proves; and a real Prometheus server (Debian's, from
# .tools/prometheus or PATH; scripts/deps) scraping /metrics every second reports the target up,
# no scrape error, no duplicate samples (prometheus_target_scrapes_sample_duplicate_timestamp_total)
# and as many series stored as samples in its last scrape (Debian's 2.42 drops a second sample of a
# series silently: the stale one may win).
#
#   tests/cli/rejoin.sh path/to/zkfleet
#
# Without prometheus, or chromium, node and puppeteer-core, those checks are reported as skipped
# lines (the rest still runs); about 60 s on 2 cores. Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init rejoin "${1:-}"
PROMETHEUS="$(command -v prometheus || echo "$ROOT/.tools/prometheus/prometheus")"
PUPPETEER="$ROOT/.tools/node/node_modules/puppeteer-core"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
BROWSER=1
{ [ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ] && command -v node >/dev/null 2>&1 && [ -d "$PUPPETEER" ]; } || BROWSER=0

cluster_new cluster insecure
take_port HTTP
take_port PROM
BASE="http://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "input_roots: [$FIX]" "heartbeat: 500ms" "node_timeout: 3s"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 16MiB}"
for p in gpu-1 gpu-2; do
  yaml_node "$p" prover "resources: {memory_budget: 256MiB, prover_backend: cpu}, hot_circuits: [mulchain]"
done
NODES="synth-1 gpu-1 gpu-2"

cluster_up
wait_ready 60 4 || die "zkfleet up did not report ready"
ok "cluster ready: 4 nodes, HTTP at $BASE"
SL="$LOGS/scheduler.log"

# --- Prometheus, scraping /metrics every second from the start ---------------------------------
if [ -x "$PROMETHEUS" ]; then
  mkdir -p "$T/prom"
  cat >"$T/prom/prometheus.yml" <<YML
global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: zkfleet
    static_configs: [{targets: ["127.0.0.1:$HTTP"]}]
YML
  start_bg prometheus "$PROMETHEUS" --config.file="$T/prom/prometheus.yml" \
    --storage.tsdb.path="$T/prom/data" --web.listen-address="127.0.0.1:$PROM" --log.level=warn
  PROM_UP=1
  wait_url 30 "http://127.0.0.1:$PROM/-/ready" || { fail "prometheus did not start: $(tail -n 5 "$T/prometheus.log")"; PROM_UP=0; }
else
  echo "skipped: the Prometheus checks (no prometheus on PATH or in .tools/prometheus: scripts/deps)"
  PROM_UP=0
fi
# prom_self METRIC: the value of one of the Prometheus server's own metrics ("" when absent).
prom_self() {
  curl -s -m 5 "http://127.0.0.1:$PROM/metrics" | awk -v m="$1" '$1 == m {print $2}'
}
# prom_query EXPR: the value of an instant query's first sample ("" when none).
prom_query() {
  curl -s -m 5 "http://127.0.0.1:$PROM/api/v1/query" --data-urlencode "query=$1" |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
# prom_target: "health lastError" of the zkfleet target.
prom_target() {
  curl -s -m 5 "http://127.0.0.1:$PROM/api/v1/targets" |
    python3 -c 'import json,sys; t=json.load(sys.stdin)["data"]["activeTargets"]; print(" ".join(t[0]["health"] + " " + t[0]["lastError"] for t in [t]) if t else "none")'
}

# --- the counts ----------------------------------------------------------------------------------
STATUS_OUT="$T/status.out"
# alive_in_status NODE yes|no: zkfleet status lists NODE once, its alive column as given.
alive_in_status() {
  timeout 30 "$ZK" status --config "$CFG" >"$STATUS_OUT" 2>&1 || return 1
  [ "$(awk -v n="$1" '$1 == n' "$STATUS_OUT" | wc -l)" = 1 ] &&
    [ "$(awk -v n="$1" '$1 == n {print $2}' "$STATUS_OUT")" = "$2" ]
}

# counts LABEL: one row per node in status, /v1/nodes, /metrics, the dashboard; Prometheus clean.
counts() {
  local label="$1" n
  if timeout 30 "$ZK" status --config "$CFG" >"$STATUS_OUT" 2>&1; then
    head -n 1 "$STATUS_OUT" | grep -qw alive && ok "$label: zkfleet status has an alive column" ||
      fail "$label: no alive column: $(head -n 1 "$STATUS_OUT")"
    for n in $NODES; do
      local rows
      rows="$(awk -v n="$n" '$1 == n' "$STATUS_OUT")"
      if [ "$(printf '%s\n' "$rows" | grep -c .)" = 1 ] && [ "$(echo "$rows" | awk '{print $2}')" = yes ]; then
        ok "$label: zkfleet status lists $n once, alive"
      else
        fail "$label: zkfleet status rows of $n:"$'\n'"$(cat "$STATUS_OUT")"
      fi
    done
  else
    fail "$label: zkfleet status: $(cat "$STATUS_OUT")"
  fi
  if curl -s -m 10 "$BASE/v1/nodes" >"$T/nodes.json"; then
    python3 - "$T/nodes.json" $NODES >"$T/nodes.check" 2>&1 <<'PY'
import collections, json, sys
nodes = json.load(open(sys.argv[1]))["nodes"]
names = collections.Counter(n["name"] for n in nodes)
dup = {k: v for k, v in names.items() if v > 1}
assert not dup, "listed more than once: %s in %s" % (dup, nodes)
for want in sys.argv[2:]:
    n = [x for x in nodes if x["name"] == want]
    assert n and n[0].get("alive", True), "%s: %s" % (want, n)
print("%d entries, one per name, every node alive" % len(nodes))
PY
    [ $? = 0 ] && ok "$label: /v1/nodes: $(cat "$T/nodes.check")" || fail "$label: /v1/nodes: $(tail -n 1 "$T/nodes.check")"
  else
    fail "$label: GET /v1/nodes"
  fi
  if curl -s -m 10 "$BASE/metrics" >"$T/metrics.txt"; then
    python3 - "$T/metrics.txt" >"$T/metrics.check" 2>&1 <<'PY'
import collections, sys
series = collections.Counter(l.rsplit(" ", 1)[0] for l in open(sys.argv[1]).read().splitlines()
                             if l and not l.startswith("#"))
dup = sorted(k for k, v in series.items() if v > 1)
assert not dup, "series served more than once: %s" % dup
gpu1 = [k for k in series if 'node="gpu-1"' in k]
assert gpu1, "no series of gpu-1"
print("%d series, none twice (%d of gpu-1)" % (len(series), len(gpu1)))
PY
    [ $? = 0 ] && ok "$label: /metrics: $(cat "$T/metrics.check")" || fail "$label: /metrics: $(tail -n 1 "$T/metrics.check")"
  else
    fail "$label: GET /metrics"
  fi
  if [ "$BROWSER" = 1 ]; then
    local spec
    spec=$(printf '{"url": "%s/", "chromium": "%s", "puppeteer": "%s", "timeout_s": 45}' "$BASE" "$CHROMIUM" "$PUPPETEER")
    if timeout 120 node "$ROOT/tests/dashboard/nodes.js" "$spec" >"$T/dash.json" 2>"$T/dash.err"; then
      python3 - "$T/dash.json" scheduler $NODES >"$T/dash.check" 2>&1 <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
names = collections.Counter(d["nodes"])
dup = {k: v for k, v in names.items() if v > 1}
assert not dup, "rows more than once: %s" % dup
for want in sys.argv[2:]:
    assert names[want] == 1, "%s: %d rows" % (want, names[want])
assert not d["lost"], "rows shown lost: %s" % d["lost"]
assert d["count"] == "%d/%d" % (len(sys.argv) - 2, len(sys.argv) - 2), "NODES %s" % d["count"]
assert not d["errors"], "page errors: %s" % d["errors"]
print("rows %s, NODES %s" % (sorted(names), d["count"]))
PY
      [ $? = 0 ] && ok "$label: dashboard (chromium): $(cat "$T/dash.check")" || fail "$label: dashboard: $(tail -n 1 "$T/dash.check") ($(cat "$T/dash.json"))"
    else
      fail "$label: dashboard: $(cat "$T/dash.err")"
    fi
  else
    echo "skipped: $label: the dashboard check (chromium, node or puppeteer-core missing: scripts/deps)"
  fi
  if [ "$PROM_UP" = 1 ]; then
    sleep 3  # three scrapes of the current state (the passing of time is what is tested)
    local dup target
    dup="$(prom_self prometheus_target_scrapes_sample_duplicate_timestamp_total)"
    target="$(prom_target)"
    [ "$dup" = 0 ] && ok "$label: prometheus: no duplicate samples in any scrape so far" ||
      fail "$label: prometheus: prometheus_target_scrapes_sample_duplicate_timestamp_total '$dup'"
    [ "$target" = "up " ] && ok "$label: prometheus: the target is up, no scrape error" ||
      fail "$label: prometheus target: '$target'"
    # Prometheus 2.42 keeps the first of two samples of one series in a scrape and says nothing
    # (newer ones count it above): every sample of the last scrape must be a series of its own.
    local scraped stored
    scraped="$(prom_query 'scrape_samples_scraped{job="zkfleet"}')"
    stored="$(prom_query 'count({job="zkfleet", __name__!~"up|scrape_.*"})')"
    [ -n "$scraped" ] && [ "$scraped" = "$stored" ] &&
      ok "$label: prometheus: the last scrape's $scraped samples are $stored series" ||
      fail "$label: prometheus: the last scrape had $scraped samples but they make $stored series (samples of one series twice)"
  fi
}

# job LABEL: a 2-partition job proves (the cluster works with the rejoined node).
job() {
  local id
  id=$(timeout 30 "$ZK" submit --config "$CFG" --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 2 2>"$T/submit.err")
  if [ -n "$id" ] && timeout 120 "$ZK" await --config "$CFG" "$id" --out "$T/proofs" --timeout 100 >"$T/await.log" 2>&1; then
    ok "$1: a 2-partition job proves"
  else
    fail "$1: job: $(cat "$T/submit.err" "$T/await.log" 2>/dev/null)"
  fi
}

counts "start"

# 1. SIGSTOP past the node timeout
pid=$(node_pid gpu-1)
from=$(lines "$SL")
kill -STOP "$pid"
wait_log 20 "$SL" "node gpu-1 lost" "$from" && ok "gpu-1 stopped (SIGSTOP): dropped by the scheduler" ||
  fail "the stopped gpu-1 was never dropped: $(tail -n 3 "$SL")"
wait_until 10 "zkfleet status: gpu-1 once, not alive" alive_in_status gpu-1 no &&
  ok "while stopped: zkfleet status lists gpu-1 once, alive no" || fail "while stopped: $(cat "$STATUS_OUT")"
# 2. SIGCONT: it rejoins
from=$(lines "$SL")
kill -CONT "$pid"
wait_log 40 "$SL" "node gpu-1 joined" "$from" && ok "gpu-1 continued (SIGCONT) and rejoined" ||
  fail "gpu-1 did not rejoin: $(tail -n 5 "$LOGS/gpu-1.log")"
wait_until 10 "zkfleet status: gpu-1 alive" alive_in_status gpu-1 yes
counts "after SIGSTOP/SIGCONT"
job "after SIGSTOP/SIGCONT"
# 3. a restart
pid=$(node_pid gpu-1)
from=$(lines "$SL")
kill -9 "$pid"
wait_log 40 "$SL" "node gpu-1 joined" "$from" && ok "gpu-1 killed, restarted by up, rejoined" ||
  fail "gpu-1 did not come back: $(tail -n 5 "$UP_LOG")"
wait_until 10 "zkfleet status: gpu-1 alive" alive_in_status gpu-1 yes
counts "after a restart"
job "after a restart"

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || fail "zkfleet down: $(cat "$T/down.log")"
wait "$UP" 2>/dev/null
finish
