#!/usr/bin/env bash
# zkfleet filecoin prove-update end to end without the Rust reference (CTest filecoin/prove-update):
# zkfleet's development parameters of the 2 KiB update circuit (`zkfleet filecoin setup
# --registered-update-proof StackedDrg2KiBV1 --seed 1`, cached in
# ${ZK_CACHE_DIR:-~/.cache/zkfleet}/filecoin-params/: ~2 minutes the first time), the vanilla proofs
# Filecoin's own 19.1.0 code made (tests/fixtures/filecoin/snap-2k: snap-vproof.json, the
# commitments in golden.txt) proved into 192 bytes that `zkfleet filecoin verify-update` and npm
# @noble/curves (code no one here wrote) accept with the development key and reject for
# comm_r_new[0] ^ 1; --timings names every stage; the refusals before any proving write nothing
# and name the partition and the check: another commitment, a changed leaf, vanilla proofs of
# another size; bad input and usage. Filecoin's own verifier and prover on the same parameters:
# tests/filecoin/prove_update_vs_ref.sh (it needs cargo).
#
#   tests/filecoin/prove_update.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/snap_lib.sh"
harness_init prove_update "${1:-}"
need_noble

PROOF=StackedDrg2KiBV1
snap_2k
snap_dev_params $PROOF

P=("$ZK" filecoin prove-update --registered-update-proof $PROOF --params "$PARAMS")
C=(--comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW")
V=("$ZK" filecoin verify-update --registered-update-proof $PROOF --vk "$VK")

# --- prove: every stage named, with where it ran ---------------------------------------------
if out="$("${P[@]}" --vanilla "$F/snap-vproof.json" "${C[@]}" --out "$T/zk.proof" --timings \
  2>"$T/timings")" && [ "$(stat -c %s "$T/zk.proof")" = 192 ]; then
  ok "zkfleet filecoin prove-update: $out"
  sed 's/^/     /' "$T/timings"
else
  die "zkfleet filecoin prove-update: $out $(cat "$T/timings")"
fi
for stage in vanilla params synthesis satisfied compute_h msm_a msm_b1 msm_b2 msm_c msm_h \
  assemble partition verify sector; do
  if grep -qE "^ *$stage +[0-9.]+ s" "$T/timings"; then
    ok "--timings: $stage"
  else
    fail "--timings has no line for $stage"
  fi
done
grep -q "1705039 constraints" "$T/timings" && ok "--timings: the circuit's 1,705,039 constraints" ||
  fail "--timings: no '1705039 constraints'"

# --- verified by verify-update and by @noble/curves; not for another comm_r_new ---------------
for r_new in "$R_NEW" "$R_NEW_FLIPPED"; do
  want=$([ "$r_new" = "$R_NEW" ] && echo 0 || echo 1)
  zrc=0 nrc=0
  "${V[@]}" --proof "$T/zk.proof" --comm-r-old "$R_OLD" --comm-r-new "$r_new" --comm-d-new "$D_NEW" \
    --print-public-inputs >"$T/inputs.txt" 2>"$T/zk.txt" || zrc=$?
  nout="$(node "$ROOT/tests/filecoin/noble_verify.js" "$VK" "$T/zk.proof" "$T/inputs.txt" 2>&1)" || nrc=$?
  if [ $zrc = $want ] && [ $nrc = $want ] && [ "$(wc -l <"$T/inputs.txt")" = 4 ]; then
    ok "comm_r_new $r_new: verify-update exit $zrc, @noble/curves exit $nrc (expected $want)"
  else
    fail "comm_r_new $r_new: verify-update exit $zrc, @noble/curves exit $nrc, expected $want: $(cat "$T/zk.txt") / $nout"
  fi
done
# Filecoin's proof of the same update (made with Filecoin's own parameters) does not verify with
# the development key, nor zkfleet's with Filecoin's key: the key is the parameters'.
expect "zkfleet's proof rejected by the fixture's key (other parameters)" 1 "INVALID:" -- \
  "$ZK" filecoin verify-update --registered-update-proof $PROOF --vk "$F/update.vk" \
  --proof "$T/zk.proof" "${C[@]}"

# --- the raw bincode form: the same statement proved ------------------------------------------
expect "the raw bincode partition proof (vanilla-0.bin) proved" 0 "OK: the update proof of $PROOF" -- \
  "${P[@]}" --vanilla "$F/vanilla-0.bin" "${C[@]}" --out "$T/raw.proof"
expect "its proof verifies" 0 "OK: the update proof is valid" -- \
  "${V[@]}" --proof "$T/raw.proof" "${C[@]}"

# --- refusals: nothing written, the partition and the check named -----------------------------
python3 - "$F/vanilla-0.bin" "$T" <<'PY'
import sys
raw, t = open(sys.argv[1], "rb").read(), sys.argv[2]
assert len(raw) == 15064
# Challenge 2's proof_r_new leaf: challenges start at 304, 1476 bytes each (proof_r_old 556,
# proof_d_new 364, then proof_r_new: variant u32, root 32, leaf 32); bit 0 of its low byte.
at = 304 + 2 * 1476 + 556 + 364 + 4 + 32
leaf = bytearray(raw); leaf[at] ^= 1
open(t + "/leaf.bin", "wb").write(bytes(leaf))
open(t + "/short.bin", "wb").write(raw[:-1])
PY
refused() {  # LABEL NEEDLE ARGS...: exit 1, REFUSED with NEEDLE, no --out file
  local label="$1" needle="$2"
  shift 2
  rm -f "$T/refused.proof"
  expect "$label" 1 "$needle" -- "$@" --out "$T/refused.proof"
  [ ! -e "$T/refused.proof" ] && ok "$label: nothing written" || fail "$label: $T/refused.proof written"
}
refused "another comm_r_new refused" \
  "REFUSED: the vanilla proofs of $F/snap-vproof.json: partition 0: H(comm_c, root of TreeR new) is not comm_r_new $R_NEW_FLIPPED (nothing written)" \
  "${P[@]}" --vanilla "$F/snap-vproof.json" --comm-r-old "$R_OLD" --comm-r-new "$R_NEW_FLIPPED" \
  --comm-d-new "$D_NEW"
refused "comm_r_old and comm_d_new exchanged refused" \
  "partition 0: H(comm_c, root of TreeR old) is not comm_r_old" \
  "${P[@]}" --vanilla "$F/snap-vproof.json" --comm-r-old "$D_NEW" --comm-r-new "$R_NEW" \
  --comm-d-new "$R_OLD"
refused "a changed leaf refused by its partition, challenge and opening" \
  "REFUSED: the vanilla proofs of $T/leaf.bin: partition 0: challenge 2 (node 60): proof_r_new:" \
  "${P[@]}" --vanilla "$T/leaf.bin" "${C[@]}"
refused "a short vanilla proof refused" "short.bin: 15063 bytes" \
  "${P[@]}" --vanilla "$T/short.bin" "${C[@]}"
refused "2 KiB vanilla proofs as 8 MiB refused" "snap-vproof.json: 1 partition proofs, the sector has 4" \
  "$ZK" filecoin prove-update --registered-update-proof StackedDrg8MiBV1 --params "$PARAMS" \
  --vanilla "$F/snap-vproof.json" "${C[@]}"
refused "a missing vanilla file refused" "missing.json: cannot open" \
  "${P[@]}" --vanilla "$T/missing.json" "${C[@]}"
refused "a verifying key as the parameters refused" "update.vk: a .vk file (the verifying key), not the .params" \
  "$ZK" filecoin prove-update --registered-update-proof $PROOF --params "$F/update.vk" \
  --vanilla "$F/snap-vproof.json" "${C[@]}"
refused "comm_d_new not below r refused" "comm_d_new is not a field element" \
  "${P[@]}" --vanilla "$F/snap-vproof.json" --comm-r-old "$R_OLD" --comm-r-new "$R_NEW" \
  --comm-d-new ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
refused "a short HEX: bad input" "--comm-r-new: needs 64 hex digits" \
  "${P[@]}" --vanilla "$F/snap-vproof.json" --comm-r-old "$R_OLD" --comm-r-new 0c0c \
  --comm-d-new "$D_NEW"
expect "an unknown update proof: bad input" 1 "unknown registered update proof 'StackedDrg2KiBV1_1'" -- \
  "$ZK" filecoin prove-update --registered-update-proof StackedDrg2KiBV1_1 --params "$PARAMS" \
  --vanilla "$F/snap-vproof.json" "${C[@]}" --out "$T/x.proof"
expect "no --vanilla, no --out: usage, both named" 2 "--vanilla FILE, --out FILE are required" -- \
  "${P[@]}" "${C[@]}"
finish
