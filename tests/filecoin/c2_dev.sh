#!/usr/bin/env bash
# C2 end to end without the Rust reference (CTest filecoin/c2-dev): zkfleet's own development
# parameters for the 2 KiB circuit (`zkfleet filecoin setup --seed 1`, cached in
# ${ZK_CACHE_DIR:-~/.cache/zkfleet}/filecoin-params/: 4–5 minutes and 1.1 GB the first time), a
# sector sealed by zkfleet with random ids, proved by the one Groth16 prover over the .params key
# view; the proof accepted by `zkfleet filecoin verify` (verify_seal) and by npm @noble/curves (code
# no one here wrote), rejected by both for the next sector and for another seed's key; `--timings`
# names every prover stage and where it ran; the refusals before any proving (another prover id, a
# C1 of another registered proof's size against these parameters). Filecoin's own verifier is
# tests/filecoin/prove_vs_ref.sh's (it needs cargo).
#
#   tests/filecoin/c2_dev.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init c2_dev "${1:-}"
need_noble
hex32() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
c1_hex() { python3 -c "import json,sys; print(bytes(json.load(open(sys.argv[1]))[sys.argv[2]]).hex())" "$1" "$2"; }

PROOF=StackedDrg2KiBV1_1
# Made once into the cache (zkfleet takes a lock there: the demo and other tests share them).
if out="$(timeout 1800 "$ZK" filecoin setup --registered-proof $PROOF --seed 1 --out "$T/params" 2>&1)"; then
  ok "development parameters: $(tail -n 1 <<<"$out")"
else
  die "zkfleet filecoin setup: $out"
fi
PARAMS="$T/params/$PROOF.params"
VK="$T/params/$PROOF.vk"

PROVER="$(hex32)"
SECTOR=$((RANDOM + 1))
if out="$("$ZK" filecoin seal --registered-proof $PROOF --prover-id "$PROVER" --sector $SECTOR \
  --ticket "$(hex32 | sed 's/..$/0a/')" --seed "$(hex32)" --random $RANDOM --out "$T/seal" 2>&1)"; then
  ok "sealed sector $SECTOR of prover $PROVER"
else
  die "zkfleet filecoin seal: $out"
fi
C1="$T/seal/c1.json"
args=(--registered-proof $PROOF --prover-id "$PROVER" --ticket "$(c1_hex "$C1" ticket)"
  --seed "$(c1_hex "$C1" seed)" --comm-r "$(c1_hex "$C1" comm_r)" --comm-d "$(c1_hex "$C1" comm_d)")

# --- prove: every stage named, with where it ran ---------------------------------------------
if out="$("$ZK" filecoin prove --c1 "$C1" --params "$PARAMS" --vk "$VK" --prover-id "$PROVER" \
  --sector $SECTOR --out "$T/zk.proof" --timings 2>"$T/timings")" &&
  [ "$(stat -c %s "$T/zk.proof")" = 192 ]; then
  ok "zkfleet filecoin prove: $out"
  sed 's/^/     /' "$T/timings"
else
  die "zkfleet filecoin prove: $out $(cat "$T/timings")"
fi
for stage in compute_h msm_a msm_b1 msm_b2 msm_c msm_h assemble verify; do
  if grep -qE "^  $stage +[0-9.]+ s  cpu$" "$T/timings"; then
    ok "--timings: $stage ran on the cpu"
  else
    fail "--timings has no line for $stage with its backend"
  fi
done

# --- verified by zkfleet's verify_seal and by @noble/curves; not for another sector -----------
for sector in $SECTOR $((SECTOR + 1)); do
  want=$([ $sector = $SECTOR ] && echo 0 || echo 1)
  zrc=0 nrc=0
  "$ZK" filecoin verify --vk "$VK" --proof "$T/zk.proof" "${args[@]}" --sector $sector \
    --print-public-inputs >"$T/inputs.txt" 2>"$T/zk.txt" || zrc=$?
  nout="$(node "$ROOT/tests/filecoin/noble_verify.js" "$VK" "$T/zk.proof" "$T/inputs.txt" 2>&1)" || nrc=$?
  if [ $zrc = $want ] && [ $nrc = $want ]; then
    ok "sector $sector: zkfleet verify exit $zrc, @noble/curves exit $nrc (expected $want)"
  else
    fail "sector $sector: zkfleet verify exit $zrc, @noble/curves exit $nrc, expected $want: $(cat "$T/zk.txt") / $nout"
  fi
done
# Another seed's verifying key rejects the proof.
"$ZK" filecoin setup --registered-proof $PROOF --seed 2 --vk-only --out "$T/seed2" >/dev/null
zrc=0
"$ZK" filecoin verify --vk "$T/seed2/$PROOF.vk" --proof "$T/zk.proof" "${args[@]}" --sector $SECTOR \
  >/dev/null 2>&1 || zrc=$?
if [ $zrc = 1 ]; then ok "another seed's key rejects the proof"; else fail "another seed's key: exit $zrc"; fi
# Proving against that key: the proof does not verify with --vk, nothing is written.
rc=0
out="$("$ZK" filecoin prove --c1 "$C1" --params "$PARAMS" --vk "$T/seed2/$PROOF.vk" \
  --prover-id "$PROVER" --sector $SECTOR --out "$T/never.proof" 2>&1)" || rc=$?
if [ $rc = 1 ] && grep -q "does not verify with --vk" <<<"$out" && [ ! -e "$T/never.proof" ]; then
  ok "--vk of another seed: refused, nothing written"
else
  fail "--vk of another seed: exit $rc, $out"
fi

# --- refused before proving ---------------------------------------------------------------------
rc=0
out="$("$ZK" filecoin prove --c1 "$C1" --params "$PARAMS" --prover-id "$(hex32)" --sector $SECTOR \
  --out "$T/never.proof" 2>&1)" || rc=$?
if [ $rc = 1 ] && grep -q "REFUSED: .*replica_id" <<<"$out" && [ ! -e "$T/never.proof" ]; then
  ok "another prover id: $out"
else
  fail "another prover id: exit $rc, $out"
fi
"$ZK" filecoin seal --registered-proof StackedDrg8MiBV1_1 --prover-id "$PROVER" --sector $SECTOR \
  --ticket "$(hex32 | sed 's/..$/0a/')" --seed "$(hex32)" --random 1 --out "$T/seal8" >/dev/null 2>&1 &&
  {
    rc=0
    out="$("$ZK" filecoin prove --c1 "$T/seal8/c1.json" --params "$PARAMS" --prover-id "$PROVER" \
      --sector $SECTOR --out "$T/never.proof" 2>&1)" || rc=$?
    if [ $rc = 1 ] && grep -q "parameters for another circuit" <<<"$out" && [ ! -e "$T/never.proof" ]; then
      ok "an 8 MiB C1 against 2 KiB parameters: $out"
    else
      fail "an 8 MiB C1 against 2 KiB parameters: exit $rc, $out"
    fi
  }
finish
