#!/usr/bin/env bash
# `zkfleet filecoin seal --sparse` (TEST DATA, no replica: zk/filecoin/api/sparse_seal.hpp) and
# `zkfleet filecoin synthesize` through the command line (issue 35 items 1-2, the test tier):
#
#   tests/filecoin/sparse_seal.sh <path-to-zkfleet>        CTest filecoin/sparse-seal
#     2 KiB, 8 MiB and 32 GiB sparse C1s in seconds, each saying it is test data; zkfleet's
#     check-c1 accepts them and refuses each with a label (the challenged node's or a parent's), a
#     tree_c or comm_r_last path node or a data leaf changed; one --random, one C1; at 2 KiB the comm_d and replica_id of a full seal of
#     the same piece; synthetic PoRep and mixed piece sources refused. synthesize: a 2 KiB and an
#     8 MiB partition satisfied with and without --witness-only (the same counts), the 2 KiB
#     C1 with a parent's label or a data leaf changed unsatisfied (exit 1, the constraint named), a partition the C1 lacks refused.
#   tests/filecoin/sparse_seal.sh <path-to-zkfleet> ref    CTest filecoin/sparse-seal-vs-ref
#     Filecoin's own vanilla check (the reference's check-c1: StackedDrg::verify_all_partitions)
#     accepts the three and rejects the changed labels, tree_c path node and data leaf; at 2 KiB
#     the reference proves the sparse C1 with its own parameters and its verify_seal accepts the
#     proof, as does zkfleet's. (64 GiB: bench/filecoin-32g.)
#
# Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
MODE="${2:-zk}"
harness_init "sparse_seal_$MODE" "${1:-}"
[ "$MODE" = zk ] || [ "$MODE" = ref ] || die "the second argument is 'ref' or nothing, not '$MODE'"
[ "$MODE" = zk ] || need_ref
P=$(printf '0b%.0s' {1..32}); TK=$(printf '0c%.0s' {1..32}); S=$(printf '0d%.0s' {1..32})
EXPECT_TIMEOUT=300

# seal NAME PROOF RANDOM: a sparse C1 into $T/NAME (dies when it fails); SECS: its time.
seal() {
  local t0
  t0=$(date +%s%N)
  "$ZK" filecoin seal --sparse --registered-proof "$2" --prover-id $P --sector 5 --ticket $TK \
    --seed $S --random "$3" --out "$T/$1" >"$T/$1.out" 2>"$T/$1.err" ||
    die "seal --sparse $2 failed: $(tail -n 5 "$T/$1.err")"
  SECS=$((($(date +%s%N) - t0) / 1000000))
  SECS="$((SECS / 1000)).$(printf '%03d' $((SECS % 1000)))"
}

for size in 2KiB 8MiB 32GiB; do
  proof="StackedDrg${size}V1_1"
  seal "$size" "$proof" 3
  python3 "$ROOT/tests/filecoin/tamper_c1.py" "$T/$size/c1.json" "$T/$size" || die "tamper_c1.py failed on $size"
  if [ "$MODE" = zk ]; then
    report "$size: a sparse C1 in $SECS s" 0
    if grep -q '^seal --sparse: TEST DATA: a sparse seal, no replica exists' "$T/$size.err" &&
      grep -q '"test_data": "TEST DATA: a sparse seal, no replica exists' "$T/$size/commit.json" &&
      grep -q '"sparse": true' "$T/$size/commit.json"; then
      ok "$size: stderr and commit.json say it is test data"
    else
      fail "$size: stderr or commit.json does not say it is test data: $(head -c 300 "$T/$size.err")"
    fi
    expect -E "$size: zkfleet's check-c1 accepts it" 0 '^OK: the vanilla proofs are valid' -- \
      "$ZK" filecoin check-c1 --c1 "$T/$size/c1.json" --prover-id $P --sector 5
    for bad in label:"column c_x: the tree_c leaf" plabel:"DRG parent column 0: the tree_c leaf" cpath:"column c_x: the tree_c path|column c_x.*root" \
      rpath:"comm_r_last proof: the path" leaf:"comm_d proof: the path"; do
      expect -E "$size: zkfleet's check-c1 refuses a changed ${bad%%:*}" 1 "^INVALID: .*(${bad#*:})" -- \
        "$ZK" filecoin check-c1 --c1 "$T/$size/${bad%%:*}.json" --prover-id $P --sector 5
    done
  else
    expect "$size: Filecoin's verify_all_partitions accepts it" 0 '"valid": true' -- \
      "$REF" check-c1 --c1 "$T/$size/c1.json" --prover-id $P --sector 5
    for bad in label plabel cpath leaf; do
      expect "$size: Filecoin's verify_all_partitions rejects a changed $bad" 1 '"vanilla_proofs_valid": false' -- \
        "$REF" check-c1 --c1 "$T/$size/$bad.json" --prover-id $P --sector 5
    done
  fi
done

if [ "$MODE" = zk ]; then
  seal again StackedDrg2KiBV1_1 3
  check "one --random, one C1 (2 KiB, byte for byte)" cmp -s "$T/2KiB/c1.json" "$T/again/c1.json"
  seal other StackedDrg2KiBV1_1 4
  if cmp -s "$T/2KiB/c1.json" "$T/other/c1.json"; then fail "another --random, the same C1"; else ok "another --random, another C1"; fi
  "$ZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 5 --ticket $TK \
    --seed $S --random 3 --out "$T/full" >"$T/full.out" 2>&1 || die "seal --random 3 failed: $(tail -n 5 "$T/full.out")"
  for k in comm_d replica_id; do
    a="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$T/2KiB/commit.json" $k)"
    b="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$T/full/commit.json" $k)"
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "2 KiB: the sparse $k is the full seal's ($a)"; else fail "2 KiB: sparse $k '$a', full seal's '$b'"; fi
  done
  SPARSE=("$ZK" filecoin seal --sparse --prover-id $P --sector 5 --ticket $TK --seed $S --out "$T/x")
  expect "seal --sparse refuses synthetic PoRep, naming comm_r" 1 "draws its challenges from comm_r" -- \
    "${SPARSE[@]}" --registered-proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --random 1
  expect "seal --sparse needs --random" 2 "--sparse needs --random N" -- "${SPARSE[@]}" --registered-proof StackedDrg2KiBV1_1
  expect "seal --sparse does not take --zeros" 2 "--zeros does not go with --sparse" -- \
    "${SPARSE[@]}" --registered-proof StackedDrg2KiBV1_1 --random 1 --zeros

  # synthesize: the three modes, the same counts, every constraint satisfied (packed: every row
  # of the a, b, c rebuilt from the packed witness too).
  for size in 2KiB 8MiB; do
    for mode in full witness packed; do
      extra=()
      case $mode in witness) extra=(--witness-only) ;; packed) extra=(--wire packed) ;; esac
      if expect "$size: synthesize partition 0 ($mode) --check: satisfied" 0 '"satisfied": true' -- \
        "$ZK" filecoin synthesize --c1 "$T/$size/c1.json" --prover-id $P --sector 5 --partition 0 --check --json "${extra[@]}"; then
        printf '%s\n' "$EXPECT_OUT" >"$T/synth-$size-$mode.json"
      fi
    done
    python3 - "$T/synth-$size-full.json" "$T/synth-$size-witness.json" "$T/synth-$size-packed.json" <<'PY' | tally /dev/stdin
import json, sys
try:
    f, w, p = (json.load(open(p)) for p in sys.argv[1:])
except Exception as e:
    print(f"FAIL: synthesize's JSON not read: {e}")
    sys.exit()
keys = ["constraints", "inputs", "aux", "seconds", "cores", "constraints_per_s_per_core", "cpu_seconds",
        "peak_rss_bytes", "buffer_bytes", "wire_bytes", "satisfied"]
missing = [k for k in keys if k not in f or k not in w]
print(f"FAIL: synthesize lacks {missing}" if missing else "ok: synthesize reports every figure")
same = all(f[k] == w[k] for k in ("constraints", "inputs", "aux", "buffer_bytes"))
print(("ok" if same else "FAIL") + f": both modes count {f['constraints']} constraints, {f['inputs']} inputs, {f['aux']} aux")
good = f["buffer_bytes"] == 32 * (3 * (f["constraints"] + f["inputs"]) + f["inputs"] + f["aux"])
print(("ok" if good else "FAIL") + f": buffer_bytes {f['buffer_bytes']} is a, b, c and the witness, 32 bytes each")
kinds = [w.get(k) for k in ("aux_zero_values", "aux_one_values", "aux_other_values")]
split = None not in kinds and sum(kinds) == w["aux"] and min(kinds) > 0
print(("ok" if split else "FAIL") + f": witness-only splits the {w['aux']} aux values into 0, 1 and others: {kinds}")
z, o, x = kinds if split else (0, 0, 0)
# The packed witness (zk/formats/packed_witness.hpp): a 24-byte header, 2 bits a value, 32 bytes
# for each value neither 0 nor 1 (the aux's others and the inputs that are, ONE is not).
n = w["inputs"] + w["aux"]
base = 24 + (n + 3) // 4 + 32 * x
pb = p.get("packed_bytes", -1)
ok = base + 32 <= pb <= base + 32 * (w["inputs"] - 1) and (pb - base) % 32 == 0
print(("ok" if ok and w.get("packed_witness_bytes") == pb else "FAIL") +
      f": packed_bytes {pb} (witness-only says {w.get('packed_witness_bytes')}): the codes and the {x} other aux values")
ok = p.get("wire_bytes") == pb + 128 and p["wire_bytes"] * 20 < f["wire_bytes"]
print(("ok" if ok else "FAIL") + f": the packed wire ships {p.get('wire_bytes')} bytes, the full buffer {f['wire_bytes']}")
ok = p.get("rebuilt_rows_satisfied") is True and p.get("rebuild_cpu_seconds", -1) > 0 and p.get("constraints") == f["constraints"]
print(("ok" if ok else "FAIL") + f": a, b, c rebuilt from the packed witness, every row satisfied ({p.get('rebuild_cpu_seconds')} CPU-s)")
PY
  done
  for bad in plabel:"DRG parent 0: column, hash, inclusion in tree C" leaf:"data leaf, inclusion in tree D"; do
    for extra in "" --witness-only; do
      expect -E "2 KiB: synthesize --check $extra finds the changed ${bad%%:*} unsatisfied, naming where" 1 \
        "\"where\": \"challenge 0: (${bad#*:})" -- "$ZK" filecoin synthesize --c1 "$T/2KiB/${bad%%:*}.json" \
        --prover-id $P --sector 5 --partition 0 --check --json $extra
    done
  done
  expect "synthesize refuses a partition the C1 lacks" 1 "--partition 1: " -- \
    "$ZK" filecoin synthesize --c1 "$T/2KiB/c1.json" --prover-id $P --sector 5 --partition 1
  expect "synthesize needs --partition" 2 "--partition K is required" -- \
    "$ZK" filecoin synthesize --c1 "$T/2KiB/c1.json" --prover-id $P --sector 5
else
  # 2 KiB: the reference proves the sparse C1 with its own parameters; verify_seal accepts.
  . "$(dirname "${BASH_SOURCE[0]}")/ref_c2.sh"
  EXPECT_TIMEOUT=900
  expect "2 KiB: the reference proves the sparse C1 (its own parameters)" 0 "" -- \
    "$REF" prove --c1 "$T/2KiB/c1.json" --params "$PARAMS" --prover-id $P --sector 5 --out "$T/2KiB/proof"
  c() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$T/2KiB/commit.json" "$1"; }
  ids=(--registered-proof StackedDrg2KiBV1_1 --prover-id $P --ticket $TK --seed $S
    --comm-r "$(c comm_r)" --comm-d "$(c comm_d)")
  expect "2 KiB: Filecoin's verify_seal accepts the proof" 0 '"valid": true' -- \
    "$REF" verify --vk "$VK" --proof "$T/2KiB/proof" "${ids[@]}" --sector 5
  expect -E "2 KiB: zkfleet's verify_seal accepts it" 0 '^OK: the proof is valid' -- \
    "$ZK" filecoin verify --vk "$VK" --proof "$T/2KiB/proof" "${ids[@]}" --sector 5
  expect "2 KiB: Filecoin's verify_seal rejects it for another sector" 1 '"valid": false' -- \
    "$REF" verify --vk "$VK" --proof "$T/2KiB/proof" "${ids[@]}" --sector 6
fi
finish
