#!/usr/bin/env bash
# zkfleet's Filecoin circuit against Filecoin's own (tests/filecoin-ref, filecoin-proofs 19.1.0 /
# bellperson 0.27.0), in CTest as filecoin/circuit-vs-ref (label filecoin):
#   1. the 2 KiB circuit (StackedDrg2KiBV1_1), every constraint: the reference streams its
#      TestConstraintSystem-order dump through a FIFO (nothing large on disk) and
#      filecoin_circuit_ref compares each constraint term by term, the counts, and the shape
#      digest computed from the reference's terms against zkfleet's;
#   2. a 2 KiB sector sealed by the reference (`seal --random`): the reference's witness of its
#      C1's partition (`count --c1 ... --witness`, every input and aux value) against zkfleet's
#      prove-mode synthesis of the same C1 (read by zk/filecoin/api/c1.hpp), which must also
#      satisfy every constraint.
# Usage: circuit_ref.sh <filecoin_circuit_ref binary>. Exit 77 (skipped, with the reason) when
# cargo is absent: the reference cannot be built.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init circuit_ref "${1:-}"
CMP="$ZK" # filecoin_circuit_ref: zkfleet's circuit code, not the zkfleet CLI
need_ref

echo "== 1. the 2 KiB circuit, constraint by constraint"
mkfifo "$T/dump"
start_bg ref-count "$REF" count --registered-proof StackedDrg2KiBV1_1 --dump "$T/dump"
COUNT=$BG
# Bounded: a reference that ends before opening the FIFO would leave the reader waiting.
timeout 800 "$CMP" compare-dump --registered-proof StackedDrg2KiBV1_1 --dump "$T/dump" 2>"$T/cmp.err" |
  tee "$T/cmp.json"
report "compare-dump read the reference's dump to the end" "${PIPESTATUS[0]}" "$T/cmp.err"
wait "$COUNT"
report "the reference's count wrote the dump and exited 0" $? "$T/ref-count.log"
check "the reference counts 2687921 constraints" grep -q '"num_constraints": 2687921' "$T/ref-count.log"
check "zkfleet's circuit equals the reference's, term by term and the shape digest" \
  grep -q '"equal": true' "$T/cmp.json"
check "all 2687921 constraints compared" grep -q '"constraints_compared": 2687921' "$T/cmp.json"

echo "== 2. the witness of a 2 KiB partition sealed by the reference"
P=1111111111111111111111111111111111111111111111111111111111111111
TK=2222222222222222222222222222222222222222222222222222222222222222
S=3333333333333333333333333333333333333333333333333333333333333333
"$REF" seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 42 --ticket $TK \
  --seed $S --random 9 --out "$T/seal" >"$T/seal.json" 2>"$T/seal.err"
report "the reference seals a 2 KiB sector" $? "$T/seal.err"
"$REF" count --c1 "$T/seal/c1.json" --prover-id $P --sector 42 --witness "$T/w.bin" \
  >"$T/wcount.json" 2>"$T/wcount.err" && grep -q '"ok": true' "$T/wcount.json"
report "the reference's witness of the C1's partition satisfies its circuit" $? "$T/wcount.err"
"$CMP" compare-witness --c1 "$T/seal/c1.json" --witness "$T/w.bin" 2>"$T/wcmp.err" | tee "$T/wcmp.json"
grep -q '"equal": true' "$T/wcmp.json"
report "zkfleet's prove-mode witness of the same C1 equals the reference's, every value" $? "$T/wcmp.err"
finish
