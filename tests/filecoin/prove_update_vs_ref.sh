#!/usr/bin/env bash
# zkfleet filecoin prove-update against Filecoin's own code, on the same parameters (zkfleet's
# development parameters of the 2 KiB update circuit, cached as tests/filecoin/prove_update.sh
# makes them) and the same vanilla proofs (tests/fixtures/filecoin/snap-2k, made by Filecoin
# 19.1.0): Filecoin's verify_empty_sector_update_proof (`filecoin-ref update-verify`) accepts
# zkfleet's proof with zkfleet's key and rejects it for comm_r_new[0] ^ 1; Filecoin's prover
# (`filecoin-ref update-prove`: generate_empty_sector_update_proof_with_vanilla, the call Curio
# and cuzk make) proves the same update with zkfleet's .params into a proof `zkfleet filecoin
# verify-update` accepts — both sides read the parameters and derive the public inputs alike.
#
#   tests/filecoin/prove_update_vs_ref.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/snap_lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init prove_update_vs_ref "${1:-}"
need_ref
PROOF=StackedDrg2KiBV1
snap_2k
snap_dev_params $PROOF
C=(--comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW")
CF=(--comm-r-old "$R_OLD" --comm-r-new "$R_NEW_FLIPPED" --comm-d-new "$D_NEW")

if out="$("$ZK" filecoin prove-update --registered-update-proof $PROOF --vanilla "$F/snap-vproof.json" \
  "${C[@]}" --params "$PARAMS" --out "$T/zk.proof" 2>&1)"; then
  ok "zkfleet filecoin prove-update: $out"
else
  die "zkfleet filecoin prove-update: $out"
fi
expect "Filecoin's verifier accepts zkfleet's proof with zkfleet's key" 0 '"valid": true' -- \
  "$REF" update-verify --registered-update-proof $PROOF --vk "$VK" --proof "$T/zk.proof" "${C[@]}"
expect "Filecoin's verifier rejects it for comm_r_new[0] ^ 1" 1 '"valid": false' -- \
  "$REF" update-verify --registered-update-proof $PROOF --vk "$VK" --proof "$T/zk.proof" "${CF[@]}"

if EXPECT_TIMEOUT=1500 expect "Filecoin's prover proves the same update with zkfleet's .params" 0 \
  '"proof_bytes": 192' -- "$REF" update-prove --registered-update-proof $PROOF \
  --vanilla "$F/snap-vproof.json" "${C[@]}" --params "$PARAMS" --out "$T/ref.proof"; then
  expect "zkfleet's verify-update accepts Filecoin's proof" 0 "OK: the update proof is valid" -- \
    "$ZK" filecoin verify-update --registered-update-proof $PROOF --vk "$VK" --proof "$T/ref.proof" "${C[@]}"
  expect "and rejects it for comm_r_new[0] ^ 1" 1 "INVALID:" -- \
    "$ZK" filecoin verify-update --registered-update-proof $PROOF --vk "$VK" --proof "$T/ref.proof" "${CF[@]}"
  expect "Filecoin's verifier accepts its own proof" 0 '"valid": true' -- \
    "$REF" update-verify --registered-update-proof $PROOF --vk "$VK" --proof "$T/ref.proof" "${C[@]}"
fi
finish
