#!/usr/bin/env bash
# zkfleet's SnapDeals update circuit (zk/filecoin/update/circuit.hpp) against Filecoin's own
# (tests/filecoin-ref `update-count`: storage-proofs-update 19.1.0 EmptySectorUpdateCircuit into
# the streaming constraint system), in CTest as filecoin/update-circuit-vs-ref (2 KiB) and
# filecoin/update-circuit-8m-vs-ref (8 MiB, ~2 minutes and ~0.7 GB on a loaded 2-core machine):
#   1. the blank circuit, every constraint: the reference streams its dump through a FIFO
#      (nothing large on disk) and filecoin_circuit_ref compares each constraint term by term,
#      the counts, and the shape digest computed from the reference's terms against zkfleet's;
#   2. the circuit of a partition Filecoin's own code proved (tests/fixtures/filecoin/snap-2k:
#      partition 0; snap-8m: partition 1): the reference's witness (every input and aux value,
#      its constraints all satisfied, its inputs those of generate_public_inputs) against zkfleet's
#      prove-mode synthesis of the same partition proof, which must satisfy every constraint.
# Usage: update_circuit_ref.sh <filecoin_circuit_ref binary> [2k|8m]. Exit 77 (skipped, with the
# reason) when cargo is absent: the reference cannot be built.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
SIZE="${2:-2k}"
harness_init "update_circuit_ref_$SIZE" "${1:-}"
CMP="$ZK" # filecoin_circuit_ref: zkfleet's circuit code, not the zkfleet CLI
case "$SIZE" in
  2k)
    PROOF=StackedDrg2KiBV1 CONSTRAINTS=1705039 K=0
    VANILLA="$ROOT/tests/fixtures/filecoin/snap-2k/vanilla-0.bin"
    GOLDEN="$ROOT/tests/fixtures/filecoin/snap-2k/golden.txt"
    ;;
  8m)
    PROOF=StackedDrg8MiBV1 CONSTRAINTS=10007503 K=1
    VANILLA="$ROOT/tests/fixtures/filecoin/snap-8m/vanilla-1.bin"
    GOLDEN="$ROOT/tests/fixtures/filecoin/snap-8m/golden.txt"
    ;;
  *) die "size '$SIZE': 2k or 8m" ;;
esac
need_ref

echo "== 1. the $PROOF circuit, constraint by constraint"
mkfifo "$T/dump"
start_bg ref-count "$REF" update-count --registered-update-proof $PROOF --dump "$T/dump"
COUNT=$BG
# Bounded: a reference that ends before opening the FIFO would leave the reader waiting.
timeout 800 "$CMP" compare-dump --registered-update-proof $PROOF --dump "$T/dump" \
  2>"$T/cmp.err" | tee "$T/cmp.json"
report "compare-dump read the reference's dump to the end" "${PIPESTATUS[0]}" "$T/cmp.err"
wait "$COUNT"
report "the reference's update-count wrote the dump and exited 0" $? "$T/ref-count.log"
check "the reference counts $CONSTRAINTS constraints" \
  grep -q "\"num_constraints\": $CONSTRAINTS" "$T/ref-count.log"
check "zkfleet's circuit equals the reference's, term by term and the shape digest" \
  grep -q '"equal": true' "$T/cmp.json"
check "all $CONSTRAINTS constraints compared" \
  grep -q "\"constraints_compared\": $CONSTRAINTS" "$T/cmp.json"

echo "== 2. the witness of partition $K of Filecoin's update"
golden() { sed -n "s/^$1=\([0-9a-f]*\).*/\1/p" "$GOLDEN"; }
COMMS=(--comm-r-old "$(golden comm_r_old)" --comm-d-new "$(golden comm_d_new)"
  --comm-r-new "$(golden comm_r_new)")
"$REF" update-count --registered-update-proof $PROOF --vanilla "$VANILLA" --partition $K \
  "${COMMS[@]}" --witness "$T/w.bin" >"$T/wcount.json" 2>"$T/wcount.err" &&
  grep -q '"ok": true' "$T/wcount.json"
report "the reference's circuit of the partition is satisfied, its inputs generate_public_inputs'" \
  $? "$T/wcount.err"
"$CMP" compare-witness --registered-update-proof $PROOF --vanilla "$VANILLA" --partition $K \
  "${COMMS[@]}" --witness "$T/w.bin" 2>"$T/wcmp.err" | tee "$T/wcmp.json"
grep -q '"equal": true' "$T/wcmp.json"
report "zkfleet's prove-mode witness of the same partition equals the reference's, every value" \
  $? "$T/wcmp.err"
finish
