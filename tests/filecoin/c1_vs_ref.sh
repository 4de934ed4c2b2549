#!/usr/bin/env bash
# C1 outputs made by Filecoin's own sealer (`filecoin-ref seal`: add_piece, PC1, PC2, C1 of
# filecoin-proofs 19.1.0) for 2 KiB (V1, V1_1, SyntheticPoRep, NonInteractivePoRep) and 8 MiB
# (V1_1), random ids and data: `zkfleet filecoin c1` reads each and writes it back byte for byte;
# written as the lotus-bench/curio wrapper it is accepted by Filecoin's check-c1
# (verify_all_partitions, the replica_id and partition count) and read back to the same bytes; the
# C1's replica_id, challenges (c_x column indices) and parents (the column indices of drg_parents
# and exp_parents) are those `zkfleet filecoin derive` computes for the same ids; a C1 with one
# value not below r is refused with its JSON path.
#
#   tests/filecoin/c1_vs_ref.sh <path-to-zkfleet> [SEED]
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init c1_vs_ref "${1:-}"
need_ref
SEED="${2:-$RANDOM}"
echo "random seed $SEED (rerun: $0 $1 $SEED)"
rand_hex() { python3 -c "import random; r=random.Random('$SEED$1'); print(bytes(r.randrange(256) for _ in range(32)).hex())"; }

n=0
for proof in StackedDrg2KiBV1 StackedDrg2KiBV1_1 StackedDrg2KiBV1_1_Feat_SyntheticPoRep \
  StackedDrg2KiBV1_2_Feat_NonInteractivePoRep StackedDrg8MiBV1_1; do
  n=$((n + 1))
  D="$T/$proof"
  PROVER=$(rand_hex "p$n")
  TICKET=$(rand_hex "t$n")
  SEEDHEX=$(rand_hex "s$n")
  SECTOR=$((SEED * 7 + n))
  if ! "$REF" seal --registered-proof "$proof" --prover-id "$PROVER" --sector "$SECTOR" \
    --ticket "$TICKET" --seed "$SEEDHEX" --random "$((SEED + n))" --out "$D" >"$T/seal.log" 2>&1; then
    fail "$proof: the reference's seal failed: $(tail -c 400 "$T/seal.log")"
    continue
  fi
  size=$(wc -c <"$D/c1.json")
  if "$ZK" filecoin c1 --c1 "$D/c1.json" --out "$D/back.json" >"$T/out" 2>&1 &&
    cmp -s "$D/c1.json" "$D/back.json"; then
    ok "$proof: the reference's C1 ($size bytes) read and written back byte for byte"
  else
    fail "$proof: C1 not written back identically: $(head -c 400 "$T/out")"
  fi
  if "$ZK" filecoin c1 --c1 "$D/c1.json" --out "$D/wrapped.json" --form wrapper --sector "$SECTOR" \
    >"$T/out" 2>&1 && "$REF" check-c1 --c1 "$D/wrapped.json" --prover-id "$PROVER" \
    --sector "$SECTOR" >"$T/check" 2>&1; then
    ok "$proof: the wrapper zkfleet wrote passes Filecoin's check-c1"
  else
    fail "$proof: check-c1 refused zkfleet's wrapper: $(tail -c 400 "$T/check") $(head -c 300 "$T/out")"
  fi
  if "$ZK" filecoin c1 --c1 "$D/wrapped.json" --out "$D/unwrapped.json" --form api >"$T/out" 2>&1 &&
    cmp -s "$D/c1.json" "$D/unwrapped.json"; then
    ok "$proof: the wrapper read back to the same API JSON"
  else
    fail "$proof: the wrapper did not read back: $(head -c 300 "$T/out")"
  fi
  COMMD=$(python3 -c "import json,sys; print(bytes(json.load(open(sys.argv[1]))['comm_d']).hex())" "$D/c1.json")
  COMMR=$(python3 -c "import json,sys; print(bytes(json.load(open(sys.argv[1]))['comm_r']).hex())" "$D/c1.json")
  "$ZK" filecoin derive --registered-proof "$proof" --prover-id "$PROVER" --sector "$SECTOR" \
    --ticket "$TICKET" --seed "$SEEDHEX" --comm-d "$COMMD" --comm-r "$COMMR" >"$D/derive.json"
  if python3 - "$D/c1.json" "$D/derive.json" >"$T/cmp" 2>&1 <<'PY'; then
import json, sys
c1, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert bytes(c1["replica_id"]).hex() == d["replica_id"], "replica_id"
parts = next(iter(c1["vanilla_proofs"].values()))
assert len(parts) == len(d["partition_data"]), "partition count"
for k, (part, pd) in enumerate(zip(parts, d["partition_data"])):
    assert len(part) == len(pd["challenges"]), f"partition {k}: challenge count"
    for i, (p, ch) in enumerate(zip(part, pd["challenges"])):
        rcp = p["replica_column_proofs"]
        assert rcp["c_x"]["column"]["index"] == ch["challenge"], f"[{k}][{i}] challenge"
        assert [c["column"]["index"] for c in rcp["drg_parents"]] == ch["drg_parents"], f"[{k}][{i}] drg"
        assert [c["column"]["index"] for c in rcp["exp_parents"]] == ch["exp_parents"], f"[{k}][{i}] exp"
        assert p["encoding_proof"]["node"] == ch["challenge"], f"[{k}][{i}] encoding node"
print(f"{sum(len(p) for p in parts)} challenges")
PY
    ok "$proof: replica_id, challenges and parents in the C1 = zkfleet's derivation ($(cat "$T/cmp"))"
  else
    fail "$proof: the C1 disagrees with zkfleet's derivation: $(tail -c 300 "$T/cmp")"
  fi
done

# A value not below r, deep in the proof: refused, the JSON path named.
D="$T/StackedDrg2KiBV1_1"
python3 - "$D/c1.json" "$T/tampered.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
r = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]["replica_column_proofs"]["drg_parents"][3]["column"]["rows"][1] = list(r.to_bytes(32, "little"))
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
PY
expect "a row equal to r: refused" 1 \
  "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents[3].column.rows[1]: value not below the field modulus" -- \
  "$ZK" filecoin c1 --c1 "$T/tampered.json"
finish
