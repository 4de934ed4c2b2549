#!/usr/bin/env bash
# make_mulchain (the generator of circuits/mulchain.circom at any size, for the upload tests'
# 200 MiB witness) against circom and snarkjs:
#   - per curve, the committed fixture tests/fixtures/<curve>/mulchain (circom 2 -O1 and
#     `snarkjs wtns calculate`, see tests/fixtures/README.md): the same .wtns byte for byte, the
#     same .r1cs (header and wire map byte for byte, every constraint with the same terms)
#   - circom at another size (tests/interop/make_circuit.sh, BLS12-381, 2,345 constraints): the same
#     again; `snarkjs wtns check` accepts the generated witness
#   - bad arguments: a clear refusal, exit 2
#
#   tests/interop/make_mulchain.sh <path-to-make_mulchain>
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
GEN="${1:?usage: make_mulchain.sh <path-to-make_mulchain>}"
T="$(mktemp -d "${TMPDIR:-/tmp}/zk_make_mulchain.XXXXXX")"
trap 'rm -rf "$T"' EXIT
PASSED=0 FAILED=0
ok() { echo "ok: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
# same DIR_A DIR_B LABEL: the same .wtns byte for byte; the same .r1cs: header and wire map byte
# for byte, every constraint with the same terms (circom orders a linear combination's terms as its
# hash maps iterate, not by wire: a term order is no part of the format, readers take any).
same() {
  if cmp -s "$1/witness.wtns" "$2/witness.wtns"; then ok "$3: witness.wtns identical ($(stat -c %s "$1/witness.wtns") bytes)"; else
    fail "$3: witness.wtns differs: $(cmp "$1/witness.wtns" "$2/witness.wtns" 2>&1 | head -n 1)"; fi
  if python3 - "$1/circuit.r1cs" "$2/circuit.r1cs" >"$T/same.log" 2>&1 <<'PY'
import struct, sys
def sections(path):
    d = open(path, "rb").read()
    assert d[:4] == b"r1cs", f"{path}: no r1cs magic"
    pos, out = 12, {}
    while pos < len(d):
        sid, size = struct.unpack_from("<IQ", d, pos)
        out[sid] = d[pos + 12:pos + 12 + size]
        pos += 12 + size
    return out
def constraints(body, fs):
    pos, out = 0, []
    while pos < len(body):
        lcs = []
        for _ in range(3):
            n = struct.unpack_from("<I", body, pos)[0]
            pos += 4
            lcs.append(sorted(body[pos + k * (4 + fs):pos + (k + 1) * (4 + fs)] for k in range(n)))
            pos += n * (4 + fs)
        out.append(lcs)
    return out
a, b = sections(sys.argv[1]), sections(sys.argv[2])
assert sorted(a) == sorted(b) == [1, 2, 3], f"sections {sorted(a)} vs {sorted(b)}"
assert a[1] == b[1], "the headers differ"
assert a[3] == b[3], "the wire-to-label maps differ"
fs = struct.unpack_from("<I", a[1], 0)[0]
ca, cb = constraints(a[2], fs), constraints(b[2], fs)
assert len(ca) == len(cb), f"{len(ca)} vs {len(cb)} constraints"
for i, (x, y) in enumerate(zip(ca, cb)):
    assert x == y, f"constraint {i} differs"
print(f"{len(ca)} constraints with the same terms, header and wire map identical")
PY
  then ok "$3: circuit.r1cs: $(cat "$T/same.log")"; else fail "$3: circuit.r1cs: $(tail -n 1 "$T/same.log")"; fi
}
n_constraints() {  # the .r1cs header's nConstraints (section 1, after fs, r and 4 counts + u64)
  python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
pos = 12
while pos < len(d):
    sid, size = struct.unpack_from("<IQ", d, pos)
    if sid == 1:
        fs = struct.unpack_from("<I", d, pos + 12)[0]
        print(struct.unpack_from("<I", d, pos + 12 + 4 + fs + 16 + 8)[0])
    pos += 12 + size
PY
}

for curve in bn254 bls12_381; do
  FIX="$ROOT/tests/fixtures/$curve/mulchain"
  N=$(n_constraints "$FIX/circuit.r1cs")
  X=$(python3 -c "import json; print(json.load(open('$FIX/input.json'))['x'])")
  Y=$(python3 -c "import json; print(json.load(open('$FIX/input.json'))['y'])")
  mkdir -p "$T/$curve"
  if "$GEN" --curve "$curve" --size "$N" --x "$X" --y "$Y" --out "$T/$curve" 2>"$T/$curve.err"; then
    same "$T/$curve" "$FIX" "$curve mulchain($N) vs the circom fixture"
  else
    fail "make_mulchain --curve $curve --size $N: $(cat "$T/$curve.err")"
  fi
done

# circom at a size no fixture has (skipped, said so, without circom's tools).
if "$HERE/make_circuit.sh" --curve bls12_381 --kind mulchain --size 2345 --out "$T/circom" >"$T/circom.log" 2>&1; then
  mkdir -p "$T/gen"
  if "$GEN" --curve bls12_381 --size 2345 --out "$T/gen" 2>"$T/gen.err"; then
    same "$T/gen" "$T/circom" "bls12_381 mulchain(2345) vs circom"
  else
    fail "make_mulchain 2345: $(cat "$T/gen.err")"
  fi
  SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
  "$SNARKJS" wtns check "$T/gen/circuit.r1cs" "$T/gen/witness.wtns" >"$T/check.log" 2>&1 &&
    grep -q "WITNESS IS CORRECT" "$T/check.log" && ok "snarkjs wtns check accepts the generated witness" ||
    fail "snarkjs wtns check: $(tail -n 3 "$T/check.log")"
elif ! [ -x "$ROOT/.tools/node/node_modules/.bin/circom2" ]; then
  echo "SKIPPED: circom at 2345 constraints: circom2 is not installed (scripts/deps --npm): $(tail -n 1 "$T/circom.log")"
else
  fail "make_circuit.sh (circom) at 2345 constraints: $(tail -n 3 "$T/circom.log")"
fi

# Bad arguments.
"$GEN" --help 2>"$T/bad0.err"
[ $? = 2 ] && grep -q "unknown argument --help" "$T/bad0.err" && ok "--help: usage, exit 2" || fail "--help: $(cat "$T/bad0.err")"
"$GEN" --curve bn254 --size 1 --out "$T/x" 2>"$T/bad1.err"
[ $? = 2 ] && grep -q -- "--size '1' must be an integer" "$T/bad1.err" && ok "--size 1 refused: $(cat "$T/bad1.err")" ||
  fail "--size 1: $(cat "$T/bad1.err")"
"$GEN" --curve bn254 --size 10 --x 99999999999999999999999999999999999999999999999999999999999999999999999999999 \
  --out "$T" 2>"$T/bad2.err"
[ $? = 1 ] && grep -q -- "--x '9.*' is not a decimal field element" "$T/bad2.err" && ok "--x ≥ r refused" ||
  fail "--x ≥ r: $(cat "$T/bad2.err")"
"$GEN" --curve bn254 --size 10 --out "$T/no/such/dir" 2>"$T/bad3.err"
[ $? = 1 ] && grep -q "no/such/dir/circuit.r1cs: cannot create" "$T/bad3.err" && ok "a missing folder named: $(cat "$T/bad3.err")" ||
  fail "missing folder: $(cat "$T/bad3.err")"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
