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
set -uo pipefail
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SHOT="${2:-}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIX="$ROOT/tests/fixtures/bn254"
PUPPETEER="$ROOT/.tools/node/node_modules/puppeteer-core"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$CHROMIUM" ] || [ ! -x "$CHROMIUM" ]; then
  echo "SKIP: chromium not found (Debian's chromium package; scripts/deps installs it, or set CHROMIUM)"
  exit 77
fi
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node not found (scripts/deps installs it)"; exit 77; fi
if [ ! -d "$PUPPETEER" ]; then
  echo "SKIP: puppeteer-core not installed in .tools/node (scripts/deps --npm installs it)"
  exit 77
fi

T="$(mktemp -d /tmp/zk_dashboard_XXXXXX)"
B=$((20000 + RANDOM % 20000))  # ports B..B+5
CFG="$T/cluster.yaml"
URL="http://127.0.0.1:$((B + 5))/"
UP=""
BROWSER=""
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
cleanup() {
  [ -n "$BROWSER" ] && kill "$BROWSER" 2>/dev/null
  if [ -n "$UP" ] && kill -0 "$UP" 2>/dev/null; then
    timeout 30 "$ZK" down --config "$CFG" >/dev/null 2>&1 || kill "$UP" 2>/dev/null
    wait "$UP" 2>/dev/null
  fi
  rm -rf "$T" "/tmp/zkfleet-up-$B".*
}
trap cleanup EXIT
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit
}
logs() {
  echo "--- up:"; tail -n 20 "$T/up.log"
  for f in "/tmp/zkfleet-up-$B.logs"/*.log; do [ -f "$f" ] && { echo "--- $f:"; tail -n 15 "$f"; }; done
}

cat >"$CFG" <<EOF
version: 1
scheduler:
  endpoint: 127.0.0.1:$B
  http: 127.0.0.1:$((B + 5))
  lookahead: 1
  input_roots: [$FIX]
security:
  insecure: true                  # loopback only: plain HTTP, every request acts as admin
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
    listen: {control: 127.0.0.1:$B}
  - name: synth-1
    roles: [synth]
    listen: {data: 127.0.0.1:$((B + 1))}
    resources: {cores: 1, memory_budget: 16MiB}
  - name: synth-2
    roles: [synth]
    listen: {data: 127.0.0.1:$((B + 2))}
    resources: {cores: 1, memory_budget: 16MiB}
  - name: prover-1
    roles: [prover]
    listen: {data: 127.0.0.1:$((B + 3))}
    resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}
    hot_circuits: [mulchain, poseidon]
  - name: prover-2
    roles: [prover]
    listen: {data: 127.0.0.1:$((B + 4))}
    resources: {cores: 1, memory_budget: 256MiB, prover_backend: cpu}
    hot_circuits: [mulchain, poseidon]
EOF

start=$(date +%s)
"$ZK" up --config "$CFG" >"$T/up.log" 2>&1 &
UP=$!
for _ in $(seq 1 300); do
  grep -q "cluster ready" "$T/up.log" && break
  kill -0 "$UP" 2>/dev/null || break
  sleep 0.2
done
if grep -q "cluster ready: 5 nodes" "$T/up.log"; then ok "zkfleet up: 5 nodes, HTTP at $URL"; else
  bad "zkfleet up did not report ready"; logs; finish
fi

# The browser, with its own timeline of the run (dashboard.js says what each step checks).
SPEC=$(printf '{"url": "%s", "chromium": "%s", "puppeteer": "%s", "dir": "%s", "timeout_s": 90,
  "nodes": ["scheduler", "synth-1", "synth-2", "prover-1", "prover-2"], "screenshot": "%s"}' \
  "$URL" "$CHROMIUM" "$PUPPETEER" "$T" "${SHOT:-$T/dashboard.png}")
timeout 300 node "$ROOT/tests/dashboard/dashboard.js" "$SPEC" >"$T/browser.log" 2>&1 &
BROWSER=$!
wait_file() {  # wait_file NAME SECONDS: until the browser writes $T/NAME (or exits)
  for _ in $(seq 1 $(($2 * 10))); do
    [ -e "$T/$1" ] && return 0
    kill -0 "$BROWSER" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
browser_done() {
  wait "$BROWSER"
  local rc=$?
  BROWSER=""
  cat "$T/browser.log"
  pass=$((pass + $(grep -c '^ok ' "$T/browser.log")))
  fail=$((fail + $(grep -c '^FAIL ' "$T/browser.log")))
  [ "$rc" = 0 ] || grep -q '^FAIL ' "$T/browser.log" || bad "dashboard.js exited with status $rc"
}
if ! wait_file ready 90; then
  bad "the first page did not fill"; browser_done; logs; finish
fi

# The jobs, while page 1 is open; their seq numbers (the timeline's job numbers) from status.
declare -A PARTS=()
JOBS=()
for c in "mulchain 16" "poseidon 8" "mulchain 16"; do  # 40 proofs: a few seconds of work
  set -- $c
  id=$(timeout 30 "$ZK" submit --config "$CFG" --circuit "$1" --input "$FIX/$1/witness.wtns" --partitions "$2")
  [ -n "$id" ] || { bad "submit $1"; continue; }
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
  [ -n "$seq" ] || bad "no seq number for job $id in zkfleet status"
  set -- ${PARTS[$id]}
  list="$list${list:+, }{\"seq\": ${seq:-0}, \"partitions\": $1}"
done
echo "{\"jobs\": [$list]}" >"$T/submitted.tmp" && mv "$T/submitted.tmp" "$T/submitted"
ok "submitted ${#JOBS[@]} jobs while the page was open: $list"

wait_file live 120 || bad "the pages did not follow the run"
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
    bad "await $id: $(cat "$T/await.log")"
  fi
done
[ "$n" = 40 ] && [ "$total" = 40 ] && ok "40 of 40 proofs valid (zkfleet verify)" || bad "$n of $total proofs valid (40 submitted)"
touch "$T/awaited"
browser_done
[ -z "$SHOT" ] || [ -s "$SHOT" ] || bad "no screenshot at $SHOT"

timeout 60 "$ZK" down --config "$CFG" >"$T/down.log" 2>&1 && ok "zkfleet down" || bad "zkfleet down: $(cat "$T/down.log")"
wait "$UP" 2>/dev/null
UP=""
echo "$(($(date +%s) - start)) s"
[ "$fail" = 0 ] || logs
finish
