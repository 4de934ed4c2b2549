#!/usr/bin/env bash
# The live dashboard in a real browser: a loopback cluster under `zkfleet up` (a scheduler serving
# HTTP on loopback, two synthesis nodes, two provers; security.insecure), headless chromium driven
# by puppeteer-core (tests/dashboard/dashboard.js) at http://127.0.0.1:PORT/:
#   - a page loaded on the idle cluster lists every node of the config;
#   - jobs of two circom circuits are submitted; a second page loads while they run; both pages
#     follow the run over /v1/events, with no reload, until every job is done and every partition
#     (by the jobs' seq numbers from `zkfleet status`) has its SYNTH and GPU bars and its DONE mark;
#   - the proofs are awaited and checked (zkfleet verify); a fresh page shows every node, every
#     partition's bars, #bottleneck is the verdict of /v1/stats, hovering a bar shows its stage,
#     node and duration, the wheel zooms, a drag pans, a double-click returns to the live window;
#   - no error in any page; a screenshot (SCREENSHOT, default the test's folder, removed after).
#
#   tests/dashboard/dashboard.sh path/to/zkfleet [SCREENSHOT.png]
#
# chromium (CHROMIUM, else chromium on PATH), node and puppeteer-core (.tools/node, scripts/deps)
# are needed; without one the test says which and exits 77 (CTest: skipped). Every wait is
# bounded; about 30 s on 2 cores. Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init dashboard "${1:-}"
SHOT="${2:-}"
PUPPETEER="$ROOT/.tools/node/node_modules/puppeteer-core"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$CHROMIUM" ] || [ ! -x "$CHROMIUM" ]; then
  skip "chromium not found (Debian's chromium package; scripts/deps installs it, or set CHROMIUM)"
fi
command -v node >/dev/null 2>&1 || skip "node not found (scripts/deps installs it)"
[ -d "$PUPPETEER" ] || skip "puppeteer-core not installed in .tools/node (scripts/deps --npm installs it)"

cluster_new cluster insecure  # loopback only: plain HTTP, every request acts as admin
take_port HTTP
URL="http://127.0.0.1:$HTTP/"
yaml_head "http: 127.0.0.1:$HTTP" "lookahead: 1" "input_roots: [$FIX]"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_circuit poseidon poseidon "shape: witness_only"
yaml_node scheduler scheduler
for s in synth-1 synth-2; do yaml_node "$s" synth "resources: {cores: 1, memory_budget: 16MiB}"; done
for p in prover-1 prover-2; do
  yaml_node "$p" prover "resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}, hot_circuits: [mulchain, poseidon]"
done

start=$(date +%s)
cluster_up
wait_ready 60 5 || die "zkfleet up did not report ready"
ok "zkfleet up: 5 nodes, HTTP at $URL"

# The browser, with its own timeline of the run (dashboard.js says what each step checks).
SPEC=$(printf '{"url": "%s", "chromium": "%s", "puppeteer": "%s", "dir": "%s", "timeout_s": 90,
  "nodes": ["scheduler", "synth-1", "synth-2", "prover-1", "prover-2"], "screenshot": "%s"}' \
  "$URL" "$CHROMIUM" "$PUPPETEER" "$T" "${SHOT:-$T/dashboard.png}")
start_bg browser timeout 300 node "$ROOT/tests/dashboard/dashboard.js" "$SPEC"
BROWSER=$BG
written_or_gone() { [ -e "$T/$1" ] || ! kill -0 "$BROWSER" 2>/dev/null; }
wait_file() {  # wait_file NAME SECONDS: until the browser writes $T/NAME (false if it exits first)
  wait_until "$2" "$1 from dashboard.js" written_or_gone "$1" && [ -e "$T/$1" ]
}
browser_done() {
  wait "$BROWSER"
  local rc=$?
  cat "$T/browser.log"
  H_PASSED=$((H_PASSED + $(grep -c '^ok: ' "$T/browser.log")))
  H_FAILED=$((H_FAILED + $(grep -c '^FAIL: ' "$T/browser.log")))
  [ "$rc" = 0 ] || grep -q '^FAIL: ' "$T/browser.log" || fail "dashboard.js exited with status $rc"
}
if ! wait_file ready 90; then
  fail "the first page did not fill"; browser_done; finish
fi

# The jobs, while page 1 is open; their seq numbers (the timeline's job numbers) from status.
declare -A PARTS=()
JOBS=()
for c in "mulchain 16" "poseidon 8" "mulchain 16"; do  # 40 proofs: a few seconds of work
  set -- $c
  id=$(timeout 30 "$ZK" submit --config "$CFG" --circuit "$1" --input "$FIX/$1/witness.wtns" --partitions "$2")
  [ -n "$id" ] || { fail "submit $1"; continue; }
  JOBS+=("$id")
  PARTS[$id]="$2 $1"
done
list=""
for id in "${JOBS[@]}"; do
  seq=""
  for _ in 1 2 3; do  # a loaded machine may time the greeting out: ask again
    seq=$(timeout 30 "$ZK" status --config "$CFG" "$id" | sed -n '1s/^job [0-9a-f]* (#\([0-9]*\),.*/\1/p')
    [ -n "$seq" ] && break
  done
  [ -n "$seq" ] || fail "no seq number for job $id in zkfleet status"
  set -- ${PARTS[$id]}
  list="$list${list:+, }{\"seq\": ${seq:-0}, \"partitions\": $1}"
done
echo "{\"jobs\": [$list]}" >"$T/submitted.tmp" && mv "$T/submitted.tmp" "$T/submitted"
ok "submitted ${#JOBS[@]} jobs while the page was open: $list"

wait_file live 120 || fail "the pages did not follow the run"
n=0
total=0
for id in "${JOBS[@]}"; do
  set -- ${PARTS[$id]}
  total=$((total + $1))
  if timeout 120 "$ZK" await --config "$CFG" "$id" --out "$T/proofs" --timeout 100 >"$T/await.log" 2>&1; then
    for k in $(seq 0 $(($1 - 1))); do
      p="$T/proofs/job$id-p$k"
      "$ZK" verify "$FIX/$2/verification_key.json" "$p-public.json" "$p-proof.json" >/dev/null 2>&1 && n=$((n + 1))
    done
  else
    fail "await $id: $(cat "$T/await.log")"
  fi
done
[ "$n" = 40 ] && [ "$total" = 40 ] && ok "40 of 40 proofs valid (zkfleet verify)" || fail "$n of $total proofs valid (40 submitted)"
touch "$T/awaited"
browser_done
[ -z "$SHOT" ] || [ -s "$SHOT" ] || fail "no screenshot at $SHOT"

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || fail "zkfleet down: $(cat "$T/down.log")"
wait "$UP" 2>/dev/null
echo "$(($(date +%s) - start)) s"
finish
