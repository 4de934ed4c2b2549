#!/usr/bin/env bash
# zkfleet filecoin verify-update on the command line, without the Rust reference: the 2 KiB
# SnapDeals proof Filecoin's own 19.1.0 code made (tests/fixtures/filecoin/snap-2k: its
# verify_empty_sector_update_proof said true, and false for comm_r_new[0] ^= 1) accepted with
# exit 0; rejected with exit 1 for another comm_r_new, a changed proof byte or another key of the
# right shape; bad input (what filecoin-proofs answers with an error) refused with exit 2 and a
# message naming what: a proof of the wrong length, a key of the wrong shape, an unknown proof
# name, a commitment not below r; usage errors with exit 2. And `zkfleet filecoin setup
# --registered-update-proof NAME --vk-only`: the development key of zkfleet's update circuit has
# the update's shape (5 IC points, the reference key's 1,348 bytes), depends on the seed alone, and
# is not the key Filecoin's proof was made for.
#
#   tests/filecoin/update_cli.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_update_cli "${1:-}"

F="$ROOT/tests/fixtures/filecoin/snap-2k"
golden() { sed -n "s/^$1=\([0-9a-f]*\).*/\1/p" "$F/golden.txt" | head -1; }
R_OLD="$(golden comm_r_old)"
R_NEW="$(golden comm_r_new)"
D_NEW="$(golden comm_d_new)"
[ ${#R_OLD} = 64 ] && [ ${#R_NEW} = 64 ] && [ ${#D_NEW} = 64 ] || { fail "golden.txt: commitments"; finish; }

python3 - "$F" "$T" "$ROOT/tests/fixtures/filecoin/polka-2kib.json" <<'PY'
import json, sys
f, t = sys.argv[1], sys.argv[2]
# A 2 KiB PoRep key (polka-storage's): well formed, not the update's.
open(t + "/porep.vk", "wb").write(bytes.fromhex(json.load(open(sys.argv[3]))["verifying_key_hex_compressed"]))
vk = open(f + "/update.vk", "rb").read()
proof = open(f + "/update-proof.bin", "rb").read()
assert len(vk) == 1348 and len(proof) == 192
flipped = bytearray(proof); flipped[100] ^= 0x01   # a byte of B: a point no longer valid or another one
open(t + "/flipped.proof", "wb").write(bytes(flipped))
# A and C exchanged: a well-formed proof that does not verify.
swapped = proof[144:192] + proof[48:144] + proof[0:48]
open(t + "/swapped.proof", "wb").write(swapped)
open(t + "/short.proof", "wb").write(proof[:191])
neg = bytearray(proof); neg[0] ^= 0x20   # A's sign flag: -A, a valid point, an invalid proof
open(t + "/neg.proof", "wb").write(bytes(neg))
open(t + "/long.proof", "wb").write(proof + proof)
# The key with IC points 3 and 4 exchanged: a well-formed key of the right shape, another key.
head, ic = vk[:868], vk[868:]
pts = [ic[i * 96:(i + 1) * 96] for i in range(5)]
pts[3], pts[4] = pts[4], pts[3]
open(t + "/other.vk", "wb").write(head + b"".join(pts))
# A key of four IC points (count 4, last point dropped): not the update's key.
open(t + "/four.vk", "wb").write(vk[:864] + (4).to_bytes(4, "big") + ic[:4 * 96])
PY

flip_first_byte() {  # hex with byte 0 xored with 1
  printf '%02x%s' $((0x${1:0:2} ^ 1)) "${1:2}"
}
R_NEW_FLIPPED="$(flip_first_byte "$R_NEW")"

V=("$ZK" filecoin verify-update --registered-update-proof StackedDrg2KiBV1)
C=(--comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW")
expect "Filecoin's proof accepted" 0 "OK: the update proof is valid (StackedDrg2KiBV1, 1 partition)" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" "${C[@]}"
expect "comm_r_new[0] ^= 1 rejected" 1 "INVALID: the pairing check failed" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" \
  --comm-r-old "$R_OLD" --comm-r-new "$R_NEW_FLIPPED" --comm-d-new "$D_NEW"
expect "comm_r_old and comm_d_new exchanged rejected" 1 "INVALID:" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" \
  --comm-r-old "$D_NEW" --comm-r-new "$R_NEW" --comm-d-new "$R_OLD"
expect "A negated rejected" 1 "INVALID: the pairing check failed" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$T/neg.proof" "${C[@]}"
expect "A and C exchanged rejected" 1 "INVALID: the pairing check failed" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$T/swapped.proof" "${C[@]}"
expect "another key of the update's shape rejects it" 1 "INVALID: the pairing check failed" -- \
  "${V[@]}" --vk "$T/other.vk" --proof "$F/update-proof.bin" "${C[@]}"

# A flipped byte of B: either not a point of G2 (bad input, as bellperson's Proof::read) or a
# different point (invalid); never accepted.
"${V[@]}" --vk "$F/update.vk" --proof "$T/flipped.proof" "${C[@]}" >"$T/flipped.out" 2>&1
rc=$?
if [ "$rc" = 1 ] || { [ "$rc" = 2 ] && grep -q "flipped.proof: partition 0: B" "$T/flipped.out"; }; then
  ok "a flipped proof byte refused (exit $rc)"
else
  fail "a flipped proof byte: exit $rc: $(cat "$T/flipped.out")"
fi

expect "191 proof bytes: bad input" 2 "short.proof: 191 bytes: a proof is 192 bytes a partition" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$T/short.proof" "${C[@]}"
expect "384 proof bytes for one partition: bad input" 2 \
  "StackedDrg2KiBV1 has 1 partition(s): 192 proof bytes, got 384" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$T/long.proof" "${C[@]}"
expect "a 2 KiB proof as 8 MiB: bad input" 2 "StackedDrg8MiBV1 has 4 partition(s): 768 proof bytes, got 192" -- \
  "$ZK" filecoin verify-update --registered-update-proof StackedDrg8MiBV1 --vk "$F/update.vk" \
  --proof "$F/update-proof.bin" "${C[@]}"
expect "a key of 4 IC points: bad input" 2 "the verifying key has 4 IC points" -- \
  "${V[@]}" --vk "$T/four.vk" --proof "$F/update-proof.bin" "${C[@]}"
expect "a PoRep key is not the update's: bad input" 2 "IC points; an update proof's key has 5" -- \
  "${V[@]}" --vk "$T/porep.vk" --proof "$F/update-proof.bin" "${C[@]}"
expect "a missing key: bad input" 2 "missing.vk: cannot open" -- \
  "${V[@]}" --vk "$T/missing.vk" --proof "$F/update-proof.bin" "${C[@]}"
expect "an unknown update proof: bad input" 2 "unknown registered update proof 'StackedDrg2KiBV1_1'" -- \
  "$ZK" filecoin verify-update --registered-update-proof StackedDrg2KiBV1_1 --vk "$F/update.vk" \
  --proof "$F/update-proof.bin" "${C[@]}"
expect "comm_d_new not below r: bad input" 2 "comm_d_new is not a field element (not below r)" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" --comm-r-old "$R_OLD" \
  --comm-r-new "$R_NEW" --comm-d-new ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
expect "a short HEX: bad input" 2 "--comm-r-new: needs 64 hex digits" -- \
  "${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" --comm-r-old "$R_OLD" \
  --comm-r-new 0c0c --comm-d-new "$D_NEW"
expect "no --proof: usage" 2 "--proof FILE is required" -- "${V[@]}" --vk "$F/update.vk" "${C[@]}"
# --print-public-inputs: k_and_h_select = 1 (not 8), then the commitments as little-endian
# numbers, one a line on stdout; the verdict on stderr.
want="$(python3 -c "import sys; print(1); [print(int.from_bytes(bytes.fromhex(h), 'little')) for h in sys.argv[1:]]" \
  "$R_OLD" "$D_NEW" "$R_NEW")"
got="$("${V[@]}" --vk "$F/update.vk" --proof "$F/update-proof.bin" "${C[@]}" --print-public-inputs 2>/dev/null)"
if [ "$got" = "$want" ]; then ok "the public inputs printed"; else fail "the public inputs printed: $got (expected $want)"; fi

# Development keys of the update's circuit (zk/filecoin/update/circuit.hpp; NOT a ceremony).
S=("$ZK" filecoin setup --registered-update-proof StackedDrg2KiBV1 --vk-only)
expect "setup --registered-update-proof --vk-only" 0 "OK: $T/dev1/StackedDrg2KiBV1.vk" -- \
  "${S[@]}" --seed 1 --out "$T/dev1"
"${S[@]}" --seed 1 --out "$T/dev1b" >/dev/null 2>&1
"${S[@]}" --seed 2 --out "$T/dev2" >/dev/null 2>&1
check "the key is the reference key's size (1,348 bytes: 5 IC points)" \
  test "$(stat -c %s "$T/dev1/StackedDrg2KiBV1.vk")" = 1348
check "the same seed, the same key" cmp -s "$T/dev1/StackedDrg2KiBV1.vk" "$T/dev1b/StackedDrg2KiBV1.vk"
check "another seed, another key" bash -c "! cmp -s '$T/dev1/StackedDrg2KiBV1.vk' '$T/dev2/StackedDrg2KiBV1.vk'"
expect "Filecoin's proof does not verify with a development key (well formed: exit 1)" 1 \
  "INVALID: the pairing check failed" -- \
  "${V[@]}" --vk "$T/dev1/StackedDrg2KiBV1.vk" --proof "$F/update-proof.bin" "${C[@]}"
expect "setup with both circuits named: usage" 2 \
  "give one of --registered-proof NAME and --registered-update-proof NAME" -- \
  "${S[@]}" --registered-proof StackedDrg2KiBV1_1 --out "$T/both"
finish
