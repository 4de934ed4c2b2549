#!/usr/bin/env bash
# SnapDeals update proofs through a 4-process loopback cluster (issue 36 item 4, and the
# done-when's cluster half):
#
#   scheduler (HTTP, Curio's gRPC on loopback), 1 synthesis node, 2 prover nodes each mapping the
#   2 KiB update circuit's development parameters (`zkfleet filecoin setup
#   --registered-update-proof StackedDrg2KiBV1 --seed 1`, cached) into its budget;
#   a 2 KiB sector sealed and updated in the test (`zkfleet filecoin seal`, then `zkfleet filecoin
#   update` with other data: its update.json and vanilla.json), and the update Filecoin's own code
#   made (tests/fixtures/filecoin/snap-2k: its vanilla partition proof in Curio's snap-vproof.json
#   and raw, its commitments in golden.txt), proved
#     by `zkfleet submit --vanilla snap-vproof.json` and `--vanilla vanilla-0.bin` (raw bincode),
#     by HTTP (POST /v1/jobs?circuit=…&comm_r_old=…, the snap-vproof.json as the body),
#     by Curio's gRPC call (SNAP_DEALS_UPDATE as lib/ffi/cuzk_funcs.go ProveUpdateCuzk sends it,
#     through the Python client generated from the project's proto; skipped without grpcio);
#   and the update made here by `zkfleet filecoin prove-update` too;
#   each proof accepted by `zkfleet filecoin verify-update` with the parameters' .vk and rejected
#   for comm_r_new[0] ^ 1; a job with the wrong comm_r_new refused at submit by the vanilla
#   verifier, naming the partition; the synthesis node fetched .fup partition inputs only; the
#   timeline holds the update's synthesis stages (snap_witness, snap_synthesize, snap_check).
#   With the Rust reference built (cargo), Filecoin's own verify_empty_sector_update_proof accepts
#   the cluster's proof too.
#
#   tests/filecoin/snap_cluster.sh build/zkfleet
#   ZK_SNAP_PARAMS=FILE.params ZK_SNAP_VK=FILE.vk tests/filecoin/snap_cluster.sh build/zkfleet
#       (the provers map other parameters of the 2 KiB update circuit, e.g. the ones Filecoin's
#       own generate_random_parameters made, and every proof is checked with that .vk)
#
# Skipped (77) without curl.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/snap_lib.sh"
harness_init filecoin_snap_cluster "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"

snap_2k  # F, R_OLD, R_NEW, D_NEW
flip0() { python3 -c "import sys; b=bytearray.fromhex(sys.argv[1]); b[0]^=1; print(b.hex())" "$1"; }
UPROOF=StackedDrg2KiBV1
if [ -n "${ZK_SNAP_PARAMS:-}" ]; then
  PARAMS="$ZK_SNAP_PARAMS" VK="${ZK_SNAP_VK:?ZK_SNAP_VK names the .vk of ZK_SNAP_PARAMS}"
  ok "parameters given: $PARAMS, $VK"
else
  snap_dev_params $UPROOF  # PARAMS, VK
fi

# --- the cluster -----------------------------------------------------------------------------
cluster_new snap insecure
take_port HTTP
take_port GRPC
U="http://127.0.0.1:$HTTP"
G="127.0.0.1:$GRPC"
yaml_head "http: 127.0.0.1:$HTTP" "grpc: $G" "stage_timeout: 10m"
yaml_line "circuits:" "  snap2k: {native: filecoin-snap, registered_proof: $UPROOF, vk: $VK}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
for p in prover-1 prover-2; do
  yaml_node $p prover "resources: {cores: 1, memory_budget: 3GiB, prover_backend: cpu}, filecoin_params: {snap2k: $PARAMS}"
done
cluster_up
wait_ready 900 || die "the cluster did not become ready"
ok "4 processes up, both provers with the 2 KiB update parameters resident"

# verify_update LABEL PROOF [COMM_R_OLD COMM_R_NEW COMM_D_NEW]: zkfleet's verify-update accepts it
# (for the fixture's commitments unless given), and rejects it for another comm_r_new; with the
# reference built, Filecoin's own verifier accepts it too.
verify_update() {
  local label="$1" proof="$2" ro="${3:-$R_OLD}" rn="${4:-$R_NEW}" dn="${5:-$D_NEW}" zrc=0 brc=0 rrc=0
  local a=(--registered-update-proof $UPROOF --vk "$VK" --proof "$proof" --comm-r-old "$ro" --comm-d-new "$dn")
  "$ZK" filecoin verify-update "${a[@]}" --comm-r-new "$rn" >"$T/v.txt" 2>&1 || zrc=$?
  "$ZK" filecoin verify-update "${a[@]}" --comm-r-new "$(flip0 "$rn")" >"$T/vbad.txt" 2>&1 || brc=$?
  if [ "$(stat -c %s "$proof" 2>/dev/null)" = 192 ] && [ $zrc = 0 ] && [ $brc = 1 ]; then
    ok "$label: 192 bytes, verify-update accepts it (exit 0), and with comm_r_new[0]^1 rejects it (exit 1)"
  else
    fail "$label: $(stat -c %s "$proof" 2>/dev/null) bytes, verify-update exit $zrc / $brc: $(cat "$T/v.txt" "$T/vbad.txt")"
  fi
  if [ -n "${REF:-}" ]; then
    "$REF" update-verify "${a[@]}" --comm-r-new "$rn" >"$T/ref.txt" 2>&1 || rrc=$?
    [ $rrc = 0 ] && ok "$label: Filecoin's verify_empty_sector_update_proof accepts it" ||
      fail "$label: Filecoin's verifier exit $rrc: $(tail -c 300 "$T/ref.txt")"
  fi
}
# The reference, when cargo has built it (not required here: tests/filecoin/ref_lib.sh).
REF=""
if command -v cargo >/dev/null 2>&1; then
  . "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
  if (need_ref) >/dev/null 2>&1; then need_ref; fi
fi

# --- refused at submit: another comm_r_new ---------------------------------------------------
if out="$("$ZK" submit --config "$CFG" --circuit snap2k --vanilla "$F/snap-vproof.json" \
  --comm-r-old "$R_OLD" --comm-r-new "$(flip0 "$R_NEW")" --comm-d-new "$D_NEW" 2>&1)"; then
  fail "an update with the wrong comm_r_new was accepted: $out"
else
  case "$out" in *"$F/snap-vproof.json"*"partition 0"*) ok "the wrong comm_r_new refused at submit: $out" ;;
    *) fail "the wrong comm_r_new refused, but not naming the file and partition: $out" ;; esac
fi
if out="$("$ZK" submit --config "$CFG" --circuit snap2k --vanilla "$F/snap-vproof.json" 2>&1)"; then
  fail "an update without commitments was accepted: $out"
else
  case "$out" in *"--comm-r-old HEX, --comm-r-new HEX, --comm-d-new HEX are required"*) ok "no commitments: $out" ;;
    *) fail "no commitments, refused for something else: $out" ;; esac
fi

# --- jobs by the CLI (JSON and raw), over HTTP -------------------------------------------------
JOB="$("$ZK" submit --config "$CFG" --circuit snap2k --vanilla "$F/snap-vproof.json" --sector 7 \
  --comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW" 2>"$T/submit.err")" ||
  die "zkfleet submit: $(cat "$T/submit.err")"
ok "submitted by the CLI (snap-vproof.json): job $JOB"
RJOB="$("$ZK" submit --config "$CFG" --circuit snap2k --vanilla "$F/vanilla-0.bin" \
  --comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW" 2>"$T/submit2.err")" ||
  die "zkfleet submit (raw): $(cat "$T/submit2.err")"
ok "submitted by the CLI (the raw bincode partition proof): job $RJOB"
code="$(curl -s -m 60 -o "$T/post.body" -w "%{http_code}" -H "Content-Type: application/json" --data-binary @"$F/snap-vproof.json" \
  "$U/v1/jobs?circuit=snap2k&comm_r_old=$R_OLD&comm_r_new=$R_NEW&comm_d_new=$D_NEW&sector=7")"
HJOB="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/post.body" 2>/dev/null)"
[ "$code" = 201 ] && [ -n "$HJOB" ] && ok "submitted over HTTP (snap-vproof.json as the body): job $HJOB" ||
  die "POST /v1/jobs: $code $(cat "$T/post.body")"
code="$(curl -s -m 60 -o "$T/post2.body" -w "%{http_code}" -H "Content-Type: application/json" --data-binary @"$F/snap-vproof.json" \
  "$U/v1/jobs?circuit=snap2k&comm_r_old=$R_OLD&comm_r_new=$R_NEW")"
[ "$code" = 400 ] && grep -q "comm_d_new is missing" "$T/post2.body" &&
  ok "HTTP without comm_d_new: 400 $(cat "$T/post2.body")" || fail "HTTP without comm_d_new: $code $(cat "$T/post2.body")"

for j in "$JOB" "$RJOB" "$HJOB"; do
  "$ZK" await --config "$CFG" "$j" --out "$T/out" --timeout 900 >"$T/await-$j.out" 2>&1 ||
    die "zkfleet await $j: $(cat "$T/await-$j.out")"
done
verify_update "the CLI job's proof (snap-vproof.json)" "$T/out/job$JOB-proof.bin"
verify_update "the CLI job's proof (raw partition proof)" "$T/out/job$RJOB-proof.bin"
curl -s -m 60 -o "$T/proofs.bin" "$U/v1/jobs/$HJOB/proofs?format=raw"
cmp -s "$T/proofs.bin" "$T/out/job$HJOB-proof.bin" &&
  ok "GET /v1/jobs/ID/proofs?format=raw equals await's proof" || fail "GET proofs?format=raw differs from await's"
verify_update "the HTTP job's proof" "$T/proofs.bin"

# --- a sector sealed and updated here ------------------------------------------------------------
hex32() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
"$ZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --prover-id "$(hex32)" --sector $((RANDOM + 1)) \
  --ticket "$(hex32 | sed 's/..$/0a/')" --seed "$(hex32)" --random 11 --out "$T/sealed" >"$T/seal.log" 2>&1 ||
  die "zkfleet filecoin seal: $(cat "$T/seal.log")"
"$ZK" filecoin update --registered-update-proof $UPROOF --sector-key "$T/sealed" --random 12 \
  --out "$T/updated" >"$T/update.log" 2>&1 || die "zkfleet filecoin update: $(cat "$T/update.log")"
comm() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$T/updated/update.json" "$1"; }
U_OLD="$(comm comm_r_old)" U_NEW="$(comm comm_r_new)" U_D="$(comm comm_d_new)"
SJOB="$("$ZK" submit --config "$CFG" --circuit snap2k --vanilla "$T/updated/vanilla.json" \
  --comm-r-old "$U_OLD" --comm-r-new "$U_NEW" --comm-d-new "$U_D" 2>"$T/submit3.err")" ||
  die "zkfleet submit (sealed here): $(cat "$T/submit3.err")"
"$ZK" await --config "$CFG" "$SJOB" --out "$T/out" --timeout 900 >"$T/await-$SJOB.out" 2>&1 ||
  die "zkfleet await $SJOB: $(cat "$T/await-$SJOB.out")"
verify_update "a sector sealed and updated in this test" "$T/out/job$SJOB-proof.bin" "$U_OLD" "$U_NEW" "$U_D"
# The same update by `zkfleet filecoin prove-update` on this host, with the provers' parameters.
"$ZK" filecoin prove-update --registered-update-proof $UPROOF --vanilla "$T/updated/vanilla.json" \
  --comm-r-old "$U_OLD" --comm-r-new "$U_NEW" --comm-d-new "$U_D" --params "$PARAMS" \
  --out "$T/prove-update.bin" >"$T/prove-update.log" 2>&1 ||
  fail "zkfleet filecoin prove-update of the update made here: $(tail -c 400 "$T/prove-update.log")"
verify_update "prove-update of the sector sealed and updated in this test" "$T/prove-update.bin" "$U_OLD" "$U_NEW" "$U_D"

# --- Curio's gRPC call -------------------------------------------------------------------------
. "$(dirname "${BASH_SOURCE[0]}")/../grpcapi/client_lib.sh"
if (need_grpc_client) >/dev/null 2>&1; then
  need_grpc_client
  client "$G" prove --snap-vproof "$F/snap-vproof.json" --registered-proof 0 --miner 1000 --sector 7 \
    --comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW" --out "$T/grpc.proof" >"$T/grpc.json" 2>&1
  if [ "$(field "$T/grpc.json" code)" = OK ] && [ "$(field "$T/grpc.json" status)" = COMPLETED ] &&
    [ "$(field "$T/grpc.json" job_id)" = snap-1000-7 ]; then
    ok "gRPC SNAP_DEALS_UPDATE (request_id snap-1000-7): COMPLETED, $(field "$T/grpc.json" proof_len) bytes"
    verify_update "the gRPC job's proof" "$T/grpc.proof"
  else
    fail "gRPC SNAP_DEALS_UPDATE: $(cat "$T/grpc.json")"
  fi
  # The update made here too, as Curio would send it.
  client "$G" prove --snap-vproof "$T/updated/vanilla.json" --registered-proof 0 --miner 1000 --sector 8 \
    --comm-r-old "$U_OLD" --comm-r-new "$U_NEW" --comm-d-new "$U_D" --out "$T/grpc2.proof" >"$T/grpc2.json" 2>&1
  if [ "$(field "$T/grpc2.json" status)" = COMPLETED ]; then
    verify_update "the gRPC job's proof of the sector sealed and updated in this test" "$T/grpc2.proof" "$U_OLD" "$U_NEW" "$U_D"
  else
    fail "gRPC SNAP_DEALS_UPDATE of the update made here: $(cat "$T/grpc2.json")"
  fi
  client "$G" submit --snap-vproof "$F/snap-vproof.json" --registered-proof 0 --request-id snap-bad \
    --comm-r-old "$R_OLD" --comm-r-new "${R_NEW:0:62}" --comm-d-new "$D_NEW" >"$T/grpc-bad.json" 2>&1
  [ "$(field "$T/grpc-bad.json" code)" = INVALID_ARGUMENT ] && grep -q "comm_r_new must be 32 bytes, got 31" "$T/grpc-bad.json" &&
    ok "gRPC: a 31-byte comm_r_new is INVALID_ARGUMENT: $(field "$T/grpc-bad.json" details)" ||
    fail "gRPC with a 31-byte comm_r_new: $(cat "$T/grpc-bad.json")"
  client "$G" submit --snap-vproof "$F/snap-vproof.json" --registered-proof 0 --request-id snap-wrong \
    --comm-r-old "$R_OLD" --comm-r-new "$(flip0 "$R_NEW")" --comm-d-new "$D_NEW" >"$T/grpc-wrong.json" 2>&1
  [ "$(field "$T/grpc-wrong.json" code)" = INVALID_ARGUMENT ] &&
    grep -q '"vanilla_proofs: partition 0: ' "$T/grpc-wrong.json" && ! grep -q "sha256:" "$T/grpc-wrong.json" &&
    ok "gRPC: another comm_r_new is INVALID_ARGUMENT naming the field and partition: $(field "$T/grpc-wrong.json" details)" ||
    fail "gRPC with another comm_r_new: $(cat "$T/grpc-wrong.json")"
  client "$G" status >"$T/grpc-status.json" 2>&1
  grep -q '"snap-2k"' "$T/grpc-status.json" && ok "GetStatus: loaded_srs has snap-2k" ||
    fail "GetStatus: $(cat "$T/grpc-status.json")"
else
  echo "skipped: the gRPC half (no grpcio and grpcio-tools; scripts/deps installs them)"
fi

# --- what the synthesis node fetched, and the timeline -----------------------------------------
fetched="$(cat "$LOGS"/synth-*.log 2>/dev/null | grep -o 'fetched upload:sha256:[0-9a-f]*\.[a-z]*' | sort -u)"
if grep -q '\.fup$' <<<"$fetched" && ! grep -qv '\.fup$' <<<"$fetched"; then
  ok "the synthesis node fetched update partition inputs only: $(tr '\n' ' ' <<<"$fetched")"
else
  fail "the synthesis node fetched: $(tr '\n' ' ' <<<"$fetched")"
fi
"$ZK" timeline --config "$CFG" --format json >"$T/timeline.json" 2>"$T/timeline.err" ||
  fail "zkfleet timeline: $(cat "$T/timeline.err")"
python3 - "$T/timeline.json" >"$T/stages.txt" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
print(" ".join(sorted({e["stage"] for e in ev})))
PY
if grep -q snap_witness "$T/stages.txt" && grep -q snap_synthesize "$T/stages.txt" && grep -q snap_check "$T/stages.txt"; then
  ok "the timeline holds the update's synthesis stages: $(cat "$T/stages.txt")"
else
  fail "the timeline's stages: $(cat "$T/stages.txt") $(head -c 300 "$T/timeline.json")"
fi
finish
