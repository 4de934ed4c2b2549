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
set -euo pipefail
CMP="$1"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if ! command -v cargo >/dev/null 2>&1; then
  echo "SKIP: cargo is not installed, so the Rust reference (tests/filecoin-ref) cannot be built"
  exit 77
fi
BIN="$("$ROOT/tests/filecoin-ref/build.sh" | tail -n1)"
WORK="$(mktemp -d /tmp/zk-circuit-ref.XXXXXX)"
REF_PID=""
cleanup() {
  [ -n "$REF_PID" ] && kill "$REF_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== 1. the 2 KiB circuit, constraint by constraint"
mkfifo "$WORK/dump"
"$BIN" count --registered-proof StackedDrg2KiBV1_1 --dump "$WORK/dump" > "$WORK/count.json" &
REF_PID=$!
"$CMP" compare-dump --registered-proof StackedDrg2KiBV1_1 --dump "$WORK/dump" | tee "$WORK/cmp.json"
wait "$REF_PID"
REF_PID=""
grep -q '"num_constraints": 2687921' "$WORK/count.json"
grep -q '"equal": true' "$WORK/cmp.json"
grep -q '"constraints_compared": 2687921' "$WORK/cmp.json"

echo "== 2. the witness of a 2 KiB partition sealed by the reference"
P=1111111111111111111111111111111111111111111111111111111111111111
T=2222222222222222222222222222222222222222222222222222222222222222
S=3333333333333333333333333333333333333333333333333333333333333333
"$BIN" seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 42 --ticket $T \
  --seed $S --random 9 --out "$WORK/seal" > "$WORK/seal.json"
"$BIN" count --c1 "$WORK/seal/c1.json" --prover-id $P --sector 42 --witness "$WORK/w.bin" \
  > "$WORK/wcount.json"
grep -q '"ok": true' "$WORK/wcount.json"
"$CMP" compare-witness --c1 "$WORK/seal/c1.json" --witness "$WORK/w.bin" | tee "$WORK/wcmp.json"
grep -q '"equal": true' "$WORK/wcmp.json"
echo "circuit_ref: 2 KiB shape and witness equal Filecoin's"
