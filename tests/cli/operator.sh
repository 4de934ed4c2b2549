#!/usr/bin/env bash
# What an operator reaches for on a running cluster (issue 27): a loopback cluster under
# `zkfleet up` (scheduler, synth-1, gpu-1; plain HTTP on loopback), driven by the CLI and curl:
#   - `zkfleet jobs` lists jobs with their number and id; every command and route that takes a
#     job takes either (`status 7`, `status '#7'`, `await job7`, GET /v1/jobs/7);
#   - a witness that does not satisfy the circuit fails its job once, at synthesis, with "the
#     witness does not satisfy the circuit (constraint N …)": no retry, no prover time (abc+witness
#     and witness-only buffers);
#   - `await` on a job cancelled mid-way writes the proofs that finished, then exits 1;
#   - `zkfleet drain gpu-1`: it finishes its work and takes no more (a new job waits, saying why;
#     status says draining, then drained); `zkfleet undrain gpu-1`: the job proves;
#   - `zkfleet retry JOB`: a job failed by a witness generator that failed is retried and proves;
#   - `zkfleet priority JOB P` on a queued job (CLI and POST /v1/jobs/ID/priority);
#   - GET /v1/jobs/ID?wait=S blocks until the job finishes, or S seconds (bounded), then answers.
#
#   tests/cli/operator.sh path/to/zkfleet
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init operator "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"

cluster_new cluster insecure
take_port HTTP
U="http://127.0.0.1:$HTTP"
FLAG="$T/generator-may-run"
yaml_head "http: 127.0.0.1:$HTTP" "input_roots: [$FIX, $T]" "lookahead: 1" "max_attempts: 2"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_circuit mulchain-wo mulchain "shape: witness_only"
# A witness generator that fails until $FLAG exists (then copies the fixture's witness).
yaml_circuit flaky mulchain "witness_generator: [sh, -c, 'test -e $FLAG && cp $FIX/mulchain/witness.wtns \"\$2\"', gen, '{input}', '{output}']"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 16MiB}"
yaml_node gpu-1 prover "resources: {memory_budget: 256MiB, prover_backend: cpu}, hot_circuits: [mulchain, flaky]"

cluster_up
wait_ready 60 3 || die "zkfleet up did not report ready"
ok "cluster ready: 3 nodes"
SL="$LOGS/scheduler.log"

submit() {  # submit ARGS...: a job's id on stdout
  timeout 30 "$ZK" submit --config "$CFG" "$@" 2>>"$T/submit.err"
}
seq_of() {  # seq_of ID: the job's number, from zkfleet jobs
  timeout 30 "$ZK" jobs --config "$CFG" | awk -v id="$1" '$2 == id {print $1}'
}
state_of() {  # state_of JOB: its state column in zkfleet jobs (JOB: id)
  timeout 30 "$ZK" jobs --config "$CFG" | awk -v id="$1" '$2 == id {print $3}'
}
call() {  # call NAME ARGS...: curl; status in $T/NAME.code, body in $T/NAME.body
  local name="$1"
  shift
  curl -s -m 120 -o "$T/$name.body" -w '%{http_code}' "$@" >"$T/$name.code" 2>"$T/$name.err"
}
code() { cat "$T/$1.code" 2>/dev/null; }
json() { python3 -c "import json,sys; d=json.load(open('$T/$1.body')); print($2)"; }

# --- 1. the job list; the number and the id --------------------------------------------------
J=$(submit --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 2)
[ -n "$J" ] || die "submit: $(cat "$T/submit.err")"
timeout 120 "$ZK" await --config "$CFG" "$J" --out "$T/p1" --timeout 100 >"$T/await1.log" 2>&1 ||
  fail "await $J: $(cat "$T/await1.log")"
timeout 30 "$ZK" jobs --config "$CFG" >"$T/jobs.out" 2>&1 || fail "zkfleet jobs: $(cat "$T/jobs.out")"
N=$(seq_of "$J")
if [ -n "$N" ] && head -n 1 "$T/jobs.out" | grep -Eq '^# +id +state' && [ "$(state_of "$J")" = done ]; then
  ok "zkfleet jobs: job #$N, id $J, done"
else
  fail "zkfleet jobs: $(cat "$T/jobs.out")"
fi
for form in "$N" "#$N" "job$N"; do
  if timeout 30 "$ZK" status --config "$CFG" "$form" >"$T/st.out" 2>&1 && head -n 1 "$T/st.out" | grep -q "^job $J (#$N,"; then
    ok "zkfleet status $form: job $J"
  else
    fail "zkfleet status $form: $(cat "$T/st.out")"
  fi
done
rm -rf "$T/p2"
timeout 60 "$ZK" await --config "$CFG" "job$N" --out "$T/p2" --timeout 30 >"$T/await2.log" 2>&1 &&
  [ -s "$T/p2/job$J-p1-proof.json" ] && ok "zkfleet await job$N: the proofs, named by the id" ||
  fail "await job$N: $(cat "$T/await2.log"; ls "$T/p2" 2>&1)"
call bynum "$U/v1/jobs/$N"
[ "$(code bynum)" = 200 ] && [ "$(json bynum 'd["id"]')" = "$J" ] && ok "GET /v1/jobs/$N: job $J" ||
  fail "GET /v1/jobs/$N: $(code bynum) $(cat "$T/bynum.body")"
call nosuch "$U/v1/jobs/99999"
[ "$(code nosuch)" = 404 ] && ok "GET /v1/jobs/99999: 404" || fail "GET /v1/jobs/99999: $(code nosuch) $(cat "$T/nosuch.body")"

# --- 2. a witness that does not satisfy the circuit ------------------------------------------
python3 - "$FIX/mulchain/witness.wtns" "$T/unsat.wtns" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
v0 = 12 + 12 + 40 + 12   # the values: after the file header, section 1 and section 2's header
d[v0 + 32 * 500] ^= 1    # wire 500 changed: unsatisfied
open(sys.argv[2], 'wb').write(d)
PY
from=$(lines "$LOGS/gpu-1.log")
B=$(submit --circuit mulchain --input "$T/unsat.wtns" --partitions 2)
timeout 60 "$ZK" await --config "$CFG" "$B" --out "$T/pb" --timeout 50 >"$T/awaitb.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -q "the witness does not satisfy the circuit (constraint [0-9]* of" "$T/awaitb.log"; then
  ok "a witness that does not satisfy the circuit: $(head -c 300 "$T/awaitb.log")"
else
  fail "bad witness: exit $rc: $(cat "$T/awaitb.log")"
fi
timeout 30 "$ZK" status --config "$CFG" "$B" >"$T/stb.out" 2>&1
grep -q "bad_input: " "$T/stb.out" && ok "its status names the failure bad_input" || fail "status: $(cat "$T/stb.out")"
n=$(grep -c "synthesis failed" "$LOGS/synth-1.log")
[ "$n" -le 2 ] && ok "synthesis failed $n time(s) for 2 partitions: not retried" ||
  fail "the bad witness was synthesized $n times"
BN=$(seq_of "$B")
tail -n +"$from" "$LOGS/gpu-1.log" | grep -q "job $BN partition" &&
  fail "the prover worked on the bad witness: $(tail -n +"$from" "$LOGS/gpu-1.log" | grep "job $BN partition" | head -n 2)" ||
  ok "no prover time spent on it"
# The same with witness-only buffers: the r1cs is configured, so synthesis checks it too (a config
# that set shape: witness_only once dropped the r1cs, and the prover found a failed pairing check).
from=$(lines "$LOGS/gpu-1.log")
B=$(submit --circuit mulchain-wo --input "$T/unsat.wtns")
timeout 60 "$ZK" await --config "$CFG" "$B" --out "$T/pbw" --timeout 50 >"$T/awaitbw.log" 2>&1
rc=$?
BN=$(seq_of "$B")
if [ "$rc" != 0 ] && grep -q "the witness does not satisfy the circuit (constraint [0-9]* of" "$T/awaitbw.log" &&
  ! tail -n +"$from" "$LOGS/gpu-1.log" | grep -q "job $BN partition"; then
  ok "shape witness_only: refused at synthesis too, no prover time"
else
  fail "bad witness, shape witness_only: exit $rc: $(cat "$T/awaitbw.log")"
fi

# --- 3. await on a cancelled job writes the proofs that finished ------------------------------
C=$(submit --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 60)
some_done() {
  timeout 30 "$ZK" status --config "$CFG" "$C" >"$T/stc.out" 2>&1 &&
    head -n 1 "$T/stc.out" | grep -Eq ': ([2-9]|[1-5][0-9])/60 done'
}
wait_until 60 "job $C: 2 partitions done" some_done || fail "job $C: $(head -n 1 "$T/stc.out")"
timeout 30 "$ZK" cancel --config "$CFG" "$C" >"$T/cancel.out" 2>&1 || fail "cancel: $(cat "$T/cancel.out")"
timeout 60 "$ZK" await --config "$CFG" "$C" --out "$T/pc" --timeout 30 >"$T/awaitc.log" 2>&1
rc=$?
DONE=$(timeout 30 "$ZK" status --config "$CFG" "$C" | head -n 1 | sed -n 's/.*: \([0-9]*\)\/60 done.*/\1/p')
written=$(ls "$T/pc" 2>/dev/null | grep -c -- '-proof.json$')
if [ "$rc" = 1 ] && [ -n "$DONE" ] && [ "$DONE" -ge 2 ] && [ "$written" = "$DONE" ] &&
  grep -q "was cancelled ($DONE of 60 proofs written to $T/pc)" "$T/awaitc.log"; then
  ok "await on the cancelled job: exit 1, $written of 60 finished proofs written"
else
  fail "await on a cancelled job: exit $rc, $written written, $DONE done: $(tail -n 2 "$T/awaitc.log")"
fi
verify_job "$FIX/mulchain/verification_key.json" "$T/pc" "$C" 0
for f in "$T"/pc/*-proof.json; do
  [ -e "$f" ] || continue
  verify_proof "$FIX/mulchain/verification_key.json" "${f%-proof.json}-public.json" "$f" || fail "refused: $f"
done

# --- 4. drain, the HTTP wait, priority ---------------------------------------------------------
node_work() {  # node_work NODE: its work column in zkfleet status
  timeout 30 "$ZK" status --config "$CFG" | awk -v n="$1" '$1 == n {print $NF}'
}
timeout 30 "$ZK" drain --config "$CFG" gpu-1 >"$T/drain.out" 2>&1 &&
  grep -Eq "^node gpu-1 drain(ed|ing)" "$T/drain.out" && ok "zkfleet drain gpu-1: $(cat "$T/drain.out")" ||
  fail "zkfleet drain gpu-1: $(cat "$T/drain.out")"
is_drained() { [ "$(node_work gpu-1)" = drained ]; }
wait_until 30 "zkfleet status: gpu-1 drained" is_drained && ok "zkfleet status: gpu-1 drained" ||
  fail "status after drain: $(timeout 30 "$ZK" status --config "$CFG")"
D=$(submit --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 2 --priority low)
E=$(submit --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 1 --priority low)
waits_for_drain() {
  timeout 30 "$ZK" status --config "$CFG" "$D" >"$T/std.out" 2>&1 &&
    grep -q "waiting: every prover is draining" "$T/std.out"
}
wait_until 10 "job $D: waiting, every prover draining" waits_for_drain &&
  ok "a job submitted meanwhile waits: $(grep waiting "$T/std.out")" || fail "job $D: $(cat "$T/std.out")"
t0=$SECONDS
call wait2 "$U/v1/jobs/$D?wait=2"
el=$((SECONDS - t0))
if [ "$(code wait2)" = 200 ] && [ "$(json wait2 'd["state"]')" = queued ] && [ "$el" -ge 1 ]; then
  ok "GET /v1/jobs/ID?wait=2 on a queued job: answered after ${el} s, still queued"
else
  fail "wait=2: $(code wait2) after ${el} s: $(cat "$T/wait2.body")"
fi
call wait61 "$U/v1/jobs/$D?wait=61"
[ "$(code wait61)" = 400 ] && grep -q "longer than the 60 s" "$T/wait61.body" && ok "wait=61: 400, $(cat "$T/wait61.body")" ||
  fail "wait=61: $(code wait61) $(cat "$T/wait61.body")"
call waitx "$U/v1/jobs/$D?wait=soon"
[ "$(code waitx)" = 400 ] && ok "wait=soon: 400" || fail "wait=soon: $(code waitx) $(cat "$T/waitx.body")"
EN=$(seq_of "$E")
timeout 30 "$ZK" priority --config "$CFG" "#$EN" critical >"$T/prio.out" 2>&1 &&
  grep -q "priority critical" "$T/prio.out" && ok "zkfleet priority #$EN critical: $(cat "$T/prio.out")" ||
  fail "zkfleet priority: $(cat "$T/prio.out")"
timeout 30 "$ZK" status --config "$CFG" "$E" | head -n 1 | grep -q ", critical)" && ok "status: job $E is critical" ||
  fail "status of $E: $(timeout 30 "$ZK" status --config "$CFG" "$E" | head -n 1)"
call prio "$U/v1/jobs/$(seq_of "$D")/priority?priority=high" -X POST
[ "$(code prio)" = 200 ] && [ "$(json prio 'd["priority"]')" = high ] && ok "POST /v1/jobs/N/priority?priority=high: 200" ||
  fail "POST priority: $(code prio) $(cat "$T/prio.body")"
call prioj "$U/v1/jobs/$D/priority" -X POST -H 'Content-Type: application/json' -d '{"priority": "urgent"}'
[ "$(code prioj)" = 400 ] && ok "a priority that is none: 400" || fail "bad priority: $(code prioj) $(cat "$T/prioj.body")"
call undrain "$U/v1/nodes/gpu-1/undrain" -X POST
[ "$(code undrain)" = 200 ] && [ "$(json undrain 'd["draining"]')" = False ] && ok "POST /v1/nodes/gpu-1/undrain: 200" ||
  fail "undrain: $(code undrain) $(cat "$T/undrain.body")"
t0=$SECONDS
call wait30 "$U/v1/jobs/$E?wait=30"
el=$((SECONDS - t0))
[ "$(code wait30)" = 200 ] && [ "$(json wait30 'd["state"]')" = done ] && ok "GET ?wait=30: answered when the job was done (${el} s)" ||
  fail "wait=30: $(code wait30) after ${el} s: $(cat "$T/wait30.body")"
timeout 60 "$ZK" await --config "$CFG" "$D" --out "$T/pd" --timeout 50 >"$T/awaitd.log" 2>&1 &&
  ok "undrained: the waiting job proves" || fail "await $D: $(cat "$T/awaitd.log")"
timeout 30 "$ZK" priority --config "$CFG" "$D" high >"$T/prio2.out" 2>&1 &&
  fail "the priority of a finished job changed" ||
  { grep -q "is finished" "$T/prio2.out" && ok "a finished job's priority: refused, $(cat "$T/prio2.out")" || fail "$(cat "$T/prio2.out")"; }
call drainx "$U/v1/nodes/gpu-9/drain" -X POST
[ "$(code drainx)" = 400 ] && grep -q "no node named 'gpu-9'" "$T/drainx.body" && ok "drain an unknown node: 400, names the known ones" ||
  fail "drain gpu-9: $(code drainx) $(cat "$T/drainx.body")"

# --- 5. retry a failed job -------------------------------------------------------------------
echo '{"x": 3}' >"$T/in.json"
F=$(submit --circuit flaky --input "$T/in.json" --partitions 1)
timeout 60 "$ZK" await --config "$CFG" "$F" --out "$T/pf" --timeout 50 >"$T/awaitf.log" 2>&1 &&
  fail "the flaky generator's job succeeded before the flag" ||
  ok "a job whose witness generator fails: failed ($(tail -c 120 "$T/awaitf.log"))"
[ "$(state_of "$F")" = failed ] && ok "zkfleet jobs: failed" || fail "state of $F: $(state_of "$F")"
touch "$FLAG"
FN=$(seq_of "$F")
timeout 30 "$ZK" retry --config "$CFG" "$FN" >"$T/retry.out" 2>&1 &&
  grep -q "1 of 1 partitions queued again" "$T/retry.out" && ok "zkfleet retry $FN: $(cat "$T/retry.out")" ||
  fail "zkfleet retry: $(cat "$T/retry.out")"
timeout 60 "$ZK" await --config "$CFG" "$F" --out "$T/pf" --timeout 50 >"$T/awaitf2.log" 2>&1 &&
  ok "the retried job proves" || fail "await after retry: $(cat "$T/awaitf2.log")"
call retry2 "$U/v1/jobs/$F/retry" -X POST
[ "$(code retry2)" = 400 ] && grep -q "only a failed job is retried" "$T/retry2.body" && ok "POST retry of a done job: 400" ||
  fail "retry of a done job: $(code retry2) $(cat "$T/retry2.body")"

finish
