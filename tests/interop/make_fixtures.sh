#!/usr/bin/env bash
# Makes the small committed interop fixtures under tests/fixtures/<curve>/<name>/ with
# circom2 + snarkjs (pinned in tests/interop/package.json, installed by scripts/deps):
#
#   tests/interop/make_fixtures.sh [--force] [--only CURVE/NAME]...
#
#   curves: bn254 (circom/snarkjs "bn128"), bls12_381 (circom/snarkjs "bls12381")
#   names:  mulchain (MulChain(1000): 1000 constraints), poseidon (4 chained Poseidon(2): 960)
#
# For each fixture: make_circuit.sh compiles the circuit and computes the witness
# (circuit.r1cs, input.json, witness.wtns); then snarkjs does the Groth16 setup on a tiny
# powers of tau that it makes itself (powersoftau new, one contribute with fixed entropy,
# prepare phase2; cached in .tools/ptau/), groth16 setup, one zkey contribute with fixed entropy
# (so delta != 1), exports verification_key.json and proves proof.json + public.json, and
# checks that this reference proof verifies.
#
# snarkjs mixes OS randomness into every contribution and every proof, so the zkey and the
# proof change on each run. To keep git quiet, a fixture whose circuit.r1cs, input.json and
# witness.wtns come out byte-identical (circom and the witness are deterministic) and whose
# other files are present is left alone; --force regenerates it anyway.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
FIXTURES="$ROOT/tests/fixtures"
PTAU_DIR="$ROOT/.tools/ptau"

FORCE=0
ONLY=()
while [ $# -gt 0 ]; do
  case "$1" in
    --force) FORCE=1; shift ;;
    --only) ONLY+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "make_fixtures: unknown argument $1" >&2; exit 2 ;;
  esac
done

"$ROOT/scripts/deps" --npm
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"

# name -> make_circuit.sh size
declare -A SIZE=([mulchain]=1000 [poseidon]=4)
CURVES=(bn254 bls12_381)
NAMES=(mulchain poseidon)
FILES=(circuit.r1cs input.json witness.wtns circuit.zkey verification_key.json proof.json public.json)

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
snarkjs_curve() { case "$1" in bn254) echo bn128 ;; bls12_381) echo bls12381 ;; esac; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/zkfleet-fixtures.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# Prepared (phase-2 ready) powers of tau for a curve and power, made once and cached.
ptau_for() {
  local curve="$1" power="$2" t
  local sc; sc="$(snarkjs_curve "$curve")"
  local final="$PTAU_DIR/${sc}_${power}_final.ptau"
  if [ -s "$final" ]; then
    echo "make_fixtures: ptau $sc 2^$power cached ($final)" >&2
  else
    t="$(now)"
    mkdir -p "$PTAU_DIR"
    local w="$TMP/ptau_${sc}_${power}"
    mkdir -p "$w"
    "$SNARKJS" powersoftau new "$sc" "$power" "$w/pot_0000.ptau" >/dev/null
    "$SNARKJS" powersoftau contribute "$w/pot_0000.ptau" "$w/pot_0001.ptau" \
      --name="zkfleet fixtures" -e="zkfleet fixture ptau entropy" >/dev/null
    "$SNARKJS" powersoftau prepare phase2 "$w/pot_0001.ptau" "$w/final.ptau" >/dev/null
    mv "$w/final.ptau" "$final"
    rm -rf "$w"
    echo "make_fixtures: ptau $sc 2^$power made in $(since "$t")s ($final)" >&2
  fi
  echo "$final"
}

wanted() {
  [ "${#ONLY[@]}" -eq 0 ] && return 0
  local o
  for o in "${ONLY[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

T_ALL="$(now)"
for curve in "${CURVES[@]}"; do
  for name in "${NAMES[@]}"; do
    wanted "$curve/$name" || continue
    t="$(now)"
    dir="$FIXTURES/$curve/$name"
    new="$TMP/$curve-$name"
    "$HERE/make_circuit.sh" --curve "$curve" --kind "$name" --size "${SIZE[$name]}" \
      --out "$new" --check >/dev/null

    if [ "$FORCE" = 0 ] && [ -d "$dir" ]; then
      same=1
      for f in circuit.r1cs input.json witness.wtns; do
        cmp -s "$new/$f" "$dir/$f" || same=0
      done
      for f in "${FILES[@]}"; do [ -s "$dir/$f" ] || same=0; done
      if [ "$same" = 1 ]; then
        echo "make_fixtures: $curve/$name up to date (circuit and witness unchanged; --force to redo)"
        continue
      fi
    fi

    eval "$(node "$HERE/r1cs_info.js" "$new/circuit.r1cs")"
    ptau="$(ptau_for "$curve" "$DOMAIN_POWER")"
    "$SNARKJS" groth16 setup "$new/circuit.r1cs" "$ptau" "$new/c_0000.zkey" >/dev/null
    "$SNARKJS" zkey contribute "$new/c_0000.zkey" "$new/circuit.zkey" \
      --name="zkfleet fixtures" -e="zkfleet fixture zkey entropy" >/dev/null
    rm -f "$new/c_0000.zkey"
    "$SNARKJS" zkey export verificationkey "$new/circuit.zkey" "$new/verification_key.json" >/dev/null
    "$SNARKJS" groth16 prove "$new/circuit.zkey" "$new/witness.wtns" "$new/proof.json" "$new/public.json"
    out="$("$SNARKJS" groth16 verify "$new/verification_key.json" "$new/public.json" "$new/proof.json" 2>&1)" || {
      echo "$out" >&2; echo "make_fixtures: $curve/$name: reference proof does not verify" >&2; exit 1; }
    grep -q "OK!" <<<"$out" || {
      echo "$out" >&2; echo "make_fixtures: $curve/$name: snarkjs did not say OK!" >&2; exit 1; }

    rm -rf "$dir"
    mkdir -p "$dir"
    for f in "${FILES[@]}"; do cp "$new/$f" "$dir/$f"; done
    echo "make_fixtures: $curve/$name: $NCONSTRAINTS constraints, $NVARS wires, nPublic $NPUBLIC," \
      "domain 2^$DOMAIN_POWER; reference proof OK; $(since "$t")s"
  done
done

echo "make_fixtures: total $(du -sh "$FIXTURES" | cut -f1) in tests/fixtures; $(since "$T_ALL")s"
