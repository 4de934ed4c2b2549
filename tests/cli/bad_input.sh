#!/usr/bin/env bash
# Bad input through the command line: every case must end with a non-zero exit (never a crash
# or a hang) and a message that names the file — and, for binary files, the section and offset.
#
#   tests/cli/bad_input.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed"; exits non-zero if M > 0.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init bad_input "${1:-}"
FX="$ROOT/tests/fixtures"

# expect_fail <label> <regex the message must match> -- <command...>
expect_fail() {
  local label="$1" re="$2"; shift 3
  local out rc
  out="$(timeout 60 "$@" 2>&1)"; rc=$?
  if [ $rc -eq 124 ]; then fail "$label: hung (timeout)"; return; fi
  if [ $rc -eq 0 ]; then fail "$label: exit 0"; return; fi
  if [ $rc -ge 128 ]; then fail "$label: crashed (exit $rc)"; return; fi
  if ! grep -Eq -- "$re" <<<"$out"; then fail "$label: message does not match /$re/: $out"; return; fi
  if [ -e "$T/proof.json" ]; then rm -f "$T/proof.json"; fail "$label: a proof was written"; return; fi
  ok "$label: $(head -c 200 <<<"$out" | tr '\n' ' ')"
}

BN="$FX/bn254/mulchain"; BNP="$FX/bn254/poseidon"; BLS="$FX/bls12_381/mulchain"

# --- zkey ------------------------------------------------------------------------------------
size=$(stat -c %s "$BN/circuit.zkey")
for cut in 3 11 40 700 $((size / 2)) $((size - 1)); do
  head -c "$cut" "$BN/circuit.zkey" > "$T/trunc.zkey"
  expect_fail "zkey truncated at $cut bytes" "trunc\.zkey.*(offset|truncated|too short|bytes)" -- "$ZK" prove "$T/trunc.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"
done
python3 - "$BN/circuit.zkey" "$T" <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
d = bytearray(open(src, 'rb').read())
open(out + '/magic.zkey', 'wb').write(b'zkex' + d[4:])
v = bytearray(d); v[4:8] = struct.pack('<I', 2); open(out + '/version.zkey', 'wb').write(v)
# walk the section table; corrupt the length of section 7 (B2) and the protocol id
pos, n = 12, struct.unpack_from('<I', d, 8)[0]
for _ in range(n):
    sid, ln = struct.unpack_from('<IQ', d, pos)
    if sid == 7:
        b = bytearray(d); struct.pack_into('<Q', b, pos + 4, ln - 64)
        open(out + '/seclen.zkey', 'wb').write(b)
    if sid == 1:
        b = bytearray(d); struct.pack_into('<I', b, pos + 12, 2)
        open(out + '/plonk.zkey', 'wb').write(b)
    pos += 12 + ln
PY
expect_fail "zkey bad magic" "magic\.zkey" -- "$ZK" prove "$T/magic.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"
expect_fail "zkey bad version" "version\.zkey.*version" -- "$ZK" prove "$T/version.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"
expect_fail "zkey bad section length" "seclen\.zkey.*section" -- "$ZK" prove "$T/seclen.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"
expect_fail "zkey of another protocol" "plonk\.zkey.*(PLONK|protocol)" -- "$ZK" prove "$T/plonk.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"
expect_fail "zkey missing" "nope\.zkey" -- "$ZK" prove "$T/nope.zkey" "$BN/witness.wtns" "$T/proof.json" "$T/public.json"

# --- witness ---------------------------------------------------------------------------------
expect_fail "witness of another curve" "witness\.wtns" -- "$ZK" prove "$BN/circuit.zkey" "$BLS/witness.wtns" "$T/proof.json" "$T/public.json"
expect_fail "witness of another circuit (size)" "witness\.wtns" -- "$ZK" prove "$BN/circuit.zkey" "$BNP/witness.wtns" "$T/proof.json" "$T/public.json"
head -c 100 "$BN/witness.wtns" > "$T/trunc.wtns"
expect_fail "witness truncated" "trunc\.wtns" -- "$ZK" prove "$BN/circuit.zkey" "$T/trunc.wtns" "$T/proof.json" "$T/public.json"
python3 - "$BN/witness.wtns" "$T" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
# values start after the 12-byte file header, section 1 (12 + 40) and section 2's 12-byte header
v0 = 12 + 12 + 40 + 12
b = bytearray(d); b[v0 + 32 * 500] ^= 1            # wire 500 changed: unsatisfied
open(sys.argv[2] + '/unsat.wtns', 'wb').write(b)
b = bytearray(d); b[v0 + 32 * 7: v0 + 32 * 8] = b'\xff' * 32   # wire 7 ≥ r
open(sys.argv[2] + '/range.wtns', 'wb').write(b)
PY
expect_fail "witness that does not satisfy the circuit" "unsat\.wtns.*(does not satisfy|fails verification)" -- "$ZK" prove "$BN/circuit.zkey" "$T/unsat.wtns" "$T/proof.json" "$T/public.json"
expect_fail "witness value >= r" "range\.wtns" -- "$ZK" prove "$BN/circuit.zkey" "$T/range.wtns" "$T/proof.json" "$T/public.json"

# --- verify ----------------------------------------------------------------------------------
vk="$BN/verification_key.json"; pub="$BN/public.json"; pf="$BN/proof.json"
echo '{"pi_a": [' > "$T/broken.json"
expect_fail "proof.json not JSON" "broken\.json" -- "$ZK" verify "$vk" "$pub" "$T/broken.json"
python3 - "$pf" "$T" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
q = dict(p); del q['pi_b']; json.dump(q, open(sys.argv[2] + '/nopib.json', 'w'))
q = json.loads(json.dumps(p)); q['pi_a'][0] = str(int(q['pi_a'][0]) + 1); json.dump(q, open(sys.argv[2] + '/offcurve.json', 'w'))
q = json.loads(json.dumps(p)); q['pi_c'][1] = '1' + '0' * 80; json.dump(q, open(sys.argv[2] + '/big.json', 'w'))
q = json.loads(json.dumps(p)); q['pi_a'], q['pi_c'] = q['pi_c'], q['pi_a']; json.dump(q, open(sys.argv[2] + '/swapped.json', 'w'))
PY
expect_fail "proof.json missing pi_b" "nopib\.json.*pi_b" -- "$ZK" verify "$vk" "$pub" "$T/nopib.json"
expect_fail "proof point off the curve" "offcurve\.json.*pi_a" -- "$ZK" verify "$vk" "$pub" "$T/offcurve.json"
expect_fail "proof coordinate >= q" "big\.json.*pi_c" -- "$ZK" verify "$vk" "$pub" "$T/big.json"
expect_fail "tampered proof" "INVALID" -- "$ZK" verify "$vk" "$pub" "$T/swapped.json"
echo '["1"]' > "$T/short.json"
expect_fail "wrong number of public signals" "expects 2 public inputs, got 1" -- "$ZK" verify "$vk" "$T/short.json" "$pf"
expect_fail "verification key of another curve" "(curve|not on)" -- "$ZK" verify "$BLS/verification_key.json" "$pub" "$pf"

# --- usage -----------------------------------------------------------------------------------
expect_fail "prove with too few arguments" "usage" -- "$ZK" prove "$BN/circuit.zkey"
expect_fail "unknown command" "unknown command" -- "$ZK" frobnicate
# Integer arguments: one parser for every subcommand (no sign, no wrap-around, the range named).
expect_fail "negative seed" "--seed needs a non-negative integer, got '-5'" -- "$ZK" setup "$BN/circuit.r1cs" "$T/k.zkey" "$T/vk.json" --seed -5
expect_fail "seed past 2^64" "--seed needs a non-negative integer, got '18446744073709551616'" -- "$ZK" setup "$BN/circuit.r1cs" "$T/k.zkey" "$T/vk.json" --seed 18446744073709551616
expect_fail "negative rows" "--rows needs a non-negative integer, got '-1'" -- "$ZK" simulate --config "$T/none.yaml" --rows -1
expect_fail "zero partitions" "--partitions needs an integer from 1 to 10000, got '0'" -- "$ZK" demo --partitions 0
expect_fail "partition not a number" "--partition needs an integer from 0 to 4294967295, got '1x'" -- "$ZK" prove --circuit porep-lite --params depth=4 --partition 1x --key "$T" "$T/proof.json" "$T/public.json"
# An output that would replace an input (or the other output) is refused, and the input survives.
# On copies: a regression here must not destroy the fixtures.
cp "$BN/circuit.r1cs" "$T/c.r1cs"; cp "$BN/circuit.zkey" "$T/c.zkey"; cp "$BN/witness.wtns" "$T/w.wtns"
ln -sf "$T/c.r1cs" "$T/link.zkey"; ln -f "$T/w.wtns" "$T/hard.json"
expect_fail "setup: zkey output = the r1cs" "c\.r1cs: the proving key output \(\.zkey\) would replace the circuit \(\.r1cs\)" -- "$ZK" setup "$T/c.r1cs" "$T/c.r1cs" "$T/vk.json"
expect_fail "setup: zkey output = a symlink to the r1cs" "link\.zkey: the proving key output .* would replace the circuit .*the same file" -- "$ZK" setup "$T/c.r1cs" "$T/link.zkey" "$T/vk.json"
expect_fail "setup: vk output = the zkey output" "the verification key output would replace the proving key output" -- "$ZK" setup "$T/c.r1cs" "$T/k.zkey" "$T/./k.zkey"
expect_fail "prove: proof output = the zkey" "c\.zkey: the proof output would replace the proving key" -- "$ZK" prove "$T/c.zkey" "$T/w.wtns" "$T/c.zkey" "$T/public.json"
expect_fail "prove: public output = a hard link to the witness" "hard\.json: the public signals output would replace the witness" -- "$ZK" prove "$T/c.zkey" "$T/w.wtns" "$T/proof.json" "$T/hard.json"
expect_fail "prove: public output = the proof output" "the public signals output would replace the proof output" -- "$ZK" prove "$T/c.zkey" "$T/w.wtns" "$T/proof.json" "$T/proof.json"
expect_fail "setup: the vk's folder does not exist" "vk\.json: the verification key output: .*/nodir is not a directory" -- "$ZK" setup "$T/c.r1cs" "$T/k.zkey" "$T/nodir/vk.json"
expect_fail "prove: the proof output is a directory" "the proof output is a directory" -- "$ZK" prove "$T/c.zkey" "$T/w.wtns" "$T" "$T/public.json"
expect_fail "submit: a second file after --input" "unexpected argument 'b\.wtns' \(each input file needs its own --input\)" -- "$ZK" submit --config "$T/none.yaml" --circuit c --input a.wtns b.wtns
expect_fail "down: a stray argument" "unexpected argument 'extra'" -- "$ZK" down --config "$T/none.yaml" extra
expect_fail "a short option" "unknown option -v \(options are spelt --name\)" -- "$ZK" prove "$T/c.zkey" "$T/w.wtns" "$T/proof.json" "$T/public.json" -v
if out="$("$ZK" prove "$T/c.zkey" "$T/w.wtns" /dev/null /dev/null --backend cpu 2>&1)"; then
  ok "prove to /dev/null twice: devices never clash"
else fail "prove to /dev/null twice: $out"; fi
# Written in place, never replaced (a rename over it, as root, left a regular /dev/null behind).
[ -c /dev/null ] && ok "/dev/null is still a character device" || fail "/dev/null is no longer a device: $(ls -l /dev/null)"
for f in circuit.r1cs:c.r1cs circuit.zkey:c.zkey witness.wtns:w.wtns; do
  if cmp -s "$BN/${f%%:*}" "$T/${f##*:}"; then ok "${f##*:} intact after the refusals"
  else fail "${f##*:} was changed by a refused command"; fi
done
[ ! -e "$T/k.zkey" ] && [ ! -e "$T/vk.json" ] && { ok "nothing written by the refused setups"; } \
  || { fail "a refused setup wrote a file"; }

# A circuit the scheduler refuses at start-up (its r1cs is another curve's): the node says why and
# exits (it used to hang in the actor system's shutdown, printing nothing); so does `up`, at once.
cluster_new badcircuit insecure
yaml_head
yaml_line "circuits:" "  mixed: {zkey: $BLS/circuit.zkey, r1cs: $BN/circuit.r1cs, shape: abc_witness}"
yaml_node scheduler scheduler
yaml_node prover prover "resources: {memory_budget: 1GiB, prover_backend: cpu}"
expect_fail "node: a circuit refused at start-up" "circuit\.r1cs: does not match .*circuit\.zkey" -- "$ZK" node --config "$CFG" --node scheduler
expect_fail "up: the scheduler exits at start-up" "node scheduler exited \(status 1\) before the cluster was ready: .*does not match" -- "$ZK" up --config "$CFG"

# --help: the command's own usage, options and positionals on stdout, exit 0; the root's lists the commands.
expect_help() {  # expect_help <label> <regex> -- <command...>
  local label="$1" re="$2"; shift 3
  local out rc
  out="$("$@" 2>/dev/null)"; rc=$?
  if [ $rc -eq 0 ] && grep -Eq -- "$re" <<<"$out"; then ok "$label"; else fail "$label (exit $rc): $out"; fi
}
expect_help "prove --help: its usage and options" "usage: zkfleet prove \[OPTIONS\] circuit\.zkey witness\.wtns proof\.json public\.json" -- "$ZK" prove --help
expect_help "prove --help names --backend" "--backend cpu\|cuda\|auto" -- "$ZK" prove --help
expect_help "prove --circuit ... --help: the native form's usage" "usage: zkfleet prove \[OPTIONS\] proof\.json public\.json" -- "$ZK" prove --circuit porep-lite --help
expect_help "setup --circuit ... --help names --out" "--out DIR" -- "$ZK" setup --circuit porep-lite --help
expect_help "submit -h names --input" "--input FILE" -- "$ZK" submit -h
expect_help "node --help names --log-level" "--log-level LEVEL" -- "$ZK" node --help
expect_help "up --help names --log-level" "--log-level LEVEL" -- "$ZK" up --help
expect_help "zkfleet --help lists the commands" "^  cancel " -- "$ZK" --help
expect_help "zkfleet help lists the commands" "^  submit " -- "$ZK" help
# Usage errors: exit status 2, the message and the command's usage line.
expect_usage() {  # expect_usage <label> <regex> -- <command...>
  local label="$1" re="$2"; shift 3
  local out rc
  out="$(timeout 60 "$@" 2>&1)"; rc=$?
  if [ $rc -ne 2 ]; then fail "$label: exit $rc, not 2: $out"; return; fi
  if ! grep -Eq -- "$re" <<<"$out" || ! grep -q "^usage: zkfleet " <<<"$out"; then fail "$label: $out"; return; fi
  ok "$label: $(head -1 <<<"$out")"
}
expect_usage "no command" "^usage: zkfleet \[OPTIONS\] COMMAND" -- "$ZK"
expect_usage "an option given twice" "--seed is given 2 times; it takes one value" -- "$ZK" setup "$T/c.r1cs" "$T/k.zkey" "$T/vk.json" --seed 1 --seed 2
expect_usage "a positional too many" "verify takes <verification_key.json> <public.json> <proof.json> \(unexpected argument 'four'\)" -- "$ZK" verify a b c four
expect_usage "an unknown long option" "unknown option --frob$" -- "$ZK" status --config "$T/none.yaml" --frob=1
expect_usage "an option without its value" "--config needs a value \(FILE\)" -- "$ZK" status --config
expect_usage "await without a job" "await takes one job" -- "$ZK" await --config "$T/none.yaml"
expect_usage "retry without a job" "retry takes one job" -- "$ZK" retry --config "$T/none.yaml"
expect_usage "drain without a node" "drain takes one node name" -- "$ZK" drain --config "$T/none.yaml"
expect_usage "priority that is none" "'urgent' is not a priority \(critical, high, normal or low\)" -- "$ZK" priority --config "$T/none.yaml" 7 urgent
expect_usage "jobs --limit 0" "--limit" -- "$ZK" jobs --config "$T/none.yaml" --limit 0
expect_usage "cluster command without --config" "--config FILE is required" -- "$ZK" cancel 3
expect_usage "an unknown log level" "--log-level: log level 'loud' is not one of trace, debug, info, warn, error, off" -- "$ZK" up --config "$T/none.yaml" --log-level loud
expect_usage "a job that is not one" "'-3' is not a job: give its id \(32 hex digits, as zkfleet submit printed it\), its number \(7, #7 or job7, as logs and the dashboard show it\) or request:<its request id>" -- "$ZK" status --config "$T/none.yaml" -3

# A client whose scheduler.endpoint answers but is not a scheduler (a data port: silent) is told
# so in 5 s instead of waiting on CAF's handshake for minutes.
cluster_new silent insecure
yaml_head
yaml_node scheduler scheduler
start_bg listener python3 -c "import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $SCHED_PORT)); s.listen(5); time.sleep(30)"
listener=$BG
wait_port 10 "$SCHED_PORT" || fail "the silent listener on $SCHED_PORT did not start: $(cat "$T/listener.log")"
expect_fail "status against a silent listener" "127\.0\.0\.1:$SCHED_PORT accepted the connection but said nothing within 5 s: it is not a zkfleet scheduler" -- "$ZK" status --config "$CFG"
stop_bg "$listener"

expect_fail "porep-lite past the largest domain" "challenges=20000, depth=32 make 691960253 rows per partition, past the 2\^27 domain" -- "$ZK" setup --circuit porep-lite --params depth=32,challenges=20000 --out "$T/keys"
expect_fail "porep-lite params: a key twice" "'depth' is given twice" -- "$ZK" setup --circuit porep-lite --params depth=8,depth=9 --out "$T/keys"
mkdir -p "$T/adir"
expect_fail "verify: a directory for the verification key" "adir: is a directory, not a file" -- "$ZK" verify "$T/adir" "$T/adir" "$T/adir"
expect_fail "status: a directory for --config" "adir: is a directory, not a config file" -- "$ZK" status --config "$T/adir"
expect_fail "timeline: an events file and --config" "an events file or --config F, not both" -- "$ZK" timeline --config "$CFG" "$T/events"

# A file marked as a model (simulation.enabled) is refused by the commands that start real nodes.
take_port MODEL
cat >"$T/model.yaml" <<YAML
version: 1
scheduler: {endpoint: 127.0.0.1:$MODEL}
security: {insecure: true}
node: {name: n, roles: [scheduler], listen: {control: 127.0.0.1:$MODEL}}
simulation:
  enabled: true
  circuits: [{id: c, buffer_size: 1MiB, synth_seconds: 1, prove_seconds: 1}]
  nodes: [{name_prefix: s, roles: [synth], memory_budget: 1GiB}, {name_prefix: p, roles: [prover], memory_budget: 1GiB}]
  jobs: [{circuit: c}]
YAML
expect_fail "zkfleet up on a model" "simulation.enabled is true: this file is a simulated workload, run it with .zkfleet simulate" -- "$ZK" up --config "$T/model.yaml"
expect_fail "zkfleet node on a model" "simulation.enabled is true" -- "$ZK" node --config "$T/model.yaml"

finish
