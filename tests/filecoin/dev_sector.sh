# A 2 KiB sector to prove with zkfleet's development parameters, for the cluster tests that need
# one C2 and no cargo (sourced after tests/lib/cluster.sh's harness_init). dev_sector N: the
# parameters (`zkfleet filecoin setup --seed 1`, cached as tests/filecoin/c2_dev.sh makes them)
# and a sector sealed from the --random N piece for a random prover and sector; sets PROOF,
# PARAMS, VK, PROVER, SECTOR and C1, dies when setup or seal fails.
hex32() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }
dev_sector() {
  local out
  PROOF=StackedDrg2KiBV1_1
  out="$(timeout 1800 "$ZK" filecoin setup --registered-proof $PROOF --seed 1 --out "$T/params" 2>&1)" ||
    die "zkfleet filecoin setup: $out"
  PARAMS="$T/params/$PROOF.params"
  VK="$T/params/$PROOF.vk"
  PROVER="$(hex32)"
  SECTOR=$((RANDOM + 1))
  "$ZK" filecoin seal --registered-proof $PROOF --prover-id "$PROVER" --sector $SECTOR \
    --ticket "$(hex32 | sed 's/..$/0a/')" --seed "$(hex32)" --random "$1" --out "$T/seal" >"$T/seal.log" 2>&1 ||
    die "zkfleet filecoin seal: $(cat "$T/seal.log")"
  C1="$T/seal/c1.json"
}
