#!/usr/bin/env bash
# Filecoin C2 through a 5-process loopback cluster (issue 24 item 5, the done-when's cluster half):
#
#   scheduler (HTTP), 2 synthesis nodes, 2 prover nodes each mapping the 2 KiB parameters made by
#   Filecoin's own code (the reference's `setup`, bellperson's random parameters, seed 7: the cache
#   tests/filecoin/prove_vs_ref.sh makes) into its budget;
#   a 2 KiB sector sealed by the reference (its C1), submitted by `zkfleet submit` and over HTTP
#   (POST /v1/jobs with the C1 wrapped as lotus-bench writes it);
#   `zkfleet await` writes the sector's proof; Filecoin's verify_seal (the reference's `verify`)
#   and `zkfleet filecoin verify` accept it, and reject it for another sector; the HTTP job's proof
#   (GET /v1/jobs/ID/proofs, hex and raw) equals await's; the wrong sector is refused at submit,
#   over both; the timeline holds the PoRep synthesis stages and the stats name the bottleneck;
#   two jobs on `wire: auto` cross on the wires the scheduler chose (WIRE_PACKED / WIRE_FULL on the
#   timeline, the bytes that wire's, the reason in the scheduler's log): packed on the 10 GbE prior,
#   full for a circuit whose link_per_s says 1 TiB/s; both proofs accepted.
#
#   tests/filecoin/cluster.sh build/zkfleet
#
# Skipped (77) without cargo (no reference) or curl.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init filecoin_cluster "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"
need_ref

# The reference's 2 KiB parameters and a sector it sealed (PARAMS, VK, PROOF, PROVER, SECTOR, C1).
. "$(dirname "${BASH_SOURCE[0]}")/ref_c2.sh"
VARGS=(--registered-proof $PROOF --prover-id "$PROVER" --ticket "$(c1_hex "$C1" ticket)"
  --seed "$(c1_hex "$C1" seed)" --comm-r "$(c1_hex "$C1" comm_r)" --comm-d "$(c1_hex "$C1" comm_d)")
# The lotus-bench wrapper of the same C1 (for the HTTP job).
python3 - "$C1" "$SECTOR" >"$T/c1-wrapped.json" <<'EOF'
import base64, json, sys
raw = open(sys.argv[1], "rb").read()
print(json.dumps({"SectorNum": int(sys.argv[2]), "Phase1Out": base64.b64encode(raw).decode(),
                  "SectorSize": 2048}))
EOF

# --- the cluster: scheduler, 2 synthesis nodes, 2 provers with the parameters resident --------
cluster_new fc insecure
take_port HTTP
U="http://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "stage_timeout: 10m"
# fc2k on the packed wire (the default: the witness packed, a, b, c rebuilt by the prover),
# fc2k-full on today's buffer (a, b, c and the witness): the HTTP job goes there; fc2k-auto and
# fc2k-fast on the wire the scheduler picks per partition: fc2k-auto with the 10 GbE prior (2 KiB:
# the 344 MB full buffer against a 0.1 s rebuild: packed), fc2k-fast told its link carries 1 TiB/s
# (full). Their parameters on one prover each (memory).
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK}" \
  "  fc2k-full: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK, wire: full}" \
  "  fc2k-auto: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK, wire: auto}" \
  "  fc2k-fast: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK, wire: auto, link_per_s: 1TiB}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node synth-2 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node prover-1 prover "resources: {cores: 2, memory_budget: 5GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS, fc2k-full: $PARAMS, fc2k-fast: $PARAMS}"
yaml_node prover-2 prover "resources: {cores: 2, memory_budget: 5GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS, fc2k-full: $PARAMS, fc2k-auto: $PARAMS}"
cluster_up
wait_ready 900 || die "the cluster did not become ready"
ok "5 processes up, both provers with the 2 KiB parameters resident"

# The prover's budget: the parameters come out of it (it declares the rest).
"$ZK" status --config "$CFG" >"$T/status.txt" 2>&1
if grep -E '^prover-1 ' "$T/status.txt" | grep -q 'GiB' && ! grep -E '^prover-1 ' "$T/status.txt" | grep -q ' 4 GiB'; then
  ok "prover-1 declares its budget less the resident parameters: $(grep -E '^prover-1 ' "$T/status.txt" | tr -s ' ')"
else
  fail "prover-1's budget: $(cat "$T/status.txt")"
fi

# --- the wrong sector is refused at submit ----------------------------------------------------
if out="$("$ZK" submit --config "$CFG" --circuit fc2k --c1 "$C1" --prover-id "$PROVER" \
  --sector "$((SECTOR + 1))" 2>&1)"; then
  fail "a C1 submitted with the wrong sector was accepted: $out"
else
  # The refusal names the user's file, not the store's name of its upload.
  case "$out" in *"$C1: the C1's replica_id"*"wrong prover id or sector"*) ok "wrong sector refused by submit: $out" ;;
    *) fail "wrong sector refused, but not for that: $out" ;; esac
fi
code="$(curl -s -m 60 -o "$T/bad.body" -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @"$T/c1-wrapped.json" "$U/v1/jobs?circuit=fc2k&prover_id=$PROVER&sector=$((SECTOR + 1))")"
if [ "$code" = 400 ] && grep -qE 'wrong prover id or sector|SectorNum is [0-9]+, not sector [0-9]+' "$T/bad.body"; then
  ok "wrong sector refused over HTTP (400): $(cat "$T/bad.body")"
else
  fail "wrong sector over HTTP: $code $(cat "$T/bad.body")"
fi

# --- a job by the CLI, a job over HTTP ---------------------------------------------------------
# The C1 under a name that does not end in .json: it is uploaded as JSON all the same.
cp "$C1" "$T/sector.c1"
JOB="$("$ZK" submit --config "$CFG" --circuit fc2k --c1 "$T/sector.c1" --prover-id "$PROVER" \
  --sector "$SECTOR" 2>"$T/submit.err")" || die "zkfleet submit: $(cat "$T/submit.err")"
ok "submitted by the CLI: job $JOB"
code="$(curl -s -m 60 -o "$T/post.body" -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @"$T/c1-wrapped.json" "$U/v1/jobs?circuit=fc2k-full&prover_id=$PROVER&sector=$SECTOR")"
HJOB="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/post.body" 2>/dev/null)"
[ "$code" = 201 ] && [ -n "$HJOB" ] && ok "submitted over HTTP (the lotus wrapper as the body): job $HJOB" ||
  die "POST /v1/jobs: $code $(cat "$T/post.body")"
AJOB="$("$ZK" submit --config "$CFG" --circuit fc2k-auto --c1 "$C1" --prover-id "$PROVER" \
  --sector "$SECTOR" 2>"$T/submit3.err")" || die "zkfleet submit (wire: auto): $(cat "$T/submit3.err")"
FJOB="$("$ZK" submit --config "$CFG" --circuit fc2k-fast --c1 "$C1" --prover-id "$PROVER" \
  --sector "$SECTOR" 2>"$T/submit4.err")" || die "zkfleet submit (wire: auto, fast link): $(cat "$T/submit4.err")"

start=$(date +%s.%N)
"$ZK" await --config "$CFG" "$JOB" --out "$T/out" --timeout 900 >"$T/await.out" 2>&1 ||
  die "zkfleet await: $(cat "$T/await.out")"
"$ZK" await --config "$CFG" "$HJOB" --out "$T/out" --timeout 900 >"$T/await2.out" 2>&1 ||
  die "zkfleet await (HTTP job): $(cat "$T/await2.out")"
"$ZK" await --config "$CFG" "$AJOB" --out "$T/out" --timeout 900 >"$T/await3.out" 2>&1 ||
  die "zkfleet await (wire: auto): $(cat "$T/await3.out")"
"$ZK" await --config "$CFG" "$FJOB" --out "$T/out" --timeout 900 >"$T/await4.out" 2>&1 ||
  die "zkfleet await (wire: auto, fast link): $(cat "$T/await4.out")"
end=$(date +%s.%N)
P="$T/out/job$JOB-proof.bin"
if [ "$(stat -c %s "$P" 2>/dev/null)" = 192 ] &&
  [ "$(cat "$T/out/job$JOB-proof.hex")" = "$(od -An -tx1 -v "$P" | tr -d ' \n')" ]; then
  ok "await wrote the sector's proof, raw (192 bytes) and hex: $(cat "$T/await.out")"
else
  fail "await's proof files: $(ls -l "$T/out") $(cat "$T/await.out")"
fi

# --- Filecoin's verifier and zkfleet's: accepted for the sector, rejected for another ----------
for sector in $SECTOR $((SECTOR + 1)); do
  want=$([ $sector = $SECTOR ] && echo 0 || echo 1)
  rrc=0 zrc=0
  "$REF" verify --vk "$VK" --proof "$P" "${VARGS[@]}" --sector $sector >"$T/ref.json" 2>&1 || rrc=$?
  "$ZK" filecoin verify --vk "$VK" --proof "$P" "${VARGS[@]}" --sector $sector >"$T/zk.txt" 2>&1 || zrc=$?
  if [ $rrc = $want ] && [ $zrc = $want ]; then
    ok "sector $sector: Filecoin's verify_seal exit $rrc, zkfleet filecoin verify exit $zrc"
  else
    fail "sector $sector: Filecoin's verify_seal exit $rrc, zkfleet exit $zrc, expected $want: $(cat "$T/zk.txt") $(grep -m1 error "$T/ref.json")"
  fi
done
# Each synthesis node fetched its partition's input (.fcp, made at intake), never a C1.
fetched="$(cat "$LOGS"/synth-*.log 2>/dev/null | grep -o 'fetched upload:sha256:[0-9a-f]*\.[a-z]*' | sort -u)"
if grep -q '\.fcp$' <<<"$fetched" && ! grep -qv '\.fcp$' <<<"$fetched"; then
  ok "the synthesis nodes fetched partition inputs only: $(tr '\n' ' ' <<<"$fetched")"
else
  fail "the synthesis nodes fetched: $(tr '\n' ' ' <<<"$fetched")"
fi
HP="$T/out/job$HJOB-proof.bin"
rrc=0
"$REF" verify --vk "$VK" --proof "$HP" "${VARGS[@]}" --sector $SECTOR >"$T/ref2.json" 2>&1 || rrc=$?
[ $rrc = 0 ] && ok "the HTTP job's proof (wire: full): Filecoin's verify_seal accepts it" ||
  fail "the HTTP job's proof: verify_seal exit $rrc: $(grep -m1 error "$T/ref2.json")"
rrc=0
"$REF" verify --vk "$VK" --proof "$T/out/job$AJOB-proof.bin" "${VARGS[@]}" --sector $SECTOR \
  >"$T/ref3.json" 2>&1 || rrc=$?
[ $rrc = 0 ] && ok "the wire: auto job's proof: Filecoin's verify_seal accepts it" ||
  fail "the wire: auto job's proof: verify_seal exit $rrc: $(grep -m1 error "$T/ref3.json")"
rrc=0
"$REF" verify --vk "$VK" --proof "$T/out/job$FJOB-proof.bin" "${VARGS[@]}" --sector $SECTOR \
  >"$T/ref4.json" 2>&1 || rrc=$?
[ $rrc = 0 ] && ok "the wire: auto (fast link) job's proof: Filecoin's verify_seal accepts it" ||
  fail "the wire: auto (fast link) job's proof: verify_seal exit $rrc: $(grep -m1 error "$T/ref4.json")"

# --- GET /v1/jobs/ID/proofs: the sector proof, hex and raw, equal to await's -------------------
curl -s -m 60 -o "$T/proofs.json" "$U/v1/jobs/$HJOB/proofs"
curl -s -m 60 -o "$T/proofs.bin" "$U/v1/jobs/$HJOB/proofs?format=raw"
HEX="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sector_proof"])' "$T/proofs.json" 2>/dev/null)"
if [ "$HEX" = "$(cat "$T/out/job$HJOB-proof.hex")" ] && cmp -s "$T/proofs.bin" "$HP"; then
  ok "GET /v1/jobs/ID/proofs: the sector proof (hex, and raw with ?format=raw) equals await's"
else
  fail "GET /v1/jobs/ID/proofs: $(head -c 400 "$T/proofs.json")"
fi

# --- the timeline: the PoRep synthesis stages, the prover's, and the bottleneck sentence -------
"$ZK" timeline --config "$CFG" --format json >"$T/timeline.json" 2>"$T/timeline.err"
"$ZK" timeline --config "$CFG" --format stats >"$T/stats.txt" 2>>"$T/timeline.err"
python3 - "$T/timeline.json" >"$T/stages.txt" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
open_ = {}
spans = {}
for e in ev:
    k = (e["job"], e["partition"], e["stage"], e["node"], e["track"])
    if e["phase"] == "begin": open_[k] = e["t_ns"]
    elif e["phase"] == "end" and k in open_:
        spans.setdefault(e["stage"], []).append((e["t_ns"] - open_.pop(k)) / 1e9)
for s in ["SYNTH", "porep_witness", "porep_synthesize", "porep_check", "XFER", "GPU",
          "build_ab", "compute_h", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h"]:
    v = sorted(spans.get(s, []))
    if v: print("%s %d %.3f" % (s, len(v), v[len(v) // 2]))
EOF
# What crossed the data plane: the packed job's partition against the full one's (the timeline
# numbers jobs in the order they came: the CLI's, on the packed wire, first).
python3 - "$T/timeline.json" >"$T/xfer.txt" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
bytes_of = {}
for e in ev:
    if e["stage"] == "XFER":
        bytes_of[e["job"]] = max(bytes_of.get(e["job"], 0), e.get("bytes", 0))
wire = {e["job"]: e["stage"][5:].lower() for e in ev if e["stage"] in ("WIRE_PACKED", "WIRE_FULL")}
for job in sorted(bytes_of):
    print(job, bytes_of[job], wire.get(job, "-"))
EOF
read -r _ packed_bytes packed_wire < <(sed -n 1p "$T/xfer.txt")
read -r _ full_bytes full_wire < <(sed -n 2p "$T/xfer.txt")
read -r _ auto_bytes auto_wire < <(sed -n 3p "$T/xfer.txt")
read -r _ fast_bytes fast_wire < <(sed -n 4p "$T/xfer.txt")
if [ "${packed_bytes:-0}" -gt 0 ] && [ "${full_bytes:-0}" -gt $((20 * packed_bytes)) ]; then
  ok "on the wire: $packed_bytes bytes for the packed partition, $full_bytes for the full buffer"
else
  fail "on the wire: packed ${packed_bytes:-?}, full ${full_bytes:-?} ($(tr '\n' ' ' <"$T/xfer.txt"))"
fi
# wire: auto: the scheduler's choice on the timeline (on those jobs only), the bytes that wire's,
# the reason in its log, the count in the stats: packed with the 10 GbE prior, full on the link
# fc2k-fast declares.
chosen="$(grep -ho 'wire \(packed\|full\)[^:]*: full [^)]*)' "$LOGS"/scheduler*.log 2>/dev/null)"
if [ "$packed_wire$full_wire" = -- ] && [ "$auto_wire" = packed ] && [ "${auto_bytes:-0}" = "$packed_bytes" ] &&
  [ "$fast_wire" = full ] && [ "${fast_bytes:-0}" = "$full_bytes" ] &&
  grep -q '^wire packed' <<<"$chosen" && grep -q '^wire full' <<<"$chosen" &&
  grep -qx "wire (auto): partitions packed 1, full 1" "$T/stats.txt"; then
  ok "wire: auto: packed on the prior ($auto_bytes bytes), full on a 1 TiB/s link ($fast_bytes bytes): $(tr '\n' ';' <<<"$chosen") stats: $(grep '^wire (auto)' "$T/stats.txt")"
else
  fail "wire: auto: chose '${auto_wire:-?}' ($auto_bytes bytes) and '${fast_wire:-?}' ($fast_bytes bytes), log '$chosen' ($(tr '\n' ' ' <"$T/xfer.txt")), stats '$(grep '^wire' "$T/stats.txt")'"
fi
if grep -q '^porep_synthesize ' "$T/stages.txt" && grep -q '^porep_check ' "$T/stages.txt" &&
  grep -q '^GPU ' "$T/stages.txt" && grep -q '^build_ab ' "$T/stages.txt"; then
  ok "timeline: the PoRep stages (count, median s): $(tr '\n' ';' <"$T/stages.txt")"
else
  fail "timeline: no PoRep stages: $(cat "$T/stages.txt" "$T/timeline.err")"
fi
# (demand: with four jobs on two provers, one prover waits for work once the others are placed)
if grep -Eq 'bottleneck: (prover|synthesis|transfer|pipeline|demand)-bound' "$T/stats.txt"; then
  ok "stats: $(grep bottleneck "$T/stats.txt")"
else
  fail "stats name no bottleneck: $(cat "$T/stats.txt")"
fi
echo "three C2 jobs through the cluster: $(python3 -c "print('%.1f' % ($end - $start))") s from the first await to the last"
finish
