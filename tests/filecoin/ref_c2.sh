# The 2 KiB C2 inputs the tests that prove against Filecoin's own code share
# (tests/filecoin/prove_vs_ref.sh, tests/filecoin/cluster.sh). Source it after harness_init
# (tests/lib/cluster.sh: ROOT, T, die) and need_ref (tests/filecoin/ref_lib.sh: REF):
#
#   . "$(dirname "${BASH_SOURCE[0]}")/ref_c2.sh"
#
# Sets PARAMS and VK: the reference's own 2 KiB parameters (its `setup`, seed 7), cached outside
# the clone in $ZK_CACHE_DIR (default ~/.cache/zkfleet)/filecoin-params/ref-<Cargo.lock key>-2kib-seed7
# and made when absent (~10 minutes; one test at a time, under a lock); then seals a sector with the reference (random ids, ticket,
# seed and data; the prover id REF_C2_PROVER when set) and sets PROOF, PROVER, SECTOR and C1 (its c1.json); defines c1_hex FILE KEY (a
# byte array of a C1 as hex). Ends the test (die) when the reference fails.
REF_KEY="$(sha256sum "$ROOT/tests/filecoin-ref/Cargo.lock" | cut -c1-16)"
PDIR="${ZK_CACHE_DIR:-$HOME/.cache/zkfleet}/filecoin-params/ref-$REF_KEY-2kib-seed7"
PARAMS="$PDIR/StackedDrg2KiBV1_1.params"
VK="$PDIR/StackedDrg2KiBV1_1.vk"
# One test makes them; another that needs them meanwhile waits on the lock (CTest runs both at
# once), then reuses them. Made in a folder of their own, renamed whole when complete.
mkdir -p "$(dirname "$PDIR")"
exec {REF_C2_LOCK}>"$PDIR.lock"
flock -w 1500 "$REF_C2_LOCK" || die "another test held $PDIR.lock for 25 minutes"
if [ ! -e "$PDIR/setup.ok" ]; then
  echo "== making the 2 KiB parameters with the reference (seed 7; ~10 minutes) into $PDIR"
  rm -rf "$PDIR.tmp" "$PDIR"
  mkdir -p "$PDIR.tmp"
  "$REF" setup --registered-proof StackedDrg2KiBV1_1 --out "$PDIR.tmp" --seed 7 >"$PDIR.tmp/setup.json" ||
    die "the reference's setup failed"
  touch "$PDIR.tmp/setup.ok"
  mv "$PDIR.tmp" "$PDIR"
fi
flock -u "$REF_C2_LOCK"
exec {REF_C2_LOCK}>&-

PROOF=StackedDrg2KiBV1_1
PROVER="${REF_C2_PROVER:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}"
SECTOR=$((RANDOM + 1))
"$REF" seal --registered-proof $PROOF --prover-id "$PROVER" --sector $SECTOR \
  --ticket "$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n' | sed 's/..$/0a/')" \
  --seed "$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" --random $RANDOM --out "$T/seal" \
  >"$T/seal.log" 2>&1 || die "the reference's seal failed: $(tail -n 5 "$T/seal.log")"
C1="$T/seal/c1.json"
c1_hex() { python3 -c "import json,sys; print(bytes(json.load(open(sys.argv[1]))[sys.argv[2]]).hex())" "$1" "$2"; }
