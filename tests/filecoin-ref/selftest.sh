#!/usr/bin/env bash
# Self-test of the filecoin-ref oracle against fixed external vectors. Builds the tool with
# build.sh (cached), then checks:
#   1. the polka-storage 2 KiB proof (../fixtures/filecoin/polka-2kib.json) verifies with filecoin_proofs::verify_seal,
#      and every changed input / tampered proof / tampered key is rejected;
#   2. the four SDR label vectors of rust-fil-proofs' test_create_labels;
#   3. a 2 KiB seal (V1 and V1_1): check-c1 accepts its C1, rejects a tampered one; derive agrees
#      with the challenges and parents inside the C1;
#   4. the constraint counts of storage-proofs-porep/tests/stacked_circuit.rs (--counts, ~1 min);
#   5. with --full: setup (random parameters for the 2 KiB circuit, ~10 min on 2 cores),
#      prove (Filecoin's CPU C2, ~1 min) and verify of that proof.
# Usage: selftest.sh [--counts] [--full]     Exit status 0 when every check passes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
counts=0; full=0
for a in "$@"; do
    case "$a" in
        --counts) counts=1 ;;
        --full) counts=1; full=1 ;;
        *) echo "usage: $0 [--counts] [--full]" >&2; exit 2 ;;
    esac
done
command -v python3 >/dev/null || { echo "selftest.sh needs python3" >&2; exit 2; }

B="$("$here/build.sh" | tail -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; fails=$((fails + 1)); }
expect() { # expect <rc> <description> <command...>
    local want=$1 desc=$2; shift 2
    local rc=0
    "$@" >"$work/out.json" 2>"$work/err.txt" || rc=$?
    if [ "$rc" = "$want" ]; then pass "$desc (exit $rc)"; else fail "$desc: exit $rc, expected $want: $(head -c 300 "$work/err.txt")"; fi
}
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# ---- 1. polka-storage 2 KiB proof -----------------------------------------------------------
V="$here/../fixtures/filecoin/polka-2kib.json"
jget "$V" "d['verifying_key_hex_compressed']" >"$work/vk.hex"
jget "$V" "d['proof_hex']" >"$work/proof.hex"
declare -A P=(
    [registered-proof]="$(jget "$V" "d['registered_proof']")"
    [api-version]="$(jget "$V" "d['api_version']")"
    [porep-id]="$(jget "$V" "d['porep_id_hex']")"
    [prover-id]="$(jget "$V" "d['prover_id_hex']")"
    [sector]="$(jget "$V" "d['sector_id']")"
    [ticket]="$(jget "$V" "d['ticket_hex']")"
    [seed]="$(jget "$V" "d['seed_hex']")"
    [comm-r]="$(jget "$V" "d['comm_r_hex']")"
    [comm-d]="$(jget "$V" "d['comm_d_hex']")"
    [vk]="$work/vk.hex"
    [proof]="$work/proof.hex"
)
polka() { # polka <rc> <desc> [key=value overrides]
    local want=$1 desc=$2; shift 2
    declare -A X=()
    local k kv
    for k in "${!P[@]}"; do X[$k]=${P[$k]}; done
    for kv in "$@"; do X[${kv%%=*}]=${kv#*=}; done
    local args=()
    for k in "${!X[@]}"; do args+=("--$k" "${X[$k]}"); done
    expect "$want" "polka verify: $desc" "$B" verify "${args[@]}"
}
flip() { python3 -c "import sys; b=bytearray.fromhex(open(sys.argv[1]).read().strip()); b[int(sys.argv[2])]^=int(sys.argv[3]); open(sys.argv[4],'w').write(b.hex())" "$@"; }
flip "$work/proof.hex" 0 32 "$work/proof-negA.hex"     # A -> -A (still a valid point)
flip "$work/proof.hex" 100 1 "$work/proof-bad.hex"     # B no longer on the curve
python3 - "$work/vk.hex" "$work/vk-swap.hex" <<'EOF'
import sys
v = bytearray.fromhex(open(sys.argv[1]).read().strip()); o = len(v) - 40 * 48
v[o:o+48], v[o+48:o+96] = v[o+48:o+96], v[o:o+48]
open(sys.argv[2], 'w').write(v.hex())
EOF
polka 0 "accepts the real proof"
polka 1 "sector 78" sector=78
polka 1 "other prover_id" prover-id=0100000000000000000000000000000000000000000000000000000000000000
polka 1 "other ticket" ticket=0d0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c
polka 1 "other seed" seed=0c0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d
polka 1 "other comm_r" comm-r=4bfb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950
polka 1 "other comm_d" comm-d=139c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421
polka 1 "default porep_id of StackedDrg2KiBV1_1 (5)" porep-id=0500000000000000000000000000000000000000000000000000000000000000
polka 1 "api version V1_0_0 (other graph)" api-version=V1_0_0
polka 1 "proof A negated" proof="$work/proof-negA.hex"
polka 1 "proof B corrupted" proof="$work/proof-bad.hex"
polka 1 "vk IC points swapped" vk="$work/vk-swap.hex"

# ---- 2. SDR labels (rust-fil-proofs create_label/multi.rs test_create_labels) ----------------
labels() { # labels <sector-size> <api> <porep byte> <expected limbs...>
    local ss=$1 api=$2 pb=$3; shift 3
    local want="$*"
    local pid rid got
    pid=$(python3 -c "print('$pb' * 32)"); rid=$(python3 -c "print('09' * 32)")
    if "$B" labels --sector-size "$ss" --api-version "$api" --porep-id "$pid" --replica-id "$rid" \
        --layers 11 --out "$work/labels-$ss-$api" >"$work/l.json" 2>"$work/err.txt"; then
        got=$(jget "$work/l.json" "' '.join(d['labels'][-1]['last_label_u64_limbs_le'])")
        if [ "$got" = "$want" ]; then pass "labels $ss $api"; else fail "labels $ss $api: got $got"; fi
    else
        fail "labels $ss $api: $(cat "$work/err.txt")"
    fi
}
labels 2048 V1_0_0 00 0xd3faa96b9a0fba04 0xea81a283d106485e 0xe3d51b9afa5ac2b3 0x0462f4f4f1a68d37
labels 4096 V1_0_0 00 0x7e191e52c4a8da86 0x5ae8a1c9e6fac148 0xce239f3b88a894b8 0x234c00d1dc1d53be
labels 2048 V1_1_0 7b 0xabb3f38bb70defcf 0x777a2e4d7769119f 0x3448959d495490bc 0x06021188c7a71cb5
labels 4096 V1_1_0 7b 0x22ab81cf68c4676d 0x7a77a82fc7c9c189 0xc6c03d32c1e42d23 0x0f777c18cc2c55bd

# ---- 3. 2 KiB seal, check-c1, derive --------------------------------------------------------
PR=$(python3 -c "print('01' * 32)"); TK=$(python3 -c "print('02' * 32)"); SD=$(python3 -c "print('03' * 32)")
for rp in StackedDrg2KiBV1 StackedDrg2KiBV1_1; do
    d="$work/seal-$rp"
    expect 0 "seal $rp" "$B" seal --registered-proof $rp --prover-id $PR --sector 7 --ticket $TK --seed $SD --random 42 --out "$d"
    expect 0 "check-c1 $rp" "$B" check-c1 --c1 "$d/c1.json" --prover-id $PR --sector 7
    expect 1 "check-c1 $rp with the wrong sector" "$B" check-c1 --c1 "$d/c1.json" --prover-id $PR --sector 8
    python3 - "$d/c1.json" "$d/c1-bad.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
c['vanilla_proofs']['StackedDrg2KiBV1'][0][0]['labeling_proofs'][0]['parents'][0][0] ^= 1
json.dump(c, open(sys.argv[2], 'w'))
EOF
    expect 1 "check-c1 $rp with a tampered labeling proof" "$B" check-c1 --c1 "$d/c1-bad.json" --prover-id $PR --sector 7
    CD=$(jget "$d/commit.json" "d['comm_d']"); CR=$(jget "$d/commit.json" "d['comm_r']")
    expect 0 "derive $rp" "$B" derive --registered-proof $rp --prover-id $PR --sector 7 --ticket $TK --seed $SD --comm-d $CD --comm-r $CR
    if python3 - "$d/c1.json" "$work/out.json" "$d/commit.json" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1])); dv = json.load(open(sys.argv[2])); cm = json.load(open(sys.argv[3]))
assert dv['replica_id'] == cm['replica_id']
proofs = c1['vanilla_proofs']['StackedDrg2KiBV1'][0]
chs = dv['partition_data'][0]['challenges']
assert len(proofs) == len(chs)
for pr, ch in zip(proofs, chs):
    rc = pr['replica_column_proofs']
    assert rc['c_x']['column']['index'] == ch['challenge']
    assert [x['column']['index'] for x in rc['drg_parents']] == ch['drg_parents']
    assert [x['column']['index'] for x in rc['exp_parents']] == ch['exp_parents']
assert dv['partition_data'][0]['num_public_inputs'] == 39
EOF
    then pass "derive $rp agrees with the C1 (replica_id, challenges, 6+8 parents)"; else fail "derive $rp disagrees with the C1"; fi
done

# ---- 4. constraint counts ---------------------------------------------------------------------
if [ $counts = 1 ]; then
    for s in 2 8 8-4 8-4-2; do
        expect 0 "count --test-config $s" "$B" count --test-config $s
        echo "      $(jget "$work/out.json" "'inputs %d constraints %d (expected %d) satisfied %s' % (d['num_inputs'], d['num_constraints'], d['expected_constraints'], d['satisfied'])")"
    done
    expect 0 "count StackedDrg2KiBV1_1 (blank)" "$B" count --registered-proof StackedDrg2KiBV1_1
    n=$(jget "$work/out.json" "d['num_constraints']")
    if [ "$n" = 2687921 ]; then pass "2 KiB circuit: 2687921 constraints"; else fail "2 KiB circuit: $n constraints"; fi
fi

# ---- 5. setup / prove / verify ------------------------------------------------------------------
if [ $full = 1 ]; then
    d="$work/seal-StackedDrg2KiBV1_1"
    expect 0 "setup StackedDrg2KiBV1_1" "$B" setup --registered-proof StackedDrg2KiBV1_1 --out "$work/params" --seed 1
    expect 0 "prove (seal_commit_phase2)" "$B" prove --c1 "$d/c1.json" --params "$work/params/StackedDrg2KiBV1_1.params" --prover-id $PR --sector 7 --out "$work/proof.bin"
    CD=$(jget "$d/commit.json" "d['comm_d']"); CR=$(jget "$d/commit.json" "d['comm_r']")
    expect 0 "verify the new proof" "$B" verify --vk "$work/params/StackedDrg2KiBV1_1.vk" --proof "$work/proof.bin" --registered-proof StackedDrg2KiBV1_1 --prover-id $PR --sector 7 --ticket $TK --seed $SD --comm-d $CD --comm-r $CR
    expect 1 "verify the new proof with the wrong sector" "$B" verify --vk "$work/params/StackedDrg2KiBV1_1.vk" --proof "$work/proof.bin" --registered-proof StackedDrg2KiBV1_1 --prover-id $PR --sector 8 --ticket $TK --seed $SD --comm-d $CD --comm-r $CR
fi

if [ $fails = 0 ]; then echo "selftest: all checks passed"; else echo "selftest: $fails check(s) FAILED"; exit 1; fi
