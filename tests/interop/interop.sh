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
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 2
fi
ZKFLEET="$1"; shift
case "$ZKFLEET" in
  */*) [ -d "$(dirname "$ZKFLEET")" ] && ZKFLEET="$(cd "$(dirname "$ZKFLEET")" && pwd)/$(basename "$ZKFLEET")" ;;
esac
if ! command -v "$ZKFLEET" >/dev/null 2>&1; then
  echo "interop: zkfleet binary '$ZKFLEET' not found or not executable" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

"$ROOT/scripts/deps" --npm >/dev/null || { echo "interop: scripts/deps --npm failed" >&2; echo "0 passed, 1 failed"; exit 1; }
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"
TIMEOUT="${INTEROP_TIMEOUT:-600}"   # seconds per command

if [ $# -gt 0 ]; then
  DIRS=("$@")
else
  DIRS=()
  for z in "$ROOT"/tests/fixtures/*/*/circuit.zkey; do [ -e "$z" ] && DIRS+=("$(dirname "$z")"); done
fi
if [ "${#DIRS[@]}" -eq 0 ]; then
  echo "interop: no fixtures found (run tests/interop/make_fixtures.sh)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/zkfleet-interop.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
PASSED=0 FAILED=0

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}'; }
result() {  # result <ok 0|1> <label> <detail> <logfile>
  if [ "$1" = 0 ]; then
    PASSED=$((PASSED + 1)); echo "PASS $2${3:+ ($3)}"
  else
    FAILED=$((FAILED + 1)); echo "FAIL $2${3:+ ($3)}"
    if [ -n "${4:-}" ] && [ -s "$4" ]; then sed 's/^/    | /' "$4" | tail -n 15; fi
  fi
}
# run_cmd <log> cmd...: runs with a timeout, stdout+stderr to log, returns the exit code
run_cmd() { local log="$1"; shift; timeout "$TIMEOUT" "$@" >"$log" 2>&1; }
# snarkjs_accepts <log> <vk> <public> <proof>: 0 iff exit 0 and "OK!" printed
snarkjs_accepts() {
  local log="$1"; shift
  run_cmd "$log" "$SNARKJS" groth16 verify "$@" || return 1
  grep -q "OK!" "$log" && ! grep -q "Invalid proof" "$log"
}

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
  w="$TMP/${name//\//_}"
  mkdir -p "$w"
  vk="$dir/verification_key.json"
  missing=""
  for f in circuit.zkey witness.wtns verification_key.json proof.json public.json; do
    [ -s "$dir/$f" ] || missing="$missing $f"
  done
  if [ -n "$missing" ]; then
    result 1 "$name: fixture complete" "missing:$missing"
    continue
  fi

  # (a) our proof, checked by snarkjs
  t="$(now)"
  run_cmd "$w/prove.log" "$ZKFLEET" prove "$dir/circuit.zkey" "$dir/witness.wtns" "$w/proof.json" "$w/public.json"
  rc=$?
  if [ "$rc" = 0 ] && { [ ! -s "$w/proof.json" ] || [ ! -s "$w/public.json" ]; }; then
    echo "exit 0 but proof.json or public.json missing/empty" >>"$w/prove.log"; rc=1
  fi
  if [ "$rc" = 0 ]; then
    result 0 "$name: zkfleet prove" "$(since "$t")s"
    t="$(now)"
    snarkjs_accepts "$w/v_ours.log" "$vk" "$w/public.json" "$w/proof.json"
    result $? "$name: snarkjs verify accepts zkfleet proof" "$(since "$t")s" "$w/v_ours.log"
    same_json "$w/public.json" "$dir/public.json" 2>"$w/pub.log"
    result $? "$name: zkfleet public.json equals snarkjs public.json" "" "$w/pub.log"
    t="$(now)"
    run_cmd "$w/zv_ours.log" "$ZKFLEET" verify "$vk" "$w/public.json" "$w/proof.json"
    result $? "$name: zkfleet verify accepts zkfleet proof" "$(since "$t")s" "$w/zv_ours.log"
  else
    result 1 "$name: zkfleet prove" "exit $rc, $(since "$t")s" "$w/prove.log"
  fi

  # (b) snarkjs's reference proof, checked by us
  t="$(now)"
  run_cmd "$w/zv_ref.log" "$ZKFLEET" verify "$vk" "$dir/public.json" "$dir/proof.json"
  result $? "$name: zkfleet verify accepts snarkjs proof" "$(since "$t")s" "$w/zv_ref.log"

  # (c) tampered reference proofs must be rejected by both
  tamper_swap_ac "$dir/proof.json" "$w/proof_swap.json"
  tamper_public "$dir/public.json" "$w/public_plus1.json"
  for case in swap plus1; do
    if [ "$case" = swap ]; then pub="$dir/public.json"; prf="$w/proof_swap.json"; what="pi_a<->pi_c"
    else pub="$w/public_plus1.json"; prf="$dir/proof.json"; what="public[0]+1"; fi
    t="$(now)"
    if snarkjs_accepts "$w/v_$case.log" "$vk" "$pub" "$prf"; then
      result 1 "$name: snarkjs rejects tampered proof ($what)" "accepted, $(since "$t")s" "$w/v_$case.log"
    else
      result 0 "$name: snarkjs rejects tampered proof ($what)" "$(since "$t")s"
    fi
    t="$(now)"
    if run_cmd "$w/zv_$case.log" "$ZKFLEET" verify "$vk" "$pub" "$prf"; then
      result 1 "$name: zkfleet verify rejects tampered proof ($what)" "exit 0, $(since "$t")s" "$w/zv_$case.log"
    else
      rc=$?
      if [ "$rc" -ge 124 ]; then  # timeout / killed / crash by signal is not a clean rejection
        result 1 "$name: zkfleet verify rejects tampered proof ($what)" "exit $rc, $(since "$t")s" "$w/zv_$case.log"
      else
        result 0 "$name: zkfleet verify rejects tampered proof ($what)" "exit $rc, $(since "$t")s"
      fi
    fi
  done
done

echo "interop: ${#DIRS[@]} fixtures, $(since "$T_ALL")s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
