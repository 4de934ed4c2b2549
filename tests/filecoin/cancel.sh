#!/usr/bin/env bash
# Cancel stops the work (issue 33 item 2, CTest filecoin/cancel): a loopback cluster (scheduler
# with HTTP, a synthesis node, a prover with zkfleet's 2 KiB development parameters resident —
# `zkfleet filecoin setup --seed 1`, cached as tests/filecoin/c2_dev.sh makes them) proves a
# sector's C2; `zkfleet cancel` while its partition proves:
#   * the prover stops that proof within a bound (its log: "proof stopped"), well before the
#     proof would have ended (the next job's proof is timed: the bound must be well inside it);
#   * the timeline marks it (a CANCELLED instant on the prover), /metrics counts no GPU stage for
#     it (GPU stages = proofs) and the partition as stopped, the prover's reservation is released;
#   * the next job proves at once (it does not wait behind the cancelled proof);
#   * the scheduler logs one info line per submission, cancel and job end, no client logins.
#
#   tests/filecoin/cancel.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_cancel "${1:-}"
. "$(dirname "${BASH_SOURCE[0]}")/dev_sector.sh"
command -v curl >/dev/null || skip "curl is not installed"
now() { date +%s.%N; }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }

dev_sector 3

cluster_new cancel insecure
take_port HTTP
U="http://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "stage_timeout: 10m"
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node prover-1 prover "resources: {cores: 2, memory_budget: 4GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS}"
cluster_up
wait_ready 900 || die "the cluster did not become ready"
PLOG="$LOGS/prover-1.log"

submit() {
  "$ZK" submit --config "$CFG" --circuit fc2k --c1 "$C1" --prover-id "$PROVER" --sector "$SECTOR" \
    2>>"$T/submit.err" || die "zkfleet submit: $(cat "$T/submit.err")"
}
# The timeline's events of a stage and phase for a job ("GPU begin 3").
has_event() {
  curl -s -m 10 "$U/v1/timeline" -o "$T/tl.json" &&
    python3 - "$T/tl.json" "$@" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
st, ph, job = sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.exit(0 if any(e["stage"] == st and e["phase"] == ph and e["job"] == job for e in ev) else 1)
EOF
}
# A job's field from GET /v1/jobs/ID: seq (its number in the logs and the timeline) or the first
# partition's state.
job_field() {
  curl -s -m 10 "$U/v1/jobs/$1" | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["seq"] if sys.argv[1] == "seq" else j["partitions"][0]["state"])' "$2" 2>/dev/null
}
proving() { [ "$(job_field "$1" state)" = proving ]; }
metric() { curl -s -m 10 "$U/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }

# --- a job cancelled while its partition proves -------------------------------------------------
J2="$(submit)"
S2="$(job_field "$J2" seq)"
POLL=0.2 wait_until 600 "job $J2's proof to start" proving "$J2" || die "job $J2 never reached the prover"
sleep 1  # well inside the proof
from=$(($(lines "$PLOG") + 1))
t_cancel="$(now)"
"$ZK" cancel --config "$CFG" "$J2" >"$T/cancel.out" 2>&1 || die "zkfleet cancel: $(cat "$T/cancel.out")"
BOUND=3
if wait_log 60 "$PLOG" "job $S2 .*proof stopped" "$from" >/dev/null; then
  took="$(secs "$t_cancel" "$(now)")"
  if python3 -c "import sys; sys.exit(0 if float('$took') <= $BOUND else 1)"; then
    ok "the prover stopped job $J2's proof $took s after the cancel (bound $BOUND s): $(grep "job $S2 .*proof stopped" "$PLOG" | tail -n 1)"
  else
    fail "the prover stopped job $J2's proof only $took s after the cancel (bound $BOUND s)"
  fi
else
  fail "the prover never said it stopped job $J2's proof: $(tail -n 5 "$PLOG")"
fi

# --- the next job proves at once, in the time a whole proof takes ------------------------------
J3="$(submit)"
S3="$(job_field "$J3" seq)"
t3="$(now)"
"$ZK" await --config "$CFG" "$J3" --out "$T/out" --timeout 900 >"$T/await3.out" 2>&1 ||
  die "zkfleet await $J3: $(cat "$T/await3.out")"
ok "job $J3 proved $(secs "$t3" "$(now)") s after its submit: $(cat "$T/await3.out")"
sleep 3  # the timeline's batches
PROVE_S="$(curl -s -m 10 "$U/v1/timeline" | python3 -c '
import json, sys
ev = [e for e in json.load(sys.stdin)["events"] if e["stage"] == "GPU" and e["job"] == '"$S3"']
b = min(e["t_ns"] for e in ev if e["phase"] == "begin"); e = max(e["t_ns"] for e in ev if e["phase"] == "end")
print(f"{(e - b) / 1e9:.2f}")')"
if python3 -c "import sys; sys.exit(0 if float('$PROVE_S') > 2 * $BOUND else 1)"; then
  ok "a whole proof takes $PROVE_S s here: the cancel's bound ($BOUND s) is well inside it"
else
  fail "a whole proof takes only $PROVE_S s here: the cancel's bound ($BOUND s) says nothing"
fi

# --- the timeline marks the cancel; /metrics counts no prove stage for it ---------------------
if has_event CANCELLED instant "$S2"; then ok "the timeline marks job $J2's cancel (CANCELLED)"; else fail "no CANCELLED mark for job $J2 in the timeline"; fi
proofs="$(metric zkfleet_proofs_total)"
gpu="$(metric 'zkfleet_stage_duration_seconds_count{stage="GPU"}')"
stopped="$(metric zkfleet_partitions_stopped_total)"
if [ "$proofs" = 1 ] && [ "$gpu" = 1 ] && [ "$stopped" = 1 ]; then
  ok "/metrics: $proofs proofs, $gpu GPU stages, $stopped partition stopped"
else
  fail "/metrics: proofs $proofs, GPU stages $gpu, stopped ${stopped:-none} (expected 1, 1, 1)"
fi
# --- the scheduler's log: one info line per submission, cancel and job end; no client logins -----
SLOG="$LOGS/scheduler.log"
for want in "job $S2 ($J2) submitted: circuit fc2k, 1 partition, client admin" \
  "job $S2 ($J2, circuit fc2k, client admin) cancelled" \
  "job $S2 ($J2, circuit fc2k, client admin) ended: cancelled" \
  "job $S3 ($J3) submitted: circuit fc2k, 1 partition, client admin" \
  "job $S3 ($J3, circuit fc2k, client admin) done: 1 partition proved"; do
  n="$(grep -cF -- "$want" "$SLOG")"
  if [ "$n" = 1 ]; then ok "scheduler log: $want"; else fail "scheduler log has $n lines '$want'"; fi
done
if grep -q 'client admin logged in' "$SLOG"; then
  fail "the scheduler logs each command line's login at info: $(grep -c 'client admin logged in' "$SLOG") lines"
else
  ok "no 'client admin logged in' line per command at info"
fi
if grep -qE '\(1 partitions,' "$T/await3.out"; then fail "await: $(cat "$T/await3.out")"; else ok "await says 1 partition"; fi
reserved="$(curl -s -m 10 "$U/metrics" | awk '$1 == "zkfleet_node_reserved_bytes{node=\"prover-1\"}" { print $2 }')"
if [ "$reserved" = 0 ]; then ok "prover-1 holds no reservation after the cancel"; else fail "prover-1 still holds ${reserved:-?} bytes reserved"; fi
finish
