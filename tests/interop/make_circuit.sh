#!/usr/bin/env bash
# Compiles one test circuit with circom2 (WASI build) and computes its witness with snarkjs.
#
#   tests/interop/make_circuit.sh --curve bn254|bls12_381 --kind mulchain|poseidon \
#                                 --size N --out DIR [--check] [--keep-build]
#
# Writes only DIR/circuit.r1cs, DIR/input.json and DIR/witness.wtns (no zkey: benchmarks make
# theirs with `zkfleet setup`; make_fixtures.sh makes the small committed ones with snarkjs).
#   mulchain: N = number of constraints (one multiplication per step, see circuits/mulchain.circom)
#   poseidon: N = number of chained Poseidon(2) hashes (240 constraints each with -O2)
#   --check       also run `snarkjs wtns check` (witness satisfies every constraint)
#   --keep-build  keep the build dir (circuit.circom, circuit_js/circuit.wasm) in DIR/build
# Tools come from <repo>/.tools/node (installed by scripts/deps, which this script calls).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

CURVE="" KIND="" SIZE="" OUT="" CHECK=0 KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --curve) CURVE="$2"; shift 2 ;;
    --kind) KIND="$2"; shift 2 ;;
    --size) SIZE="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --check) CHECK=1; shift ;;
    --keep-build) KEEP=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "make_circuit: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
[ -n "$CURVE" ] && [ -n "$KIND" ] && [ -n "$SIZE" ] && [ -n "$OUT" ] || { usage >&2; exit 2; }
case "$CURVE" in
  bn254) PRIME=bn128 ;;
  bls12_381) PRIME=bls12381 ;;
  *) echo "make_circuit: --curve must be bn254 or bls12_381" >&2; exit 2 ;;
esac
# Simplification: mulchain has no linear constraints, so circom's default -O1 already gives exactly
# one constraint per step. circomlib's Poseidon is full of linear (mix-layer) constraints that only
# -O2 removes: 240 constraints per Poseidon(2) with -O2 against 517 with -O1.
case "$KIND" in
  mulchain) TEMPLATE=MulChain; OPT=--O1 ;;
  poseidon) TEMPLATE=PoseidonChain; OPT=--O2 ;;
  *) echo "make_circuit: --kind must be mulchain or poseidon" >&2; exit 2 ;;
esac
[[ "$SIZE" =~ ^[1-9][0-9]*$ ]] || { echo "make_circuit: --size must be a positive integer" >&2; exit 2; }

"$ROOT/scripts/deps" --npm >/dev/null
BIN="$ROOT/.tools/node/node_modules/.bin"
CIRCOMLIB="$ROOT/.tools/node/node_modules/circomlib/circuits"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
BUILD="$(mktemp -d "${TMPDIR:-/tmp}/zkfleet-circuit.XXXXXX")"
cleanup() { if [ "$KEEP" = 1 ]; then rm -rf "$OUT/build"; mv "$BUILD" "$OUT/build"; else rm -rf "$BUILD"; fi; }
trap cleanup EXIT

t0=$(date +%s.%N)
# circom2 (WASI) only sees its working directory: put everything it includes beside the main file.
cp "$HERE/circuits/$KIND.circom" "$BUILD/"
if [ "$KIND" = poseidon ]; then cp -r "$CIRCOMLIB" "$BUILD/circuits"; fi
cat > "$BUILD/circuit.circom" <<EOF
pragma circom 2.0.0;
include "$KIND.circom";
component main {public [x]} = $TEMPLATE($SIZE);
EOF

echo "make_circuit: circom2 $KIND($SIZE) --prime $PRIME $OPT"
(cd "$BUILD" && "$BIN/circom2" circuit.circom --r1cs --wasm --prime "$PRIME" $OPT -o . >compile.log 2>&1) || {
  cat "$BUILD/compile.log" >&2; echo "make_circuit: circom2 failed" >&2; exit 1; }
grep -i "warning" "$BUILD/compile.log" >&2 || true

# Inputs: x public, y private; big (but < r for both curves) so that every value is full-size.
cat > "$OUT/input.json" <<'EOF'
{
  "x": "12345678901234567890123456789012345678901234567890123456789",
  "y": "98765432109876543210987654321098765432109876543210987654321"
}
EOF

cp "$BUILD/circuit.r1cs" "$OUT/circuit.r1cs"
echo "make_circuit: snarkjs wtns calculate"
"$BIN/snarkjs" wtns calculate "$BUILD/circuit_js/circuit.wasm" "$OUT/input.json" "$OUT/witness.wtns" >/dev/null
if [ "$CHECK" = 1 ]; then
  echo "make_circuit: snarkjs wtns check"
  "$BIN/snarkjs" wtns check "$OUT/circuit.r1cs" "$OUT/witness.wtns" > "$BUILD/wtns_check.log" 2>&1 || {
    cat "$BUILD/wtns_check.log" >&2; echo "make_circuit: witness does not satisfy the r1cs" >&2; exit 1; }
  grep -q "WITNESS IS CORRECT" "$BUILD/wtns_check.log" || {
    cat "$BUILD/wtns_check.log" >&2; echo "make_circuit: wtns check did not confirm" >&2; exit 1; }
fi

eval "$(node "$HERE/r1cs_info.js" "$OUT/circuit.r1cs")"
t1=$(date +%s.%N)
printf 'make_circuit: %s %s(%s): %s constraints, %s wires, nPublic %s, domain 2^%s, %.1fs -> %s\n' \
  "$CURVE" "$KIND" "$SIZE" "$NCONSTRAINTS" "$NVARS" "$NPUBLIC" "$DOMAIN_POWER" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$OUT"
