#!/usr/bin/env bash
# zkfleet's C2 (`zkfleet filecoin prove`) checked by code no one here wrote (issue 24 item 6):
#
#   1. parameters for the 2 KiB circuit made by Filecoin's own code (the reference's `setup`,
#      bellperson generate_random_parameters, seed 7), cached outside the clone in
#      ${ZK_CACHE_DIR:-~/.cache/zkfleet}/filecoin-params/ref-<Cargo.lock key>-2kib-seed7
#      (made when absent: ~10 minutes of 2 cores, 5 GB of memory, 1.1 GB of disk);
#   2. a 2 KiB sector sealed by the reference (its C1), proved by zkfleet;
#   3. accepted by Filecoin's verify_seal (the reference's `verify`), by zkfleet's verifier and by
#      npm @noble/curves (tests/filecoin/noble_verify.js), and rejected by all three for another
#      sector; rejected for the verifying key of another seed (zkfleet's `filecoin setup
#      --vk-only`, whose keys the reference accepts: checked in bench/filecoin-c2);
#   4. refused before proving, nothing written, when the C1 is tampered with (a labeling proof's
#      parent label, a comm_d leaf) or the prover id is another.
#
#   tests/filecoin/prove_vs_ref.sh build/zkfleet
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init prove_vs_ref "${1:-}"
need_ref

need_noble

# The reference's 2 KiB parameters and a sector it sealed (PARAMS, VK, PROOF, PROVER, SECTOR, C1).
. "$(dirname "${BASH_SOURCE[0]}")/ref_c2.sh"
args=(--registered-proof $PROOF --prover-id "$PROVER" --ticket "$(c1_hex "$C1" ticket)"
  --seed "$(c1_hex "$C1" seed)" --comm-r "$(c1_hex "$C1" comm_r)" --comm-d "$(c1_hex "$C1" comm_d)")

# --- prove and check ------------------------------------------------------------------------------
if out="$("$ZK" filecoin prove --c1 "$C1" --params "$PARAMS" --vk "$VK" --prover-id "$PROVER" \
  --sector $SECTOR --out "$T/zk.proof" --timings 2>"$T/timings")" && [ "$(stat -c %s "$T/zk.proof")" = 192 ]; then
  ok "zkfleet filecoin prove: $out"
  sed 's/^/     /' "$T/timings"
else
  die "zkfleet filecoin prove: $out $(cat "$T/timings")"
fi
for sector in $SECTOR $((SECTOR + 1)); do
  want=$([ $sector = $SECTOR ] && echo 0 || echo 1)
  rrc=0 zrc=0 nrc=0
  "$REF" verify --vk "$VK" --proof "$T/zk.proof" "${args[@]}" --sector $sector >"$T/ref.json" 2>&1 || rrc=$?
  "$ZK" filecoin verify --vk "$VK" --proof "$T/zk.proof" "${args[@]}" --sector $sector \
    --print-public-inputs >"$T/inputs.txt" 2>"$T/zk.txt" || zrc=$?
  nout="$(node "$ROOT/tests/filecoin/noble_verify.js" "$VK" "$T/zk.proof" "$T/inputs.txt" 2>&1)" || nrc=$?
  what="sector $sector: Filecoin's verify_seal exit $rrc, zkfleet verify exit $zrc, @noble/curves exit $nrc"
  if [ $rrc = $want ] && [ $zrc = $want ] && [ $nrc = $want ]; then
    ok "$what (expected $want; noble: $nout)"
  else
    fail "$what, expected $want: $(cat "$T/zk.txt") / $nout / $(grep -m1 '"error"' "$T/ref.json")"
  fi
done

# Another seed's verifying key (zkfleet's development setup, the key alone) rejects the proof.
if "$ZK" filecoin setup --registered-proof $PROOF --seed 8 --vk-only --out "$T/seed8" >"$T/setup8.txt" 2>&1; then
  rrc=0 zrc=0 nrc=0
  "$REF" verify --vk "$T/seed8/$PROOF.vk" --proof "$T/zk.proof" "${args[@]}" --sector $SECTOR >/dev/null 2>&1 || rrc=$?
  "$ZK" filecoin verify --vk "$T/seed8/$PROOF.vk" --proof "$T/zk.proof" "${args[@]}" --sector $SECTOR \
    --print-public-inputs >"$T/inputs.txt" 2>/dev/null || zrc=$?
  node "$ROOT/tests/filecoin/noble_verify.js" "$T/seed8/$PROOF.vk" "$T/zk.proof" "$T/inputs.txt" >/dev/null 2>&1 || nrc=$?
  if [ $rrc = 1 ] && [ $zrc = 1 ] && [ $nrc = 1 ]; then
    ok "the seed-8 key rejects the seed-7 proof (Filecoin, zkfleet, @noble/curves all exit 1)"
  else
    fail "the seed-8 key: Filecoin exit $rrc, zkfleet exit $zrc, @noble/curves exit $nrc (expected 1)"
  fi
else
  fail "zkfleet filecoin setup --vk-only: $(tail -n 3 "$T/setup8.txt")"
fi

# --- refusals: nothing proved, nothing written ------------------------------------------------------
refused() {  # name, c1 file, prover id, what the reason must mention
  local name="$1" c1="$2" prover="$3" want="$4" rc=0 out
  rm -f "$T/refused.proof"
  out="$("$ZK" filecoin prove --c1 "$c1" --params "$PARAMS" --prover-id "$prover" --sector $SECTOR \
    --out "$T/refused.proof" 2>&1)" || rc=$?
  if [ $rc = 1 ] && [ ! -e "$T/refused.proof" ] && [ ! -e "$T/refused.proof.partial" ] &&
    grep -q "REFUSED" <<<"$out" && grep -q -- "$want" <<<"$out"; then
    ok "$name: refused, nothing written ($out)"
  else
    fail "$name: exit $rc, expected 1 with REFUSED and '$want': $out"
  fi
}
tamper() {  # python expression on v (the first proof of partition 0), output file
  python3 - "$C1" "$2" "$1" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1]))
v = next(iter(c1["vanilla_proofs"].values()))[0][0]
exec(sys.argv[3])
json.dump(c1, open(sys.argv[2], "w"), separators=(",", ":"))
EOF
}
tamper 'p = v["labeling_proofs"][1]["parents"][3]; p[0] ^= 1' "$T/label.json"
refused "a labeling proof's parent label changed" "$T/label.json" "$PROVER" "challenge 0"
tamper 'l = v["comm_d_proofs"]["data"]["Single"]["leaf"]; l[0] ^= 1' "$T/leaf.json"
refused "a comm_d leaf changed" "$T/leaf.json" "$PROVER" "challenge 0"
OTHER="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
refused "another prover id" "$C1" "$OTHER" "replica_id"
finish
