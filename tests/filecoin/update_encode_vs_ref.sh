#!/usr/bin/env bash
# Filecoin's own vanilla verifier (`filecoin-ref update-check-vanilla`: filecoin-proofs-api
# 19.1.0 update::verify_partition_proofs) on the vanilla.json `zkfleet filecoin update` wrote for
# a sector and data no fixture holds: a 2 KiB sector sealed by zkfleet with another piece, prover,
# ticket and sector number (random piece 5), updated with random pieces 6 and 7. Accepted (exit 0)
# under update.json's commitments; rejected (exit 1) under comm_r_new with one bit changed and for
# the other update's proofs. And an 8 MiB sector the same way (four partitions, h = 10), accepted.
#
#   tests/filecoin/update_encode_vs_ref.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init update_encode_vs_ref "${1:-}"
need_ref

# seal_and_update <seal proof> <update proof> <seal dir> <update dir>: a sector of other ids and
# random piece 5, updated with random piece 6.
seal_and_update() {
  "$ZK" filecoin seal --registered-proof "$1" \
    --prover-id 4444444444444444444444444444444444444444444444444444444444444444 \
    --ticket 5555555555555555555555555555555555555555555555555555555555555555 --sector 1234 \
    --seed 6666666666666666666666666666666666666666666666666666666666666666 --random 5 \
    --out "$3" >"$3.log" 2>&1 || die "seal $1: $(tail -n 5 "$3.log")"
  "$ZK" filecoin update --registered-update-proof "$2" --sector-key "$3" --random 6 \
    --out "$4" >"$4.log" 2>&1 || die "update $2: $(tail -n 5 "$4.log")"
}
seal_and_update StackedDrg2KiBV1_1 StackedDrg2KiBV1 "$T/s" "$T/u"
"$ZK" filecoin update --registered-update-proof StackedDrg2KiBV1 --sector-key "$T/s" --random 7 \
  --out "$T/u7" >"$T/update7.log" 2>&1 || die "update --random 7: $(tail -n 5 "$T/update7.log")"
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
R_OLD="$(field "$T/u/update.json" comm_r_old)"
R_NEW="$(field "$T/u/update.json" comm_r_new)"
D_NEW="$(field "$T/u/update.json" comm_d_new)"
D_NEW7="$(field "$T/u7/update.json" comm_d_new)"
R_NEW7="$(field "$T/u7/update.json" comm_r_new)"
check "comm_r_old is the seal's comm_r" test "$R_OLD" = "$(field "$T/s/commit.json" comm_r)"
FLIPPED="$(python3 -c "import sys; b=bytearray.fromhex(sys.argv[1]); b[0]^=1; print(b.hex())" "$R_NEW")"

# vanilla <label> <want exit> <vanilla file> <comm_r_old> <comm_r_new> <comm_d_new> [update proof]
vanilla() {
  local label="$1" want="$2" rc=0 out
  out="$("$REF" update-check-vanilla --registered-update-proof "${7:-StackedDrg2KiBV1}" \
    --vanilla "$3" --comm-r-old "$4" --comm-r-new "$5" --comm-d-new "$6" 2>&1)" || rc=$?
  if [ "$rc" = "$want" ]; then ok "reference: $label: exit $rc"; else fail "reference: $label: exit $rc, expected $want: $(tail -c 300 <<<"$out")"; fi
}
vanilla "zkfleet's vanilla.json accepted" 0 "$T/u/vanilla.json" "$R_OLD" "$R_NEW" "$D_NEW"
vanilla "another piece's vanilla.json accepted under its own commitments" 0 "$T/u7/vanilla.json" \
  "$R_OLD" "$R_NEW7" "$D_NEW7"
vanilla "comm_r_new[0] ^= 1 rejected" 1 "$T/u/vanilla.json" "$R_OLD" "$FLIPPED" "$D_NEW"
vanilla "another update's proofs rejected" 1 "$T/u7/vanilla.json" "$R_OLD" "$R_NEW" "$D_NEW"

seal_and_update StackedDrg8MiBV1_1 StackedDrg8MiBV1 "$T/s8" "$T/u8"
vanilla "zkfleet's 8 MiB vanilla.json (4 partitions) accepted" 0 "$T/u8/vanilla.json" \
  "$(field "$T/u8/update.json" comm_r_old)" "$(field "$T/u8/update.json" comm_r_new)" \
  "$(field "$T/u8/update.json" comm_d_new)" StackedDrg8MiBV1
finish
