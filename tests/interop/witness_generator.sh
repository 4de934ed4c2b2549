#!/usr/bin/env bash
# End to end: a job brings an input.json and the node's configured witness generator
# (`snarkjs wtns calculate` with the circuit's wasm, run without a shell) makes its .wtns.
#
#   tests/interop/witness_generator.sh <path-to-zkfleet>
#
#   a) make_circuit.sh --keep-build recompiles the bn254 mulchain fixture (MulChain(1000), the
#      parameters of make_fixtures.sh) for its wasm; its circuit.r1cs (and witness) must come out
#      byte-identical to the committed fixture's, so the wasm belongs to the committed zkey
#   b) one node (scheduler, synth, prover; ports of its own) whose circuit has
#      witness_generator: [node, snarkjs cli, wtns, calculate, wasm, "{input}", "{output}"]
#   c) submit --input input.json --partitions 2, await: two proofs, both accepted by
#      snarkjs groth16 verify against the fixture's verification_key.json, public signals equal
#      to the fixture's public.json
#   d) a malformed input.json: await fails with the generator's own error (snarkjs's
#      "SyntaxError") in its message; an input.json that misses a signal likewise
#   e) the node is still up and proves the next input.json job; a circuit without a
#      witness_generator refuses an input.json at submit; no generated .wtns is left behind
# Every wait is bounded; the node is stopped at exit (tests/lib/cluster.sh). Prints one line per
# check and ends with "N passed, M failed"; exits non-zero if M > 0.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; fi
. "$HERE/../lib/cluster.sh"
harness_init wgen "$1"
MC="$FIX/mulchain"
need_snarkjs || die "scripts/deps --npm failed: no snarkjs"
SNARKJS_CLI="$(readlink -f "$SNARKJS")"   # build/cli.cjs: run by node, no shell, no #! lookup
NODE="$(command -v node)"
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=8192}"

# a) the wasm of the committed fixture's circuit
timeout 600 "$HERE/make_circuit.sh" --curve bn254 --kind mulchain --size 1000 --out "$T/circuit" --keep-build \
  >"$T/make.log" 2>&1
report "make_circuit.sh --keep-build: mulchain(1000) compiled" $? "$T/make.log"
WASM="$T/circuit/build/circuit_js/circuit.wasm"
cmp -s "$T/circuit/circuit.r1cs" "$MC/circuit.r1cs" && cmp -s "$T/circuit/witness.wtns" "$MC/witness.wtns" && [ -s "$WASM" ]
report "recompiled r1cs and witness are byte-identical to the fixture's (the wasm fits its zkey)" $?
[ "$H_FAILED" = 0 ] || finish

# b) one node, every role; the generator's scratch goes under $TMPDIR (checked empty at the end)
mkdir -p "$T/proofs"
cluster_new node tls
take_port DATA
yaml_head "lookahead: 1" "max_attempts: 2" "input_roots: [$MC, $T]"
yaml_circuit mulchain "$MC" "shape: abc_witness, witness_generator: [\"$NODE\", \"$SNARKJS_CLI\", wtns, calculate, \"$WASM\", \"{input}\", \"{output}\"]"
yaml_circuit mulchain-nogen "$MC"
yaml_line "node:" "  name: local" "  roles: [scheduler, synth, prover]" \
  "  listen: {control: 127.0.0.1:$SCHED_PORT, data: 127.0.0.1:$DATA}" \
  "  resources: {cores: 2, memory_budget: 256MiB, prover_backend: cpu}" "  hot_circuits: [mulchain]"
# Mutual TLS: the node and the client each with a certificate of the test's own CA.
"$ZK" certs create-ca --certs-dir "$CERTS" >/dev/null &&
  "$ZK" certs create-node local --certs-dir "$CERTS" >/dev/null &&
  "$ZK" certs create-client admin --certs-dir "$CERTS" >/dev/null
report "certificates for the node and the client" $?
start_bg node "$ZK" node --config "$CFG"
NODE_PID=$BG
wait_log 60 "$T/node.log" "zkfleet node local ready" 1 "$NODE_PID"
report "zkfleet node (scheduler, synth, prover) ready on 127.0.0.1:$SCHED_PORT" $? "$T/node.log"
[ "$H_FAILED" = 0 ] || finish

submit() { timeout 60 "$ZK" submit --config "$CFG" "$@"; }
await() { timeout 300 "$ZK" await --config "$CFG" "$1" --out "$T/proofs" --timeout 240 >"$T/await-$1.log" 2>&1; }
proofs_match() {  # proofs_match <job> <partitions>: snarkjs accepts each proof; public signals as the fixture's
  local j="$1" n="$2" k p ok=0
  for k in $(seq 0 $((n - 1))); do
    p="$T/proofs/job$j-p$k"
    verify_proof "$MC/verification_key.json" "$p-public.json" "$p-proof.json" || { ok=1; cat "$p-public.json" >>"$T/verify.log" 2>&1; break; }
    [ "$(tr -d ' \n' <"$p-public.json")" = "$(tr -d ' \n' <"$MC/public.json")" ] || { ok=1; echo "public signals differ" >>"$T/verify.log"; break; }
  done
  return $ok
}

# c) input.json → witness generator → 2 partitions proven
J1="$(submit --circuit mulchain --input "$MC/input.json" --partitions 2 2>"$T/submit.log")"
report "submit --input input.json --partitions 2 accepted (job ${J1:-none})" $? "$T/submit.log"
await "$J1"
report "await job $J1: 2 proofs" $? "$T/await-$J1.log"
[ "$(grep -c verified "$T/await-$J1.log")" = 2 ]
report "await printed 2 verified proofs" $? "$T/await-$J1.log"
proofs_match "$J1" 2
report "snarkjs groth16 verify accepts both proofs; public signals equal the fixture's" $? "$T/verify.log"

# d) malformed input.json: the generator's error reaches `zkfleet await`
printf '{"x": "12345", "y": ' >"$T/malformed-input.json"
J2="$(submit --circuit mulchain --input "$T/malformed-input.json" --partitions 2 2>"$T/submit.log")"
report "a malformed input.json is accepted at submit (job ${J2:-none}): only the generator reads it" $? "$T/submit.log"
if await "$J2"; then r=1; else r=0; fi
report "await of the malformed job exits non-zero" $r "$T/await-$J2.log"
grep -q "witness generator $NODE on $T/malformed-input.json failed: exit status 1" "$T/await-$J2.log" \
  && grep -q "SyntaxError: Unexpected end of JSON input" "$T/await-$J2.log"
report "its message names the generator, the exit status and snarkjs's SyntaxError" $? "$T/await-$J2.log"

printf '{"x": "12345"}\n' >"$T/missing-signal-input.json"
J3="$(submit --circuit mulchain --input "$T/missing-signal-input.json" 2>"$T/submit.log")"
if await "$J3"; then r=1; else r=0; fi
[ $r = 0 ] && grep -q "Not all inputs have been set" "$T/await-$J3.log"
report "an input.json missing a signal fails with snarkjs's 'Not all inputs have been set'" $? "$T/await-$J3.log"

# e) the node carries on
kill -0 "$NODE_PID" 2>/dev/null
report "the node is still running after the failed jobs" $? "$T/node.log"
J4="$(submit --circuit mulchain --input "$MC/input.json" --partitions 1 2>"$T/submit.log")" && await "$J4" \
  && proofs_match "$J4" 1
report "the next input.json job (job ${J4:-none}) is proven and verified" $? "$T/await-${J4:-none}.log"

if submit --circuit mulchain-nogen --input "$MC/input.json" >"$T/nogen.log" 2>&1; then r=1; else r=0; fi
[ $r = 0 ] && grep -q "circuit 'mulchain-nogen' has no witness_generator in its config: give a .wtns" "$T/nogen.log"
report "a circuit without witness_generator refuses an input.json at submit" $? "$T/nogen.log"

left="$(find "$TMPDIR" -mindepth 1 -name 'zkfleet-wtns-*' | wc -l)"
[ "$left" = 0 ]
report "no generated witness left in the node's temp dir ($left)" $?

finish
