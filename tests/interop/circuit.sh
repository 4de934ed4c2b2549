#!/usr/bin/env bash
# Native circuits through the zkfleet CLI, checked by snarkjs 0.7.6 on both curves:
#
#   tests/interop/circuit.sh <path-to-zkfleet>
#
# Per curve, with porep-lite (challenges=1, depth=4, 2 partitions: ~28k constraints, 2^15):
#   a) zkfleet setup --circuit writes circuit.r1cs/.zkey/verification_key.json; a second run
#      reuses the key (same digest)
#   b) snarkjs r1cs info reads circuit.r1cs with the counts zkfleet printed
#   c) zkfleet prove --circuit for partitions 0 and 1; zkfleet verify and snarkjs groth16 verify
#      accept both proofs
#   d) a public.json with the partition index changed is rejected by both verifiers
#   e) a bad --params key is refused with a message naming it; the positional
#      `setup <r1cs> <zkey> <vkey>` form still keys the r1cs that setup --circuit wrote
# Prints one line per check, ends with "N passed, M failed"; exits non-zero if M > 0.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
if [ $# -lt 1 ]; then sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; fi
ZKFLEET="$1"
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
if [ ! -x "$SNARKJS" ]; then
  "$ROOT/scripts/deps" --npm >/dev/null || { echo "circuit: scripts/deps --npm failed" >&2; echo "0 passed, 1 failed"; exit 1; }
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/zkfleet-circuit.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
PASSED=0 FAILED=0
check() {  # check <label> <ok 0|1> [log]
  if [ "$2" = 0 ]; then PASSED=$((PASSED + 1)); echo "PASS $1"
  else FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/    | /' "$3" | tail -n 15; fi
}
snarkjs_accepts() { timeout 300 "$SNARKJS" groth16 verify "$@" >"$TMP/sj.log" 2>&1 && grep -q "OK!" "$TMP/sj.log"; }

for curve in bn254 bls12-381; do
  D="$TMP/$curve"
  P="curve=$curve,partitions=2,challenges=1,depth=4"
  "$ZKFLEET" setup --circuit porep-lite --params "$P" --out "$D" --seed 1 >"$TMP/setup.log" 2>&1
  ok=$?; [ $ok = 0 ] && [ -s "$D/circuit.zkey" ] && [ -s "$D/verification_key.json" ] && [ -s "$D/circuit.r1cs" ]
  check "$curve: setup --circuit writes r1cs, zkey, vkey" $? "$TMP/setup.log"
  "$ZKFLEET" setup --circuit porep-lite --params "$P" --out "$D" >"$TMP/setup2.log" 2>&1 && grep -q "key reused" "$TMP/setup2.log"
  check "$curve: second setup reuses the key" $? "$TMP/setup2.log"

  read -r n_constraints n_wires <<<"$(sed -n 's/.*, \([0-9]*\) constraints, \([0-9]*\) wires.*/\1 \2/p' "$TMP/setup.log")"
  timeout 300 "$SNARKJS" r1cs info "$D/circuit.r1cs" >"$TMP/info.log" 2>&1 \
    && grep -q "# of Constraints: $n_constraints\$" <(sed 's/\x1b\[[0-9;]*m//g' "$TMP/info.log") \
    && grep -q "# of Wires: $n_wires\$" <(sed 's/\x1b\[[0-9;]*m//g' "$TMP/info.log") \
    && grep -q "# of Public Inputs: 3\$" <(sed 's/\x1b\[[0-9;]*m//g' "$TMP/info.log")
  check "$curve: snarkjs r1cs info: $n_constraints constraints, $n_wires wires, 3 public inputs" $? "$TMP/info.log"

  for k in 0 1; do
    "$ZKFLEET" prove --circuit porep-lite --params "$P" --partition $k --key "$D" "$D/proof$k.json" "$D/public$k.json" >"$TMP/prove.log" 2>&1
    check "$curve: prove --circuit partition $k" $? "$TMP/prove.log"
    "$ZKFLEET" verify "$D/verification_key.json" "$D/public$k.json" "$D/proof$k.json" >"$TMP/verify.log" 2>&1
    check "$curve: zkfleet verify accepts partition $k" $? "$TMP/verify.log"
    snarkjs_accepts "$D/verification_key.json" "$D/public$k.json" "$D/proof$k.json"
    check "$curve: snarkjs groth16 verify accepts partition $k" $? "$TMP/sj.log"
  done
  # partition 0's proof against partition 1's public inputs (root, replica id equal; index differs)
  if "$ZKFLEET" verify "$D/verification_key.json" "$D/public1.json" "$D/proof0.json" >"$TMP/verify.log" 2>&1; then r=1; else r=0; fi
  check "$curve: zkfleet verify rejects a proof with another partition index" $r "$TMP/verify.log"
  if snarkjs_accepts "$D/verification_key.json" "$D/public1.json" "$D/proof0.json"; then r=1; else r=0; fi
  check "$curve: snarkjs rejects a proof with another partition index" $r "$TMP/sj.log"

  "$ZKFLEET" setup "$D/circuit.r1cs" "$D/again.zkey" "$D/again_vk.json" --seed 2 >"$TMP/pos.log" 2>&1
  check "$curve: positional setup keys the written r1cs" $? "$TMP/pos.log"
done

"$ZKFLEET" setup --circuit porep-lite --params curve=bn254,dept=4 --out "$TMP/bad" >"$TMP/bad.log" 2>&1
r=$?; [ $r = 1 ] && grep -q "unknown key 'dept'" "$TMP/bad.log"
check "bad --params key is named (exit 1)" $? "$TMP/bad.log"
"$ZKFLEET" prove --circuit porep-lite --params curve=bn254,challenges=1,depth=5 --key "$TMP/bn254" "$TMP/p.json" "$TMP/x.json" >"$TMP/bad.log" 2>&1
r=$?; [ $r = 1 ] && grep -q "the key is for porep-lite:curve=bn254,challenges=1,depth=4" "$TMP/bad.log"
check "a key for another shape is refused" $? "$TMP/bad.log"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
