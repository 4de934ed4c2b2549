#!/usr/bin/env bash
# Curio's cuzk API on a loopback cluster (issue 37 item 3), driven exactly as Curio's PoRep task
# drives it (lib/ffi/cuzk_funcs.go PoRepSnarkCuzk): a client generated at test time from the
# project's grpcapi/proto (Python's grpcio-tools), plaintext, 256 MiB messages; a 2 KiB sector
# sealed by Filecoin's own code for a miner id (the prover id its LEB128, padded to 32 bytes);
#
#   Prove (request_id porep-<miner>-<sector>, POREP_SEAL_COMMIT, registered_proof 5, the C1 in Go's
#   wrapper) → COMPLETED, 192 bytes, accepted by Filecoin's verify_seal and zkfleet filecoin
#   verify for the sector and rejected for another; its whole-call time against `zkfleet
#   filecoin prove` on the same C1;
#   the same request_id again → the same job, the same proof (no second job);
#   SubmitProof → job_id = request_id; AwaitProof(timeout_ms 1) → TIMEOUT or COMPLETED;
#   AwaitProof(0) → COMPLETED; submit + CancelProof + AwaitProof → CANCELLED;
#   an unknown job → NOT_FOUND; a wrong registered_proof, a garbage vanilla_proof, a wrong sector
#   → INVALID_ARGUMENT naming what; kinds 3-4 → UNIMPLEMENTED naming the kind, kind 2 (SnapDeals)
#   → FAILED_PRECONDITION (no filecoin-snap circuit here); kind 0 and a
#   Prove without submit → INVALID_ARGUMENT;
#   GetStatus (within Curio's 5 s: provers, the parameters resident, the porep-c2 queue),
#   GetMetrics (the /metrics text); PreloadSRS / EvictSRS: Preload answers already_loaded, Evict
#   frees both provers' parameters (freed_bytes, their RSS drops, GetStatus no longer HOT), a C2
#   then has a prover load them again, Preload loads them on the other, Evict while a partition
#   proves is refused by that prover (FAILED_PRECONDITION naming it) and the proof completes;
#   a prover killed (SIGKILL) while it proves the partition: the job still completes, the proof
#   verifies; the scheduler killed (SIGKILL) between a submit and its await: the await after the
#   restart still gets the proof, and it verifies.
#
#   tests/grpcapi/curio_cluster.sh build/zkfleet
#
# Skipped (77) without cargo (no reference), curl, or Python's grpcio-tools (scripts/deps puts
# them in .tools/grpc; ZK_GRPC_PYTHON names another Python).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../filecoin/ref_lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/client_lib.sh"
harness_init grpcapi_curio "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"
# the client, generated now from the project's .proto (tests/grpcapi/client_lib.sh)
need_grpc_client
need_ref
# answer LABEL CODE STATUS NEEDLE FILE: the call's code and (Await/Prove) status, and NEEDLE (ERE)
# in its details and error message.
answer() {
  local label="$1" code="$2" status="$3" needle="$4" f="$5"
  local c s d
  c="$(field "$f" code)" s="$(field "$f" status)" d="$(field "$f" details) $(field "$f" error_message)"
  if [ "$c" = "$code" ] && { [ -z "$status" ] || [ "$s" = "$status" ]; } && grep -Eq -- "$needle" <<<"$d"; then
    ok "$label: $c${s:+ $s}: $(head -c 240 <<<"$d")"
  else
    fail "$label: expected $code${status:+ $status} /$needle/, got $(head -c 400 "$f")"
  fi
}

# --- a sector sealed for a miner id ------------------------------------------------------------
MINER=$((1000 + RANDOM))
REF_C2_PROVER="$(python3 -c '
import sys
n, out = int(sys.argv[1]), bytearray()
while True:
    b = n & 0x7f
    n >>= 7
    out.append(b | (0x80 if n else 0))
    if not n: break
print((bytes(out) + bytes(32 - len(out))).hex())' "$MINER")"
. "$(dirname "${BASH_SOURCE[0]}")/../filecoin/ref_c2.sh"
VARGS=(--registered-proof $PROOF --prover-id "$PROVER" --ticket "$(c1_hex "$C1" ticket)"
  --seed "$(c1_hex "$C1" seed)" --comm-r "$(c1_hex "$C1" comm_r)" --comm-d "$(c1_hex "$C1" comm_d)")
echo "miner $MINER: prover id $PROVER, sector $SECTOR"

# --- the cluster: scheduler with HTTP and gRPC on loopback, 2 synthesis nodes, 2 provers -------
cluster_new curio insecure
take_port HTTP
take_port GRPC
U="http://127.0.0.1:$HTTP"
G="127.0.0.1:$GRPC"
yaml_head "http: 127.0.0.1:$HTTP" "grpc: $G" "stage_timeout: 10m"
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node synth-2 synth "resources: {cores: 1, memory_budget: 1GiB}"
for p in prover-1 prover-2; do
  yaml_node $p prover "resources: {cores: 2, memory_budget: 4GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS}"
done
cluster_up
wait_ready 900 || die "the cluster did not become ready"
SL="$LOGS/scheduler.log"
grep -q "gRPC (Curio's cuzk API) at $G" "$SL" && ok "the scheduler serves gRPC at $G (plaintext, loopback)" ||
  die "no gRPC listener in the scheduler's log: $(grep -i grpc "$SL" | tail -n 3)"

jobs_count() { curl -s -m 30 "$U/v1/jobs" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["jobs"] if isinstance(d,dict) else d))'; }
verify_both() {  # LABEL PROOF: accepted for the sector by both verifiers, rejected for another
  local label="$1" proof="$2" sector want rrc zrc
  for sector in $SECTOR $((SECTOR + 1)); do
    want=$([ $sector = $SECTOR ] && echo 0 || echo 1)
    rrc=0 zrc=0
    "$REF" verify --vk "$VK" --proof "$proof" "${VARGS[@]}" --sector $sector >"$T/ref.json" 2>&1 || rrc=$?
    "$ZK" filecoin verify --vk "$VK" --proof "$proof" "${VARGS[@]}" --sector $sector >"$T/zk.txt" 2>&1 || zrc=$?
    if [ $rrc = $want ] && [ $zrc = $want ]; then
      ok "$label, sector $sector: Filecoin's verify_seal exit $rrc, zkfleet filecoin verify exit $zrc"
    else
      fail "$label, sector $sector: verify_seal exit $rrc, zkfleet exit $zrc, expected $want: $(cat "$T/zk.txt") $(grep -m1 error "$T/ref.json")"
    fi
  done
}
CURIO=(--c1 "$C1" --miner $MINER --sector $SECTOR)
RID="porep-$MINER-$SECTOR"

# --- Prove, as Curio calls it -------------------------------------------------------------------
client "$G" prove "${CURIO[@]}" --out "$T/p1.bin" >"$T/prove1.json" 2>"$T/client.err" ||
  die "the client failed: $(cat "$T/client.err")"
answer "Prove $RID" OK COMPLETED "" "$T/prove1.json"
[ "$(field "$T/prove1.json" job_id)" = "$RID" ] && [ "$(stat -c %s "$T/p1.bin" 2>/dev/null)" = 192 ] &&
  ok "Prove answers job_id $RID and 192 bytes; timings: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join("%s=%s" % (k, d[k]) for k in ["queue_wait_ms","srs_load_ms","synthesis_ms","gpu_compute_ms","total_ms","call_ms"]))' "$T/prove1.json")" ||
  fail "Prove's answer: $(head -c 400 "$T/prove1.json")"
[ "$(field "$T/prove1.json" total_ms)" -gt 0 ] 2>/dev/null && [ "$(field "$T/prove1.json" gpu_compute_ms)" -gt 0 ] 2>/dev/null &&
  ok "Prove's timings come from the timeline (total_ms, gpu_compute_ms > 0)" ||
  fail "Prove's timings are empty: $(head -c 400 "$T/prove1.json")"
verify_both "Prove's proof" "$T/p1.bin"

# The API's overhead: the same C1 proved by one process.
start=$(date +%s.%N)
"$ZK" filecoin prove --c1 "$C1" --params "$PARAMS" --vk "$VK" --prover-id "$PROVER" --sector $SECTOR \
  --out "$T/cli.bin" >"$T/cli.out" 2>&1 || fail "zkfleet filecoin prove: $(cat "$T/cli.out")"
end=$(date +%s.%N)
echo "figure: Prove (whole call, the cluster) $(field "$T/prove1.json" call_ms) ms; zkfleet filecoin prove (one process, params loaded by it) $(python3 -c "print('%.0f' % (($end - $start) * 1000))") ms"

# --- the same request_id again: the same job ----------------------------------------------------
n1="$(jobs_count)"
client "$G" prove "${CURIO[@]}" --out "$T/p2.bin" >"$T/prove2.json"
answer "Prove $RID again" OK COMPLETED "" "$T/prove2.json"
n2="$(jobs_count)"
# The first answer's timings were complete: the job's events, each node's batch flushed, are the
# same later.
timings() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join("%s=%s" % (k, d[k]) for k in ["queue_wait_ms","synthesis_ms","gpu_compute_ms","total_ms"]))' "$1"; }
[ "$(timings "$T/prove1.json")" = "$(timings "$T/prove2.json")" ] &&
  ok "the timings of the job's first answer are complete (the same in the later one): $(timings "$T/prove1.json")" ||
  fail "the timings of the first answer, $(timings "$T/prove1.json"), are not the job's: $(timings "$T/prove2.json")"
if cmp -s "$T/p1.bin" "$T/p2.bin" && [ "$n1" = "$n2" ]; then
  ok "the same request_id again: the same proof, no second job ($n2 jobs), in $(field "$T/prove2.json" call_ms) ms"
else
  fail "the same request_id again: jobs $n1 → $n2, proofs $(cmp "$T/p1.bin" "$T/p2.bin" 2>&1)"
fi

# By hand (issue 37): a Go client built from Curio's own generated stubs (lib/cuzk/proving*.pb.go,
# fetched; Curio's module is not on the Go proxy), dialling and asking as PoRepSnarkCuzk does:
# ZK_CURIO_GO_CLIENT=BINARY, called as BINARY ADDRESS C1 MINER SECTOR OUT.
if [ -n "${ZK_CURIO_GO_CLIENT:-}" ]; then
  if "$ZK_CURIO_GO_CLIENT" "$G" "$C1" $MINER $SECTOR "$T/go.bin" >"$T/go.out" 2>&1 && cmp -s "$T/p1.bin" "$T/go.bin"; then
    ok "Curio's own stubs (Go): $(head -c 600 "$T/go.out")"
  else
    fail "Curio's own stubs (Go): $(head -c 600 "$T/go.out")"
  fi
fi

# --- SubmitProof, AwaitProof ----------------------------------------------------------------------
client "$G" submit "${CURIO[@]}" --request-id "sub-$SECTOR" >"$T/submit.json"
answer "SubmitProof" OK "" "" "$T/submit.json"
[ "$(field "$T/submit.json" job_id)" = "sub-$SECTOR" ] && ok "SubmitProof's job_id is the request_id" ||
  fail "SubmitProof's job_id: $(cat "$T/submit.json")"
client "$G" await "sub-$SECTOR" --timeout-ms 1 >"$T/await1.json"
s="$(field "$T/await1.json" status)"
[ "$(field "$T/await1.json" code)" = OK ] && { [ "$s" = TIMEOUT ] || [ "$s" = COMPLETED ]; } &&
  ok "AwaitProof(timeout_ms 1): $s in $(field "$T/await1.json" call_ms) ms" ||
  fail "AwaitProof(timeout_ms 1): $(cat "$T/await1.json")"
client "$G" await "sub-$SECTOR" --out "$T/p3.bin" >"$T/await2.json"
answer "AwaitProof(0)" OK COMPLETED "" "$T/await2.json"
cmp -s "$T/p1.bin" "$T/p3.bin" || verify_both "the submitted job's proof" "$T/p3.bin"

# --- cancel ---------------------------------------------------------------------------------------
client "$G" submit "${CURIO[@]}" --request-id "cancel-$SECTOR" >"$T/submit-c.json"
client "$G" cancel "cancel-$SECTOR" >"$T/cancel.json"
answer "CancelProof" OK "" "" "$T/cancel.json"
client "$G" await "cancel-$SECTOR" --deadline 60 >"$T/await-c.json"
answer "AwaitProof of the cancelled job" OK CANCELLED "" "$T/await-c.json"

# --- refusals -------------------------------------------------------------------------------------
client "$G" await "no-such-job-$SECTOR" >"$T/unknown.json"
answer "AwaitProof of an unknown job" NOT_FOUND "" "job not found: no-such-job-$SECTOR" "$T/unknown.json"
client "$G" cancel "no-such-job-$SECTOR" >"$T/unknown-c.json"
answer "CancelProof of an unknown job" NOT_FOUND "" "job not found" "$T/unknown-c.json"
client "$G" submit "${CURIO[@]}" --request-id "rp-$SECTOR" --registered-proof 8 --sector-size 34359738368 >"$T/rp.json"
answer "a wrong registered_proof (8, 32 GiB)" FAILED_PRECONDITION "" "StackedDrg32GiBV1_1.*not proved by this cluster" "$T/rp.json"
client "$G" submit "${CURIO[@]}" --request-id "rp2-$SECTOR" --registered-proof 99 >"$T/rp2.json"
answer "an unknown registered_proof (99)" INVALID_ARGUMENT "" "99" "$T/rp2.json"
head -c 3000 /dev/urandom >"$T/garbage.bin"
client "$G" submit --vanilla "$T/garbage.bin" --miner $MINER --sector $SECTOR --request-id "g-$SECTOR" >"$T/garbage.json"
answer "a garbage vanilla_proof" INVALID_ARGUMENT "" "vanilla_proof|C1|JSON" "$T/garbage.json"
client "$G" prove "${CURIO[@]}" --request-id "g2-$SECTOR" --sector $((SECTOR + 1)) >"$T/wrong-sector.json"
answer "Prove for the wrong sector" INVALID_ARGUMENT "" "sector" "$T/wrong-sector.json"
for k in 3:WINDOW_POST_PARTITION 4:WINNING_POST; do
  client "$G" prove "${CURIO[@]}" --request-id "k${k%%:*}-$SECTOR" --kind ${k%%:*} >"$T/kind.json"
  answer "proof kind ${k#*:}" UNIMPLEMENTED "" "${k#*:}" "$T/kind.json"
done
# SnapDeals is proved where a filecoin-snap circuit is configured (tests/filecoin/snap_cluster.sh);
# this cluster has none: the refusal says so.
client "$G" prove "${CURIO[@]}" --request-id "k2-$SECTOR" --kind 2 --registered-proof 0 >"$T/kind.json"
answer "SNAP_DEALS_UPDATE without a filecoin-snap circuit" FAILED_PRECONDITION "" "no filecoin-snap circuit" "$T/kind.json"
client "$G" submit "${CURIO[@]}" --request-id "k0-$SECTOR" --kind 0 >"$T/kind0.json"
answer "proof kind 0" INVALID_ARGUMENT "" "proof_kind" "$T/kind0.json"
client "$G" prove --no-submit >"$T/nosubmit.json"
answer "Prove without submit" INVALID_ARGUMENT "" "submit" "$T/nosubmit.json"

# --- GetStatus, GetMetrics, PreloadSRS, EvictSRS ------------------------------------------------
client "$G" status >"$T/status.json"
answer "GetStatus" OK "" "" "$T/status.json"
echo "GetStatus: $(cat "$T/status.json")"
python3 - "$T/status.json" <<'PY' >"$T/status.check"
import json, sys
d = json.load(open(sys.argv[1]))
names = [g["name"] for g in d["gpus"]]
ok = lambda c, m: print(("ok: " if c else "FAIL: ") + m)
ok(len(d["gpus"]) == 2 and all("prover-" in n for n in names), "GetStatus: one GPUStatus a prover device: %s" % names)
ok(any(s["tier"] == "HOT" for s in d["loaded_srs"]), "GetStatus: parameters resident: %s" % d["loaded_srs"])
ok(any(q["proof_kind"] == "porep-c2" for q in d["queues"]), "GetStatus: the porep-c2 queue: %s" % d["queues"])
ok(d["total_proofs_completed"] >= 2 and d["uptime_seconds"] > 0,
   "GetStatus: %d completed, %d failed, up %d s" % (d["total_proofs_completed"], d["total_proofs_failed"], d["uptime_seconds"]))
ok(d["call_ms"] < 5000, "GetStatus answered in %s ms (Curio waits 5 s)" % d["call_ms"])
PY
tally "$T/status.check"
client "$G" metrics >"$T/metrics.json"
python3 -c 'import json,sys; open(sys.argv[2],"w").write(json.load(open(sys.argv[1]))["prometheus_text"])' "$T/metrics.json" "$T/metrics.txt" 2>/dev/null
curl -s -m 30 "$U/metrics" >"$T/metrics.http"
if grep -q '^zkfleet_' "$T/metrics.txt" && [ "$(grep -c '^# TYPE' "$T/metrics.txt")" = "$(grep -c '^# TYPE' "$T/metrics.http")" ]; then
  ok "GetMetrics: the /metrics text ($(grep -c '^# TYPE' "$T/metrics.txt") families)"
else
  fail "GetMetrics: $(head -c 300 "$T/metrics.json")"
fi
SRS="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["loaded_srs"][0]["circuit_id"])' "$T/status.json" 2>/dev/null)"
client "$G" preload porep-nonesuch >"$T/preload2.json"
[ "$(field "$T/preload2.json" code)" != OK ] && ok "PreloadSRS of an unknown id: $(field "$T/preload2.json" code): $(field "$T/preload2.json" details)" ||
  fail "PreloadSRS of an unknown id: $(cat "$T/preload2.json")"

# --- PreloadSRS / EvictSRS move the provers' parameters (docs/api.md) ------------------------------
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$(node_pid "$1")/status"; }
hot() {  # the tiers GetStatus lists for SRS ("" when none)
  client "$G" status | python3 -c 'import json,sys; print(" ".join(s["tier"] for s in json.load(sys.stdin)["loaded_srs"] if s["circuit_id"] == sys.argv[1]))' "$SRS"
}
client "$G" preload "$SRS" >"$T/preload.json"
answer "PreloadSRS $SRS" OK "" "" "$T/preload.json"
[ "$(field "$T/preload.json" already_loaded)" = True ] && grep -q 'prover-1: already loaded' "$T/preload.json" &&
  grep -q 'prover-2: already loaded' "$T/preload.json" && ok "PreloadSRS: already_loaded, each prover: $(field "$T/preload.json" provers)" ||
  fail "PreloadSRS: $(cat "$T/preload.json")"
declare -A RSS0
for p in prover-1 prover-2; do RSS0[$p]=$(rss_kb $p); done
client "$G" evict "$SRS" >"$T/evict.json"
answer "EvictSRS $SRS" OK "" "" "$T/evict.json"
PBYTES=$(stat -c %s "$PARAMS")
[ "$(field "$T/evict.json" was_loaded)" = True ] && [ "$(field "$T/evict.json" freed_bytes)" = $((2 * PBYTES)) ] &&
  grep -q 'prover-1: evicted' "$T/evict.json" && grep -q 'prover-2: evicted' "$T/evict.json" &&
  ok "EvictSRS: was_loaded, freed_bytes = both provers' $PBYTES-byte parameters: $(field "$T/evict.json" provers)" ||
  fail "EvictSRS: $(cat "$T/evict.json")"
[ -z "$(hot)" ] && ok "GetStatus after EvictSRS: $SRS no longer HOT" || fail "GetStatus after EvictSRS: $SRS still $(hot)"
for p in prover-1 prover-2; do
  r1=$(rss_kb $p)
  # The decoded parameters take about the file's size; at least half of it comes back.
  [ $(((RSS0[$p] - r1) * 1024)) -ge $((PBYTES / 2)) ] &&
    ok "$p's RSS after EvictSRS: ${RSS0[$p]} -> $r1 kB (parameters $PBYTES bytes)" ||
    fail "$p's RSS after EvictSRS: ${RSS0[$p]} -> $r1 kB, less than half of $PBYTES bytes freed"
done
client "$G" evict "$SRS" >"$T/evict2.json"
[ "$(field "$T/evict2.json" code)" = OK ] && [ "$(field "$T/evict2.json" was_loaded)" = False ] &&
  grep -q 'prover-1: not loaded' "$T/evict2.json" && ok "EvictSRS again: was_loaded false: $(field "$T/evict2.json" provers)" ||
  fail "EvictSRS again: $(cat "$T/evict2.json")"
# A C2 with no prover holding the parameters: one loads them again for it.
before=$(lines "$SL")
client "$G" prove "${CURIO[@]}" --request-id "reload-$SECTOR" --out "$T/p7.bin" >"$T/prove7.json"
answer "Prove with the parameters evicted everywhere" OK COMPLETED "" "$T/prove7.json"
verify_both "the proof after the reload" "$T/p7.bin"
grep -q "loading the parameters of '.*' again for its queued partitions" <(tail -n +$((before + 1)) "$SL") &&
  ok "the scheduler had a prover load them again for the queued partition" || fail "no reload in the scheduler's log"
[ "$(hot)" = HOT ] && ok "GetStatus after the reload: $SRS HOT" || fail "GetStatus after the reload: '$(hot)'"
client "$G" preload "$SRS" >"$T/preload3.json"
[ "$(field "$T/preload3.json" code)" = OK ] && [ "$(field "$T/preload3.json" already_loaded)" = False ] &&
  grep -Eq 'prover-[12]: loaded in [0-9]+ ms' "$T/preload3.json" && grep -q 'already loaded' "$T/preload3.json" &&
  ok "PreloadSRS: loaded on the prover without them (load_time_ms $(field "$T/preload3.json" load_time_ms)): $(field "$T/preload3.json" provers)" ||
  fail "PreloadSRS after the reload: $(cat "$T/preload3.json")"
# EvictSRS while a partition proves: that prover refuses (it would load them again at once).
client "$G" submit "${CURIO[@]}" --request-id "evict-$SECTOR" >"$T/submit-e.json"
proving_rid() {  # REQUEST_ID: the prover proving its partition 0 now, in PNODE
  PNODE="$(curl -s -m 10 "$U/v1/jobs/request:$1" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitions"][0]; print(p.get("node","") if p["state"]=="proving" else "")' 2>/dev/null)"
  [ -n "$PNODE" ]
}
if POLL=0.2 wait_until 300 "partition 0 of evict-$SECTOR proving" proving_rid "evict-$SECTOR"; then
  client "$G" evict "$SRS" >"$T/evict3.json"
  answer "EvictSRS while $PNODE proves" FAILED_PRECONDITION "" "$PNODE: refused: partition 0 of job [0-9a-f]+ \((proving|waiting)\) is placed here" "$T/evict3.json"
  client "$G" await "evict-$SECTOR" --out "$T/p8.bin" >"$T/await-e.json"
  answer "AwaitProof of the job proving through the EvictSRS" OK COMPLETED "" "$T/await-e.json"
  verify_both "the proof proved through the EvictSRS" "$T/p8.bin"
else
  fail "the partition of evict-$SECTOR never reached a prover"
fi
client "$G" preload "$SRS" >"$T/preload4.json"
answer "PreloadSRS before the prover kill" OK "" "" "$T/preload4.json"
[ "$(hot)" = HOT ] || fail "GetStatus after the last PreloadSRS: '$(hot)'"

# --- a prover killed while it proves the partition ----------------------------------------------
client "$G" submit "${CURIO[@]}" --request-id "pkill-$SECTOR" >"$T/submit-p.json"
# proving_on: the prover proving the job's partition 0 now, in PNODE.
proving_on() {
  PNODE="$(curl -s -m 10 "$U/v1/jobs/request:pkill-$SECTOR" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitions"][0]; print(p.get("node","") if p["state"]=="proving" else "")' 2>/dev/null)"
  [ -n "$PNODE" ]
}
if POLL=0.2 wait_until 300 "partition 0 of pkill-$SECTOR proving" proving_on; then
  pid=$(node_pid "$PNODE")
  kill -9 "$pid"
  ok "$PNODE killed (SIGKILL) while proving pkill-$SECTOR's partition"
  client "$G" await "pkill-$SECTOR" --out "$T/p6.bin" --deadline 900 >"$T/await-p.json"
  answer "AwaitProof of the job whose prover was killed" OK COMPLETED "" "$T/await-p.json"
  verify_both "the proof after a prover's kill" "$T/p6.bin"
  curl -s -m 10 "$U/v1/jobs/request:pkill-$SECTOR" >"$T/pkill.json"
  echo "the job after the kill: $(head -c 400 "$T/pkill.json")"
else
  fail "the partition of pkill-$SECTOR never reached a prover"
fi

# --- the scheduler killed between submit and await ---------------------------------------------
client "$G" submit "${CURIO[@]}" --request-id "restart-$SECTOR" >"$T/submit-r.json"
answer "SubmitProof before the kill" OK "" "" "$T/submit-r.json"
pid=$(node_pid scheduler)
before=$(lines "$SL")
kill -9 "$pid"
if wait_log 60 "$SL" "journal .*replayed" "$before" && wait_log 60 "$SL" "gRPC \(Curio's cuzk API\) at" "$before"; then
  ok "scheduler killed (SIGKILL), restarted by up, journal replayed, gRPC back"
else
  fail "the scheduler did not come back: $(tail -n 10 "$SL")"
fi
client "$G" await "restart-$SECTOR" --out "$T/p4.bin" --deadline 600 >"$T/await-r.json"
answer "AwaitProof after the restart" OK COMPLETED "" "$T/await-r.json"
verify_both "the proof awaited after the restart" "$T/p4.bin"
client "$G" prove "${CURIO[@]}" --request-id "restart-$SECTOR" --out "$T/p5.bin" >"$T/prove-r.json"
answer "Prove of the same request_id after the restart" OK COMPLETED "" "$T/prove-r.json"
cmp -s "$T/p4.bin" "$T/p5.bin" && ok "after the restart the same request_id is the same job (same proof)" ||
  fail "after the restart the same request_id proved again"
finish
