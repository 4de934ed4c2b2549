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
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; fi
. "$HERE/../lib/cluster.sh"
harness_init circuit "$1"
need_snarkjs || die "scripts/deps --npm failed: no snarkjs"
VERIFY_TIMEOUT=300

for curve in bn254 bls12-381; do
  D="$T/$curve"
  P="curve=$curve,partitions=2,challenges=1,depth=4"
  "$ZK" setup --circuit porep-lite --params "$P" --out "$D" --seed 1 >"$T/setup.log" 2>&1
  ok=$?; [ $ok = 0 ] && [ -s "$D/circuit.zkey" ] && [ -s "$D/verification_key.json" ] && [ -s "$D/circuit.r1cs" ]
  report "$curve: setup --circuit writes r1cs, zkey, vkey" $? "$T/setup.log"
  "$ZK" setup --circuit porep-lite --params "$P" --out "$D" >"$T/setup2.log" 2>&1 && grep -q "key reused" "$T/setup2.log"
  report "$curve: second setup reuses the key" $? "$T/setup2.log"

  read -r n_constraints n_wires <<<"$(sed -n 's/.*, \([0-9]*\) constraints, \([0-9]*\) wires.*/\1 \2/p' "$T/setup.log")"
  timeout 300 "$SNARKJS" r1cs info "$D/circuit.r1cs" >"$T/info.log" 2>&1 \
    && grep -q "# of Constraints: $n_constraints\$" <(sed 's/\x1b\[[0-9;]*m//g' "$T/info.log") \
    && grep -q "# of Wires: $n_wires\$" <(sed 's/\x1b\[[0-9;]*m//g' "$T/info.log") \
    && grep -q "# of Public Inputs: 3\$" <(sed 's/\x1b\[[0-9;]*m//g' "$T/info.log")
  report "$curve: snarkjs r1cs info: $n_constraints constraints, $n_wires wires, 3 public inputs" $? "$T/info.log"

  for k in 0 1; do
    "$ZK" prove --circuit porep-lite --params "$P" --partition $k --key "$D" "$D/proof$k.json" "$D/public$k.json" >"$T/prove.log" 2>&1
    report "$curve: prove --circuit partition $k" $? "$T/prove.log"
    "$ZK" verify "$D/verification_key.json" "$D/public$k.json" "$D/proof$k.json" >"$T/verify.log" 2>&1
    report "$curve: zkfleet verify accepts partition $k" $? "$T/verify.log"
    verify_proof "$D/verification_key.json" "$D/public$k.json" "$D/proof$k.json"
    report "$curve: snarkjs groth16 verify accepts partition $k" $? "$T/verify.log"
  done
  # partition 0's proof against partition 1's public inputs (root, replica id equal; index differs)
  if "$ZK" verify "$D/verification_key.json" "$D/public1.json" "$D/proof0.json" >"$T/verify.log" 2>&1; then r=1; else r=0; fi
  report "$curve: zkfleet verify rejects a proof with another partition index" $r "$T/verify.log"
  if verify_proof "$D/verification_key.json" "$D/public1.json" "$D/proof0.json"; then r=1; else r=0; fi
  report "$curve: snarkjs rejects a proof with another partition index" $r "$T/verify.log"

  "$ZK" setup "$D/circuit.r1cs" "$D/again.zkey" "$D/again_vk.json" --seed 2 >"$T/pos.log" 2>&1
  report "$curve: positional setup keys the written r1cs" $? "$T/pos.log"
done

"$ZK" setup --circuit porep-lite --params curve=bn254,dept=4 --out "$T/bad" >"$T/bad.log" 2>&1
r=$?; [ $r = 1 ] && grep -q "unknown key 'dept'" "$T/bad.log"
report "bad --params key is named (exit 1)" $? "$T/bad.log"
"$ZK" prove --circuit porep-lite --params curve=bn254,challenges=1,depth=5 --key "$T/bn254" "$T/p.json" "$T/x.json" >"$T/bad.log" 2>&1
r=$?; [ $r = 1 ] && grep -q "the key is for porep-lite:curve=bn254,challenges=1,depth=4" "$T/bad.log"
report "a key for another shape is refused" $? "$T/bad.log"
finish
