#!/usr/bin/env bash
# Interop checks of a zkfleet binary against snarkjs 0.7.6 on the committed fixtures.
#
#   tests/interop/interop.sh <path-to-zkfleet> [FIXTURE_DIR...]
#
# FIXTURE_DIR defaults to every tests/fixtures/<curve>/<name>/ that holds a circuit.zkey.
# The binary must implement the rapidsnark-compatible CLI:
#   zkfleet prove  <circuit.zkey> <witness.wtns> <proof.json> <public.json>
#   zkfleet verify <verification_key.json> <public.json> <proof.json>   (exit 0 iff valid)
#
# Per fixture:
#   a) zkfleet prove succeeds; snarkjs groth16 verify accepts its proof; its public.json equals
#      snarkjs's; zkfleet verify accepts its own proof
#   b) zkfleet verify accepts snarkjs's reference proof
#   c) two tampered versions of the reference proof (pi_a <-> pi_c swapped; public signal 0 plus 1)
#      are rejected by snarkjs and by zkfleet verify
# snarkjs 0.7.6 `groth16 verify` prints "OK!" and exits 0 on a valid proof, and prints
# "Invalid proof" (or "Proof commitments are not valid." / "Public inputs are not valid.") and
# exits 1 otherwise. Here a snarkjs "accept" needs both exit 0 and "OK!".
# Prints one line per check and ends with "N passed, M failed"; exits non-zero if M > 0.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 2
fi
ZKFLEET="$1"
shift
case "$ZKFLEET" in */*) ;; *) ZKFLEET="$(command -v "$ZKFLEET" || echo "$ZKFLEET")" ;; esac # a name on PATH
. "$HERE/../lib/cluster.sh"
harness_init interop "$ZKFLEET"

"$ROOT/scripts/deps" --npm >/dev/null || die "scripts/deps --npm failed"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"
TIMEOUT="${INTEROP_TIMEOUT:-600}" # seconds per command
VERIFY_TIMEOUT="$TIMEOUT"         # verify_proof's (snarkjs groth16 verify)

if [ $# -gt 0 ]; then
  DIRS=("$@")
else
  DIRS=()
  for z in "$ROOT"/tests/fixtures/*/*/circuit.zkey; do [ -e "$z" ] && DIRS+=("$(dirname "$z")"); done
fi
[ "${#DIRS[@]}" -gt 0 ] || die "no fixtures found (run tests/interop/make_fixtures.sh)"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}'; }
# run_cmd <log> cmd...: runs with a timeout, stdout+stderr to log, returns the exit code
run_cmd() { local log="$1"; shift; timeout "$TIMEOUT" "$@" >"$log" 2>&1; }

# Tampered copies of a proof/public pair (node: JSON in, JSON out).
tamper_swap_ac() {  # proof.json -> proof with pi_a and pi_c exchanged
  node -e '
    const fs = require("fs"); const p = JSON.parse(fs.readFileSync(process.argv[1]));
    [p.pi_a, p.pi_c] = [p.pi_c, p.pi_a];
    fs.writeFileSync(process.argv[2], JSON.stringify(p, null, 1));' "$1" "$2"
}
tamper_public() {  # public.json -> public signal 0 plus 1 (still a decimal below r)
  node -e '
    const fs = require("fs"); const s = JSON.parse(fs.readFileSync(process.argv[1]));
    s[0] = (BigInt(s[0]) + 1n).toString();
    fs.writeFileSync(process.argv[2], JSON.stringify(s, null, 1));' "$1" "$2"
}
same_json() {
  node -e '
    const fs = require("fs");
    const a = JSON.parse(fs.readFileSync(process.argv[1])).map(String);
    const b = JSON.parse(fs.readFileSync(process.argv[2])).map(String);
    process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1);' "$1" "$2"
}

T_ALL="$(now)"
for dir in "${DIRS[@]}"; do
  dir="$(cd "$dir" && pwd)"
  name="${dir#"$ROOT"/tests/fixtures/}"
  w="$T/${name//\//_}"
  mkdir -p "$w"
  vk="$dir/verification_key.json"
  missing=""
  for f in circuit.zkey witness.wtns verification_key.json proof.json public.json; do
    [ -s "$dir/$f" ] || missing="$missing $f"
  done
  if [ -n "$missing" ]; then
    fail "$name: fixture complete (missing:$missing)"
    continue
  fi

  # (a) our proof, checked by snarkjs
  t="$(now)"
  run_cmd "$w/prove.log" "$ZK" prove "$dir/circuit.zkey" "$dir/witness.wtns" "$w/proof.json" "$w/public.json"
  rc=$?
  if [ "$rc" = 0 ] && { [ ! -s "$w/proof.json" ] || [ ! -s "$w/public.json" ]; }; then
    echo "exit 0 but proof.json or public.json missing/empty" >>"$w/prove.log"; rc=1
  fi
  if [ "$rc" = 0 ]; then
    ok "$name: zkfleet prove ($(since "$t")s)"
    t="$(now)"
    verify_proof "$vk" "$w/public.json" "$w/proof.json"
    report "$name: snarkjs verify accepts zkfleet proof ($(since "$t")s)" $? "$T/verify.log"
    same_json "$w/public.json" "$dir/public.json" 2>"$w/pub.log"
    report "$name: zkfleet public.json equals snarkjs public.json" $? "$w/pub.log"
    t="$(now)"
    run_cmd "$w/zv_ours.log" "$ZK" verify "$vk" "$w/public.json" "$w/proof.json"
    report "$name: zkfleet verify accepts zkfleet proof ($(since "$t")s)" $? "$w/zv_ours.log"
  else
    report "$name: zkfleet prove (exit $rc, $(since "$t")s)" 1 "$w/prove.log"
  fi

  # (b) snarkjs's reference proof, checked by us
  t="$(now)"
  run_cmd "$w/zv_ref.log" "$ZK" verify "$vk" "$dir/public.json" "$dir/proof.json"
  report "$name: zkfleet verify accepts snarkjs proof ($(since "$t")s)" $? "$w/zv_ref.log"

  # (c) tampered reference proofs must be rejected by both
  tamper_swap_ac "$dir/proof.json" "$w/proof_swap.json"
  tamper_public "$dir/public.json" "$w/public_plus1.json"
  for case in swap plus1; do
    if [ "$case" = swap ]; then pub="$dir/public.json"; prf="$w/proof_swap.json"; what="pi_a<->pi_c"
    else pub="$w/public_plus1.json"; prf="$dir/proof.json"; what="public[0]+1"; fi
    t="$(now)"
    if verify_proof "$vk" "$pub" "$prf"; then
      report "$name: snarkjs rejects tampered proof ($what) (accepted, $(since "$t")s)" 1 "$T/verify.log"
    else
      ok "$name: snarkjs rejects tampered proof ($what) ($(since "$t")s)"
    fi
    t="$(now)"
    if run_cmd "$w/zv_$case.log" "$ZK" verify "$vk" "$pub" "$prf"; then
      report "$name: zkfleet verify rejects tampered proof ($what) (exit 0, $(since "$t")s)" 1 "$w/zv_$case.log"
    else
      rc=$?
      if [ "$rc" -ge 124 ]; then  # timeout / killed / crash by signal is not a clean rejection
        report "$name: zkfleet verify rejects tampered proof ($what) (exit $rc, $(since "$t")s)" 1 "$w/zv_$case.log"
      else
        ok "$name: zkfleet verify rejects tampered proof ($what) (exit $rc, $(since "$t")s)"
      fi
    fi
  done
done

echo "interop: ${#DIRS[@]} fixtures, $(since "$T_ALL")s"
finish
