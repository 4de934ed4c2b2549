#!/usr/bin/env bash
# `zkfleet filecoin derive` against Filecoin's own functions (`filecoin-ref derive`: public_params,
# generate_replica_id, PublicInputs::challenges, BucketGraph::parents, expanded_parents,
# StackedCompound::generate_public_inputs): for every registered seal proof (all 20) under its
# default ApiVersion and each of V1_0_0, V1_1_0, V1_2_0, with random prover ids, sectors,
# tickets, seeds and commitments (and a random porep_id for a quarter of them), every field both
# print must be equal — the configuration, drg_seed, feistel_keys, replica_id, and for every
# partition each challenge with its 6 + 8 parents and all public inputs in circuit order. Then
# whole graphs (--parents-all: the 14 parents of every node) for 2 KiB under all three versions
# and 8 MiB under V1_0_0 and V1_1_0.
#
#   tests/filecoin/derive_vs_ref.sh <path-to-zkfleet> [SEED]
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init derive_vs_ref "${1:-}"
need_ref
SEED="${2:-$RANDOM}"
echo "random seed $SEED (rerun: $0 $1 $SEED)"

python3 - "$ZK" "$REF" "$SEED" "$T" >"$T/log" 2>&1 <<'PY' || true
import json, random, subprocess, sys

zk, ref, seed, tmp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
failures = 0
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001

def hx(b): return bytes(b).hex()
def rand32(): return [rng.randrange(256) for _ in range(32)]
def field32():  # a random field element (little-endian bytes below r)
    while True:
        v = rng.randrange(1 << 255)
        if 0 < v < R: return list(v.to_bytes(32, "little"))

def run(tool, args):
    cmd = [tool, "filecoin", "derive"] if tool == zk else [tool, "derive"]
    p = subprocess.run(cmd + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{tool} derive {' '.join(args)}: exit {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout)

def compare(label, args):
    global failures
    a, b = run(zk, args), run(ref, args)
    shared = [k for k in a if k in b]
    missing = [k for k in ("replica_id", "partition_data", "drg_seed", "feistel_keys", "partitions",
                           "challenges_per_partition", "porep_id", "api_version", "parents_all")
               if (k in b) != (k in a)]
    bad = [k for k in shared if a[k] != b[k]] + [f"{k} (printed by one only)" for k in missing]
    if bad:
        failures += 1
        k = bad[0].split(" ")[0]
        print(f"FAIL: {label}: differs in {', '.join(bad)}")
        if k in a and k in b:
            print(f"  zkfleet:   {json.dumps(a[k])[:600]}")
            print(f"  reference: {json.dumps(b[k])[:600]}")
    else:
        nin = sum(len(p["public_inputs"]) for p in a.get("partition_data", []))
        print(f"ok: {label}: {len(shared)} fields equal ({nin} public inputs"
              f"{', %d nodes of parents' % len(a['parents_all']) if 'parents_all' in a else ''})")

names = [p for p in """StackedDrg2KiBV1 StackedDrg8MiBV1 StackedDrg512MiBV1 StackedDrg32GiBV1
StackedDrg64GiBV1 StackedDrg2KiBV1_1 StackedDrg8MiBV1_1 StackedDrg512MiBV1_1 StackedDrg32GiBV1_1
StackedDrg64GiBV1_1 StackedDrg2KiBV1_1_Feat_SyntheticPoRep StackedDrg8MiBV1_1_Feat_SyntheticPoRep
StackedDrg512MiBV1_1_Feat_SyntheticPoRep StackedDrg32GiBV1_1_Feat_SyntheticPoRep
StackedDrg64GiBV1_1_Feat_SyntheticPoRep StackedDrg2KiBV1_2_Feat_NonInteractivePoRep
StackedDrg8MiBV1_2_Feat_NonInteractivePoRep StackedDrg512MiBV1_2_Feat_NonInteractivePoRep
StackedDrg32GiBV1_2_Feat_NonInteractivePoRep StackedDrg64GiBV1_2_Feat_NonInteractivePoRep""".split()]
for name in names:
    for version in [None, "V1_0_0", "V1_1_0", "V1_2_0"]:
        args = ["--registered-proof", name,
                "--prover-id", hx(rand32()), "--sector", str(rng.randrange(1 << 64)),
                "--ticket", hx(rand32()), "--seed", hx(rand32()),
                "--comm-d", hx(field32()), "--comm-r", hx(field32())]
        label = name + (" " + version if version else " (default version)")
        if version: args += ["--api-version", version]
        if rng.randrange(4) == 0:
            args += ["--porep-id", hx(rand32())]
            label += " + random porep_id"
        try:
            compare(label, args)
        except Exception as e:
            failures += 1
            print(f"FAIL: {label}: {e}")

for name, versions in [("StackedDrg2KiBV1_1", ["V1_0_0", "V1_1_0", "V1_2_0"]),
                       ("StackedDrg8MiBV1_1", ["V1_0_0", "V1_1_0"])]:
    for version in versions:
        try:
            compare(f"{name} {version} whole graph", ["--registered-proof", name, "--api-version",
                                                      version, "--parents-all"])
        except Exception as e:
            failures += 1
            print(f"FAIL: {name} {version} whole graph: {e}")

print(f"derive comparisons: {failures} failed")
sys.exit(1 if failures else 0)
PY
tally "$T/log"
grep -q '^derive comparisons: 0 failed' "$T/log" ||
  fail "the comparisons did not all pass or did not run to the end: $(tail -n 3 "$T/log" | tr '\n' ' ')"
finish
