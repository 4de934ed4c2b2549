#!/usr/bin/env bash
# zkfleet's sealer against Filecoin's own code (tests/filecoin-ref, filecoin-proofs 19.1.0):
#   * the same piece and ids sealed by both give byte-identical c1.json, every layer's labels and
#     the replica, and the same comm_d, comm_c, comm_r_last, comm_r and replica_id
#     (2 KiB: StackedDrg2KiBV1_1 with the reference's --random piece, StackedDrg2KiBV1 with an
#     all-zero piece, StackedDrg2KiBV1_1 with a --data file and porep_id/api-version overrides,
#     synthetic PoRep and non-interactive PoRep);
#   * the reference's `labels` for zkfleet's replica_id equals zkfleet's layers;
#   * the reference's check-c1 accepts zkfleet's C1 and zkfleet's check-c1 accepts the
#     reference's; a C1 with one bit changed in a label, a tree_c path or a parent's column, or
#     checked with the wrong sector, is refused by both; one with a changed comm_d or comm_r_last
#     path sibling is accepted by the reference (its vanilla check leaves that to the circuit) and
#     refused by zkfleet.
# With `8MiB` as the second argument (CTest filecoin/seal-vs-ref-8mib): the same comparison and
# cross-checks for one StackedDrg8MiBV1_1 sector instead (about 25 s on 2 idle cores; minutes on a
# loaded machine).
#
#   tests/filecoin/seal_ref.sh <path-to-zkfleet> [8MiB]
#
# Exit 77 (skipped) when cargo is absent. Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init seal_ref "${1:-}"
need_ref

P=$(printf '01%.0s' {1..32}); TK=$(printf '02%.0s' {1..32}); S=$(printf '03%.0s' {1..32})
MODE="${2:-2KiB}"

# field <commit.json> <key>
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# compare <label> <zkfleet seal args...> -- <reference seal args...>
compare() {
  local label="$1"; shift
  local zargs=() rargs=()
  while [ "$1" != "--" ]; do zargs+=("$1"); shift; done; shift
  rargs=("$@")
  local z="$T/$label-zk" r="$T/$label-ref"
  if ! "$ZK" filecoin seal "${zargs[@]}" --out "$z" --write-layers --write-replica >"$T/$label.zk.log" 2>&1; then
    fail "$label: zkfleet filecoin seal failed: $(tail -3 "$T/$label.zk.log")"; return
  fi
  if ! "$REF" seal "${rargs[@]}" --out "$r" >"$T/$label.ref.log" 2>&1; then
    fail "$label: the reference's seal failed: $(tail -3 "$T/$label.ref.log")"; return
  fi
  for k in comm_d comm_c comm_r_last comm_r replica_id; do
    local a b; a=$(field "$z/commit.json" $k); b=$(field "$r/commit.json" $k)
    check "$label: $k $a" [ "$a" = "$b" ]
  done
  check "$label: c1.json byte for byte" cmp -s "$z/c1.json" "$r/c1.json"
  for f in "$r"/labels-layer-*.bin; do
    check "$label: $(basename "$f")" cmp -s "$z/$(basename "$f")" "$f"
  done
  check "$label: replica.bin" cmp -s "$z/replica.bin" "$r/replica.bin"
}

if [ "$MODE" = 8MiB ]; then
  compare 8mib --registered-proof StackedDrg8MiBV1_1 --prover-id $P --sector 7 --ticket $TK --seed $S --random 9 \
    -- --registered-proof StackedDrg8MiBV1_1 --prover-id $P --sector 7 --ticket $TK --seed $S --random 9
  expect "8 MiB: reference check-c1 accepts zkfleet's C1" 0 "" -- "$REF" check-c1 --c1 "$T/8mib-zk/c1.json" --prover-id $P --sector 7
  expect "8 MiB: zkfleet check-c1 accepts the reference's C1" 0 "" -- "$ZK" filecoin check-c1 --c1 "$T/8mib-ref/c1.json" --prover-id $P --sector 7
  finish
fi

compare v1_1-random --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 7 --ticket $TK --seed $S --random 5 \
  -- --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 7 --ticket $TK --seed $S --random 5
compare v1-zeros --registered-proof StackedDrg2KiBV1 --prover-id $TK --sector 1234567 --ticket $S --seed $P --zeros \
  -- --registered-proof StackedDrg2KiBV1 --prover-id $TK --sector 1234567 --ticket $S --seed $P --zeros
python3 -c 'import os,sys; open(sys.argv[1],"wb").write(bytes((i*7+i//254)%256 for i in range(2032)))' "$T/piece.bin"
compare data-overrides --registered-proof StackedDrg2KiBV1_1 --api-version V1_2_0 --porep-id $(printf "2c%.0s" {1..32}) \
    --prover-id $S --sector 77 --ticket $P --seed $TK --data "$T/piece.bin" \
  -- --registered-proof StackedDrg2KiBV1_1 --api-version V1_2_0 --porep-id $(printf "2c%.0s" {1..32}) \
    --prover-id $S --sector 77 --ticket $P --seed $TK --data "$T/piece.bin"
for rp in StackedDrg2KiBV1_1_Feat_SyntheticPoRep StackedDrg2KiBV1_2_Feat_NonInteractivePoRep; do
  compare "$rp" --registered-proof $rp --prover-id $P --sector 7 --ticket $TK --seed $S --random 6 \
    -- --registered-proof $rp --prover-id $P --sector 7 --ticket $TK --seed $S --random 6
done
check "zero 2 KiB sector: comm_d is lotus's zero commitment" \
  [ "$(field "$T/v1-zeros-zk/commit.json" comm_d)" = fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833 ]

# The reference's labeling alone, for zkfleet's replica_id.
RID=$(field "$T/v1_1-random-zk/commit.json" replica_id)
if "$REF" labels --registered-proof StackedDrg2KiBV1_1 --replica-id "$RID" --out "$T/labels" >/dev/null 2>&1; then
  for l in 1 2; do check "reference labels, layer $l" cmp -s "$T/labels/labels-layer-$l.bin" "$T/v1_1-random-zk/labels-layer-$l.bin"; done
else
  fail "the reference's labels failed"
fi

# Cross-checks of the C1s.
ZC1="$T/v1_1-random-zk/c1.json"; RC1="$T/v1_1-random-ref/c1.json"
expect "reference check-c1 accepts zkfleet's C1" 0 "" -- "$REF" check-c1 --c1 "$ZC1" --prover-id $P --sector 7
expect "zkfleet check-c1 accepts the reference's C1" 0 "" -- "$ZK" filecoin check-c1 --c1 "$RC1" --prover-id $P --sector 7
expect "zkfleet check-c1 accepts the reference's V1 C1" 0 "" -- "$ZK" filecoin check-c1 --c1 "$T/v1-zeros-ref/c1.json" --prover-id $TK --sector 1234567
expect "zkfleet check-c1 accepts the reference's overridden C1" 0 "" -- "$ZK" filecoin check-c1 --c1 "$T/data-overrides-ref/c1.json" \
  --prover-id $S --sector 77 --api-version V1_2_0 --porep-id $(printf "2c%.0s" {1..32})
for rp in StackedDrg2KiBV1_1_Feat_SyntheticPoRep StackedDrg2KiBV1_2_Feat_NonInteractivePoRep; do
  expect "zkfleet check-c1 accepts the reference's $rp C1" 0 "" -- "$ZK" filecoin check-c1 --c1 "$T/$rp-ref/c1.json" --prover-id $P --sector 7
  expect "reference check-c1 accepts zkfleet's $rp C1" 0 "" -- "$REF" check-c1 --c1 "$T/$rp-zk/c1.json" --prover-id $P --sector 7
done
expect "zkfleet check-c1 refuses the wrong sector" 1 "" -- "$ZK" filecoin check-c1 --c1 "$RC1" --prover-id $P --sector 8
expect "reference check-c1 refuses the wrong sector" 1 "" -- "$REF" check-c1 --c1 "$ZC1" --prover-id $P --sector 8

# tamper <label> <python expression on v = the first partition's proofs>
tamper() {
  local label="$1" expr="$2" out="$T/tampered-$1.json"
  python3 - "$RC1" "$out" "$expr" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1]))
v = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
EOF
  expect "tampered ($label): zkfleet check-c1 refuses" 1 "" -- "$ZK" filecoin check-c1 --c1 "$out" --prover-id $P --sector 7
  expect "tampered ($label): reference check-c1 refuses" 1 "" -- "$REF" check-c1 --c1 "$out" --prover-id $P --sector 7
}
tamper label-bit 'v[1]["replica_column_proofs"]["c_x"]["column"]["rows"][1][4] ^= 16'
tamper tree_c-path 'v[0]["replica_column_proofs"]["drg_parents"][3]["inclusion_proof"]["data"]["Single"]["path"]["path"][0]["hashes"][2][0] ^= 1'
tamper parent-column 'v[0]["replica_column_proofs"]["exp_parents"][5]["column"]["rows"][0][9] ^= 2'
tamper labeling-parent 'v[1]["labeling_proofs"][0]["parents"][11][0] ^= 1'

# Where the Rust vanilla verifier is laxer: it compares only the index and the root of the comm_d
# and comm_r_last paths (params.rs Proof::verify), the circuit checks the hashing; zkfleet's check
# hashes the paths, so a changed sibling is refused before proving.
lax() {
  local label="$1" expr="$2" out="$T/lax-$1.json"
  python3 - "$RC1" "$out" "$expr" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1]))
v = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
EOF
  expect "changed $label: the reference's check-c1 accepts it" 0 "" -- "$REF" check-c1 --c1 "$out" --prover-id $P --sector 7
  expect "changed $label: zkfleet check-c1 refuses it" 1 "" -- "$ZK" filecoin check-c1 --c1 "$out" --prover-id $P --sector 7
}
lax comm_d-path 'v[0]["comm_d_proofs"]["data"]["Single"]["path"]["path"][2]["hashes"][0][5] ^= 1'
lax comm_r_last-path 'v[0]["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["hashes"][1][5] ^= 1'
finish
