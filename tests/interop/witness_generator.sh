#!/usr/bin/env bash
# End to end: a job brings an input.json and the node's configured witness generator
# (`snarkjs wtns calculate` with the circuit's wasm, run without a shell) makes its .wtns.
#
#   tests/interop/witness_generator.sh <path-to-zkfleet>
#
#   a) make_circuit.sh --keep-build recompiles the bn254 mulchain fixture (MulChain(1000), the
#      parameters of make_fixtures.sh) for its wasm; its circuit.r1cs (and witness) must come out
#      byte-identical to the committed fixture's, so the wasm belongs to the committed zkey
#   b) one node (scheduler, synth, prover; random high ports) whose circuit has
#      witness_generator: [node, snarkjs cli, wtns, calculate, wasm, "{input}", "{output}"]
#   c) submit --input input.json --partitions 2, await: two proofs, both accepted by
#      snarkjs groth16 verify against the fixture's verification_key.json, public signals equal
#      to the fixture's public.json
#   d) a malformed input.json: await fails with the generator's own error (snarkjs's
#      "SyntaxError") in its message; an input.json that misses a signal likewise
#   e) the node is still up and proves the next input.json job; a circuit without a
#      witness_generator refuses an input.json at submit; no generated .wtns is left behind
# Every wait is bounded; the node is stopped in a trap. Prints one line per check and ends with
# "N passed, M failed"; exits non-zero if M > 0.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
if [ $# -lt 1 ]; then sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; fi
ZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
FIX="$ROOT/tests/fixtures/bn254/mulchain"
if [ ! -x "$ROOT/.tools/node/node_modules/.bin/snarkjs" ]; then
  "$ROOT/scripts/deps" --npm >/dev/null || { echo "witness_generator: scripts/deps --npm failed" >&2; echo "0 passed, 1 failed"; exit 1; }
fi
SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
SNARKJS_CLI="$(readlink -f "$SNARKJS")"   # build/cli.cjs: run by node, no shell, no #! lookup
NODE="$(command -v node)"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/zkfleet-wgen.XXXXXX")"
BASE=$((20000 + RANDOM % 20000))
CFG="$WORK/node.yaml"
NODE_PID=""
PASSED=0 FAILED=0
check() {  # check <label> <ok 0|1> [log]
  if [ "$2" = 0 ]; then PASSED=$((PASSED + 1)); echo "PASS $1"
  else FAILED=$((FAILED + 1)); echo "FAIL $1"; [ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/    | /' "$3" | tail -n 20; fi
}
stop_node() {
  [ -n "$NODE_PID" ] || return 0
  kill -TERM "$NODE_PID" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$NODE_PID" 2>/dev/null
  wait "$NODE_PID" 2>/dev/null
  NODE_PID=""
}
cleanup() { stop_node; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
finish() { echo "$PASSED passed, $FAILED failed"; [ "$FAILED" = 0 ]; exit $?; }

# a) the wasm of the committed fixture's circuit
timeout 600 "$HERE/make_circuit.sh" --curve bn254 --kind mulchain --size 1000 --out "$WORK/circuit" --keep-build \
  >"$WORK/make.log" 2>&1
check "make_circuit.sh --keep-build: mulchain(1000) compiled" $? "$WORK/make.log"
WASM="$WORK/circuit/build/circuit_js/circuit.wasm"
cmp -s "$WORK/circuit/circuit.r1cs" "$FIX/circuit.r1cs" && cmp -s "$WORK/circuit/witness.wtns" "$FIX/witness.wtns" && [ -s "$WASM" ]
check "recompiled r1cs and witness are byte-identical to the fixture's (the wasm fits its zkey)" $?
[ "$FAILED" = 0 ] || finish

# b) one node, every role; the generator's scratch goes under $WORK/tmp (checked empty at the end)
mkdir -p "$WORK/tmp" "$WORK/proofs"
cat >"$CFG" <<EOF
version: 1
scheduler:
  endpoint: 127.0.0.1:$BASE
  lookahead: 1
  max_attempts: 2
  input_roots: [$FIX, $WORK]
security:
  certs_dir: $WORK/certs
circuits:
  mulchain:
    zkey: $FIX/circuit.zkey
    r1cs: $FIX/circuit.r1cs
    shape: abc_witness
    witness_generator: ["$NODE", "$SNARKJS_CLI", wtns, calculate, "$WASM", "{input}", "{output}"]
  mulchain-nogen:
    zkey: $FIX/circuit.zkey
    r1cs: $FIX/circuit.r1cs
node:
  name: local
  roles: [scheduler, synth, prover]
  listen:
    control: 127.0.0.1:$BASE
    data: 127.0.0.1:$((BASE + 1))
  resources: {cores: 2, memory_budget: 256MiB, prover_backend: cpu}
  hot_circuits: [mulchain]
EOF
# Mutual TLS: the node and the client each with a certificate of the test's own CA.
"$ZK" certs create-ca --certs-dir "$WORK/certs" >/dev/null &&
  "$ZK" certs create-node local --certs-dir "$WORK/certs" >/dev/null &&
  "$ZK" certs create-client admin --certs-dir "$WORK/certs" >/dev/null
check "certificates for the node and the client" $?
TMPDIR="$WORK/tmp" "$ZK" node --config "$CFG" >"$WORK/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 300); do
  grep -q "ready" "$WORK/node.log" && break
  kill -0 "$NODE_PID" 2>/dev/null || break
  sleep 0.2
done
grep -q "zkfleet node local ready" "$WORK/node.log"
check "zkfleet node (scheduler, synth, prover) ready on 127.0.0.1:$BASE" $? "$WORK/node.log"
[ "$FAILED" = 0 ] || finish

submit() { timeout 60 "$ZK" submit --config "$CFG" "$@"; }
await() { timeout 300 "$ZK" await --config "$CFG" "$1" --out "$WORK/proofs" --timeout 240 >"$WORK/await-$1.log" 2>&1; }
verify_job() {  # verify_job <job> <partitions>: snarkjs accepts each proof; public signals as the fixture's
  local j="$1" n="$2" k ok=0
  for k in $(seq 0 $((n - 1))); do
    p="$WORK/proofs/job$j-p$k"
    timeout 120 "$SNARKJS" groth16 verify "$FIX/verification_key.json" "$p-public.json" "$p-proof.json" \
      >"$WORK/verify.log" 2>&1 && grep -q "OK!" "$WORK/verify.log" || { ok=1; cat "$p-public.json" >>"$WORK/verify.log" 2>&1; break; }
    [ "$(tr -d ' \n' <"$p-public.json")" = "$(tr -d ' \n' <"$FIX/public.json")" ] || { ok=1; echo "public signals differ" >>"$WORK/verify.log"; break; }
  done
  return $ok
}

# c) input.json → witness generator → 2 partitions proven
J1="$(submit --circuit mulchain --input "$FIX/input.json" --partitions 2 2>"$WORK/submit.log")"
check "submit --input input.json --partitions 2 accepted (job ${J1:-none})" $? "$WORK/submit.log"
await "$J1"
check "await job $J1: 2 proofs" $? "$WORK/await-$J1.log"
[ "$(grep -c verified "$WORK/await-$J1.log")" = 2 ]
check "await printed 2 verified proofs" $? "$WORK/await-$J1.log"
verify_job "$J1" 2
check "snarkjs groth16 verify accepts both proofs; public signals equal the fixture's" $? "$WORK/verify.log"

# d) malformed input.json: the generator's error reaches `zkfleet await`
printf '{"x": "12345", "y": ' >"$WORK/malformed-input.json"
J2="$(submit --circuit mulchain --input "$WORK/malformed-input.json" --partitions 2 2>"$WORK/submit.log")"
check "a malformed input.json is accepted at submit (job ${J2:-none}): only the generator reads it" $? "$WORK/submit.log"
if await "$J2"; then r=1; else r=0; fi
check "await of the malformed job exits non-zero" $r "$WORK/await-$J2.log"
grep -q "witness generator $NODE on $WORK/malformed-input.json failed: exit status 1" "$WORK/await-$J2.log" \
  && grep -q "SyntaxError: Unexpected end of JSON input" "$WORK/await-$J2.log"
check "its message names the generator, the exit status and snarkjs's SyntaxError" $? "$WORK/await-$J2.log"

printf '{"x": "12345"}\n' >"$WORK/missing-signal-input.json"
J3="$(submit --circuit mulchain --input "$WORK/missing-signal-input.json" 2>"$WORK/submit.log")"
if await "$J3"; then r=1; else r=0; fi
[ $r = 0 ] && grep -q "Not all inputs have been set" "$WORK/await-$J3.log"
check "an input.json missing a signal fails with snarkjs's 'Not all inputs have been set'" $? "$WORK/await-$J3.log"

# e) the node carries on
kill -0 "$NODE_PID" 2>/dev/null
check "the node is still running after the failed jobs" $? "$WORK/node.log"
J4="$(submit --circuit mulchain --input "$FIX/input.json" --partitions 1 2>"$WORK/submit.log")" && await "$J4" \
  && verify_job "$J4" 1
check "the next input.json job (job ${J4:-none}) is proven and verified" $? "$WORK/await-${J4:-none}.log"

if submit --circuit mulchain-nogen --input "$FIX/input.json" >"$WORK/nogen.log" 2>&1; then r=1; else r=0; fi
[ $r = 0 ] && grep -q "circuit 'mulchain-nogen' has no witness_generator in its config: give a .wtns" "$WORK/nogen.log"
check "a circuit without witness_generator refuses an input.json at submit" $? "$WORK/nogen.log"

left="$(find "$WORK/tmp" -mindepth 1 -name 'zkfleet-wtns-*' | wc -l)"
[ "$left" = 0 ]
check "no generated witness left in the node's temp dir ($left)" $?

finish
