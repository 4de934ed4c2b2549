#!/usr/bin/env bash
# The public inputs of all 124 official 2 KiB seal regression records
# (tests/fixtures/filecoin/seal-regression-2kib.jsonl: V1_0_0 with porep_id 0; V1_1_0, V1_2_0 and
# V1_2_0 + SyntheticPoRep with porep_id 5), derived by `zkfleet filecoin derive` and by Filecoin's
# own StackedCompound::generate_public_inputs (`filecoin-ref derive`): every record's replica_id,
# challenges, parents and 39 inputs must be equal. (The proofs themselves are checked to decode
# and re-encode byte for byte by tests/filecoin/regression_test.cpp; verifying them needs the
# official verifying key, which is not reachable offline.)
#
#   tests/filecoin/regression_vs_ref.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init regression_vs_ref "${1:-}"
need_ref

python3 - "$ZK" "$REF" "$ROOT/tests/fixtures/filecoin/seal-regression-2kib.jsonl" >"$T/log" 2>&1 <<'PY' || true
import json, subprocess, sys
zk, ref, path = sys.argv[1:4]
failures = 0
for n, line in enumerate(open(path)):
    r = json.loads(line)
    pc = r["porep_config"]
    feats = pc["api_features"]
    version = pc["api_version"]
    if feats == ["SyntheticPoRep"]:
        name = "StackedDrg2KiBV1_1_Feat_SyntheticPoRep"
    elif feats == ["NonInteractivePoRep"]:
        name = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"
    else:
        name = "StackedDrg2KiBV1" if version == "V1_0_0" else "StackedDrg2KiBV1_1"
    hx = lambda k: bytes(r[k]).hex()
    args = ["--registered-proof", name, "--api-version", version, "--porep-id",
            bytes(pc["porep_id"]).hex(), "--prover-id", hx("prover_id"), "--sector",
            str(r["sector_id"]), "--ticket", hx("ticket"), "--seed", hx("seed"),
            "--comm-d", hx("comm_d"), "--comm-r", hx("comm_r")]
    a = subprocess.run([zk, "filecoin", "derive"] + args, capture_output=True, text=True)
    b = subprocess.run([ref, "derive"] + args, capture_output=True, text=True)
    label = f"record {n} ({version}{' ' + feats[0] if feats else ''})"
    if a.returncode or b.returncode:
        failures += 1
        print(f"FAIL: {label}: zkfleet exit {a.returncode}, reference exit {b.returncode}: "
              f"{(a.stderr + b.stderr)[-300:]}")
        continue
    x, y = json.loads(a.stdout), json.loads(b.stdout)
    keys = ["replica_id", "partition_data"]
    bad = [k for k in keys if x[k] != y[k]]
    if bad:
        failures += 1
        print(f"FAIL: {label}: differs in {bad}")
    else:
        print(f"ok: {label}: replica_id, challenges, parents and "
              f"{len(x['partition_data'][0]['public_inputs'])} public inputs equal")
print(f"regression records: {failures} failed")
PY
tally "$T/log"
grep -q '^regression records: 0 failed' "$T/log" ||
  fail "the records did not all pass or did not run to the end: $(tail -n 3 "$T/log" | tr '\n' ' ')"
n=$(grep -c '^ok: ' "$T/log")
[ "$n" = 124 ] || fail "$n records compared, not 124"
finish
