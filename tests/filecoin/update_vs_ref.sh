#!/usr/bin/env bash
# `zkfleet filecoin verify-update` and Filecoin's own verify_empty_sector_update_proof
# (`filecoin-ref update-verify`) on the 2 KiB SnapDeals proof Filecoin's code made
# (tests/fixtures/filecoin/snap-2k): the same exit status — 0 valid, 1 invalid, 2 an error — for
# the proof; for each commitment changed by one bit; for all-zero commitments (not refused by
# Filecoin); for well-formed proofs and keys that do not match (A negated, A and C exchanged, two
# IC points exchanged); for 24 random single-bit changes of the proof; and for the errors: a
# commitment not below r, proof bytes not 192 a partition, a key of 4 IC points, the proof under
# another update size. The reference's vanilla verifier (`filecoin-ref update-check-vanilla`,
# update::verify_partition_proofs) confirms the verdicts the C++ unit tests assume of the
# committed vanilla proofs.
#
#   tests/filecoin/update_vs_ref.sh <path-to-zkfleet> [SEED]
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init update_vs_ref "${1:-}"
need_ref
SEED="${2:-$RANDOM}"
echo "random seed $SEED (rerun: $0 $1 $SEED)"
F="$ROOT/tests/fixtures/filecoin/snap-2k"
golden() { sed -n "s/^$1=\([0-9a-f]*\).*/\1/p" "$F/golden.txt" | head -1; }
R_OLD="$(golden comm_r_old)"
R_NEW="$(golden comm_r_new)"
D_NEW="$(golden comm_d_new)"

python3 - "$F" "$T" "$SEED" <<'PY'
import random, sys
f, t, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
vk = open(f + "/update.vk", "rb").read()
proof = open(f + "/update-proof.bin", "rb").read()
open(t + "/swapped.proof", "wb").write(proof[144:192] + proof[48:144] + proof[0:48])
open(t + "/short.proof", "wb").write(proof[:191])
neg = bytearray(proof); neg[0] ^= 0x20   # A's sign flag: -A, a valid point, an invalid proof
open(t + "/neg.proof", "wb").write(bytes(neg))
open(t + "/long.proof", "wb").write(proof + proof)
head, ic = vk[:868], vk[868:]
pts = [ic[i * 96:(i + 1) * 96] for i in range(5)]
pts[3], pts[4] = pts[4], pts[3]
open(t + "/other.vk", "wb").write(head + b"".join(pts))
open(t + "/four.vk", "wb").write(vk[:864] + (4).to_bytes(4, "big") + ic[:4 * 96])
rng = random.Random(seed)
for i in range(24):
    b = bytearray(proof)
    bit = rng.randrange(192 * 8)
    b[bit // 8] ^= 1 << (bit % 8)
    open("%s/bit%02d-%d.proof" % (t, i, bit), "wb").write(bytes(b))
PY

flip() { python3 -c "import sys; b=bytearray.fromhex(sys.argv[1]); b[int(sys.argv[2])]^=1; print(b.hex())" "$1" "$2"; }
ZERO=0000000000000000000000000000000000000000000000000000000000000000
NOT_FR=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff

# both <label> <want: 0 accept, 1 reject, 2 error, refused: 1 or 2> <name> <vk> <proof> <comm_r_old> <comm_r_new> <comm_d_new>
both() {
  local label="$1" want="$2" name="$3" vk="$4" proof="$5" ro="$6" rn="$7" dn="$8" zrc=0 rrc=0 zout rout
  local a=(--registered-update-proof "$name" --vk "$vk" --proof "$proof" --comm-r-old "$ro"
    --comm-r-new "$rn" --comm-d-new "$dn")
  zout="$("$ZK" filecoin verify-update "${a[@]}" 2>&1)" || zrc=$?
  rout="$("$REF" update-verify "${a[@]}" 2>&1)" || rrc=$?
  if [ "$zrc" != "$rrc" ]; then
    fail "$label: zkfleet exit $zrc, reference exit $rrc: $(tail -c 300 <<<"$zout") / $(tail -c 300 <<<"$rout")"
  elif [ "$want" = refused ] && [ "$zrc" = 0 ]; then
    fail "$label: both accept it"
  elif [ "$want" != refused ] && [ "$zrc" != "$want" ]; then
    fail "$label: both exit $zrc, expected $want: $zout"
  else
    ok "$label: both exit $zrc ($(head -c 100 <<<"$zout" | tr '\n' ' '))"
  fi
}

V="$F/update.vk"
P="$F/update-proof.bin"
both "Filecoin's proof" 0 StackedDrg2KiBV1 "$V" "$P" "$R_OLD" "$R_NEW" "$D_NEW"
both "comm_r_new[0] ^= 1" 1 StackedDrg2KiBV1 "$V" "$P" "$R_OLD" "$(flip "$R_NEW" 0)" "$D_NEW"
both "comm_r_old one bit" 1 StackedDrg2KiBV1 "$V" "$P" "$(flip "$R_OLD" 17)" "$R_NEW" "$D_NEW"
both "comm_d_new one bit" 1 StackedDrg2KiBV1 "$V" "$P" "$R_OLD" "$R_NEW" "$(flip "$D_NEW" 30)"
both "comm_r_old and comm_d_new exchanged" 1 StackedDrg2KiBV1 "$V" "$P" "$D_NEW" "$R_NEW" "$R_OLD"
both "comm_d_new all zeros (not refused)" 1 StackedDrg2KiBV1 "$V" "$P" "$R_OLD" "$R_NEW" "$ZERO"
both "comm_r_new not below r" 2 StackedDrg2KiBV1 "$V" "$P" "$R_OLD" "$NOT_FR" "$D_NEW"
both "A negated (its sign flag)" 1 StackedDrg2KiBV1 "$V" "$T/neg.proof" "$R_OLD" "$R_NEW" "$D_NEW"
both "A and C exchanged" 1 StackedDrg2KiBV1 "$V" "$T/swapped.proof" "$R_OLD" "$R_NEW" "$D_NEW"
both "another key of the shape" 1 StackedDrg2KiBV1 "$T/other.vk" "$P" "$R_OLD" "$R_NEW" "$D_NEW"
both "a key of 4 IC points" 2 StackedDrg2KiBV1 "$T/four.vk" "$P" "$R_OLD" "$R_NEW" "$D_NEW"
both "191 proof bytes" 2 StackedDrg2KiBV1 "$V" "$T/short.proof" "$R_OLD" "$R_NEW" "$D_NEW"
both "384 proof bytes" 2 StackedDrg2KiBV1 "$V" "$T/long.proof" "$R_OLD" "$R_NEW" "$D_NEW"
both "the proof as 8 MiB (768 bytes expected)" 2 StackedDrg8MiBV1 "$V" "$P" "$R_OLD" "$R_NEW" "$D_NEW"
for f in "$T"/bit*.proof; do
  b="${f##*/bit}"
  b="${b%.proof}"
  both "proof bit ${b#*-} flipped" refused StackedDrg2KiBV1 "$V" "$f" "$R_OLD" "$R_NEW" "$D_NEW"
done

# The committed vanilla proofs' verdicts under Filecoin's own vanilla verifier.
vanilla() {
  local label="$1" want="$2" rc=0 out
  shift 2
  out="$("$REF" update-check-vanilla "$@" 2>&1)" || rc=$?
  if [ "$rc" = "$want" ]; then ok "reference vanilla: $label: exit $rc"; else fail "reference vanilla: $label: exit $rc, expected $want: $(tail -c 300 <<<"$out")"; fi
}
vanilla "snap-2k/snap-vproof.json valid" 0 --registered-update-proof StackedDrg2KiBV1 \
  --vanilla "$F/snap-vproof.json" --comm-r-old "$R_OLD" --comm-r-new "$R_NEW" --comm-d-new "$D_NEW"
vanilla "snap-2k/vanilla-0.bin, comm_r_new[0] ^= 1: invalid" 1 --registered-update-proof StackedDrg2KiBV1 \
  --vanilla "$F/vanilla-0.bin" --comm-r-old "$R_OLD" --comm-r-new "$(flip "$R_NEW" 0)" --comm-d-new "$D_NEW"
finish
