#!/usr/bin/env bash
# zkfleet filecoin on the command line, without the Rust reference: the polka-storage 2 KiB proof
# accepted (exit 0) and rejected (exit 1) through `filecoin verify`, every kind of bad input
# refused with exit 1 and a message naming what was wrong and where (file, part, offset; JSON
# path), a .params and a .vk swapped said so, a truncated C1 given to submit refused with the C1
# reader's message, malformed command lines with exit 2.
#
#   tests/filecoin/cli.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_cli "${1:-}"

python3 - "$ROOT/tests/fixtures/filecoin/polka-2kib.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = sys.argv[2]
vk = bytes.fromhex(d["verifying_key_hex_compressed"])
open(t + "/polka.vk", "wb").write(vk)
open(t + "/polka.proof", "wb").write(bytes.fromhex(d["proof_hex"]))
open(t + "/cut.vk", "wb").write(vk[:1000])
open(t + "/short.proof", "wb").write(bytes.fromhex(d["proof_hex"])[:191])
lie = bytearray(vk); lie[432:436] = (1 << 30).to_bytes(4, "big")  # the IC count (compressed key)
open(t + "/lying.vk", "wb").write(bytes(lie))
with open(t + "/args", "w") as f:
    f.write(" ".join(["--registered-proof", d["registered_proof"], "--api-version", d["api_version"],
                      "--porep-id", d["porep_id_hex"], "--prover-id", d["prover_id_hex"],
                      "--sector", str(d["sector_id"]), "--ticket", d["ticket_hex"],
                      "--seed", d["seed_hex"], "--comm-r", d["comm_r_hex"], "--comm-d", d["comm_d_hex"]]) + "\n")
PY
read -r -a ARGS <"$T/args"
with() {  # the polka arguments with one option replaced: with --sector 78
  local out=() skip=0
  for ((i = 0; i < ${#ARGS[@]}; i++)); do
    if [ "${ARGS[$i]}" = "$1" ]; then out+=("$1" "$2"); i=$((i + 1)); else out+=("${ARGS[$i]}"); fi
  done
  printf '%s\n' "${out[@]}"
}
mapfile -t S78 < <(with --sector 78)
mapfile -t BADPROOF < <(with --registered-proof StackedDrg2KiBV3)
mapfile -t BADHEX < <(with --ticket 0c0c)
mapfile -t BIGR < <(with --comm-r "01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73")

V=("$ZK" filecoin verify --vk "$T/polka.vk" --proof "$T/polka.proof")
expect "polka proof accepted" 0 "OK: the proof is valid" -- "${V[@]}" "${ARGS[@]}"
expect "sector 78 rejected" 1 "INVALID: the pairing check failed" -- "${V[@]}" "${S78[@]}"
expect "a key cut short" 1 "cut.vk: verifying key: ic count 40" -- \
  "$ZK" filecoin verify --vk "$T/cut.vk" --proof "$T/polka.proof" "${ARGS[@]}"
expect "a key whose IC count lies" 1 "lying.vk: verifying key: ic count 1073741824 (offset 0x1b0)" -- \
  "$ZK" filecoin verify --vk "$T/lying.vk" --proof "$T/polka.proof" "${ARGS[@]}"
expect "a proof of 191 bytes" 1 "short.proof: 191 bytes: a proof is 192 bytes a partition" -- \
  "$ZK" filecoin verify --vk "$T/polka.vk" --proof "$T/short.proof" "${ARGS[@]}"
expect "a missing key file" 1 "missing.vk: cannot open" -- \
  "$ZK" filecoin verify --vk "$T/missing.vk" --proof "$T/polka.proof" "${ARGS[@]}"
expect "an unknown registered proof" 1 "unknown registered seal proof 'StackedDrg2KiBV3' (known: StackedDrg2KiBV1," -- \
  "${V[@]}" "${BADPROOF[@]}"
expect "a short ticket" 1 "--ticket: needs 64 hex digits (32 bytes), got 4 characters" -- "${V[@]}" "${BADHEX[@]}"
expect "comm_r = r" 1 "comm_r is not a field element (not below r)" -- "${V[@]}" "${BIGR[@]}"
expect "no --proof" 2 "--proof FILE is required" -- "$ZK" filecoin verify --vk "$T/polka.vk" "${ARGS[@]}"
expect "an unknown option" 2 "unknown option --prof" -- "${V[@]}" "${ARGS[@]}" --prof x
expect "print the public inputs" 0 "23795320985980068429012703117558176814566638886956966290052063800092898403513" -- \
  "${V[@]}" "${ARGS[@]}" --print-public-inputs

# The key in both encodings through `filecoin vk`.
expect "vk: compressed key read" 0 '"encoding": "compressed"' -- "$ZK" filecoin vk --vk "$T/polka.vk" --out "$T/u.vk"
expect "vk: rewritten uncompressed" 0 '"bytes": 4708' -- "$ZK" filecoin vk --vk "$T/u.vk"
expect "verify with the uncompressed key" 0 "uncompressed key" -- \
  "$ZK" filecoin verify --vk "$T/u.vk" --proof "$T/polka.proof" "${ARGS[@]}"

# C1 and params errors name the JSON path / the section and offset.
cp "$ROOT/fuzz/corpus/filecoin_c1/bad-one-challenge.json" "$T/c1.json"
expect "c1: a partition short of a challenge" 1 \
  "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenge proofs, got 1" -- "$ZK" filecoin c1 --c1 "$T/c1.json"
expect "c1: a valid C1 of the 2 KiB shape" 0 '"partitions": 1' -- \
  "$ZK" filecoin c1 --c1 "$ROOT/fuzz/corpus/filecoin_c1/minimal-2kib.json"
expect "params: a point off the curve" 1 "section l (point 1, offset 0x5ac): point not on the curve" -- \
  "$ZK" filecoin params --params "$ROOT/fuzz/corpus/filecoin_params/bad-off-curve-l1.params"
expect "params: a count that lies" 1 "section h: count 16777215 (offset 0x424) needs 1610612640 bytes" -- \
  "$ZK" filecoin params --params "$ROOT/fuzz/corpus/filecoin_params/bad-lying-count.params"
expect "params: checked" 0 '"points": 11' -- \
  "$ZK" filecoin params --params "$ROOT/fuzz/corpus/filecoin_params/small.params"

# A .params given for a .vk, or a .vk for the .params, says which file is which (prove, verify,
# params), and so does a scheduler whose circuits.ID.vk is a .params.
SMALL="$ROOT/fuzz/corpus/filecoin_params/small.params"
expect "verify: a .params as --vk" 1 "small.params: a .params file (the proving parameters), not a .vk (the verifying key)" -- \
  "$ZK" filecoin verify --vk "$SMALL" --proof "$T/polka.proof" "${ARGS[@]}"
expect "params: a .vk as --params" 1 "polka.vk: a .vk file (the verifying key), not the .params (the proving parameters)" -- \
  "$ZK" filecoin params --params "$T/polka.vk"
P=abababababababababababababababababababababababababababababababab
"$ZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 7 \
  --ticket "$(printf '%062d0a' 1)" --seed "$(printf '%064d' 2)" --random 3 --out "$T/seal" >"$T/seal.log" 2>&1 ||
  die "zkfleet filecoin seal: $(cat "$T/seal.log")"
PROVE=("$ZK" filecoin prove --c1 "$T/seal/c1.json" --prover-id $P --sector 7 --out "$T/p.bin")
expect "prove: a .params as --vk" 1 "small.params: a .params file (the proving parameters), not a .vk" -- \
  "${PROVE[@]}" --params "$SMALL" --vk "$SMALL"
expect "prove: a .vk as --params" 1 "polka.vk: a .vk file (the verifying key), not the .params" -- \
  "${PROVE[@]}" --params "$T/polka.vk"
[ ! -e "$T/p.bin" ] && ok "prove: nothing written" || fail "prove wrote $T/p.bin"
cluster_new words insecure
yaml_head
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: StackedDrg2KiBV1_1, vk: $SMALL}"
yaml_node scheduler scheduler
yaml_node prover-1 prover "resources: {memory_budget: 4GiB, prover_backend: cpu}, filecoin_params: {fc2k: $SMALL}"
expect "node: circuits.ID.vk a .params" 1 "circuits.fc2k.vk: $SMALL: a .params file (the proving parameters), not a .vk" -- \
  "$ZK" node --config "$CFG" --node scheduler
# A truncated C1 given to zkfleet submit: the C1 reader's own message (the file, the JSON path, the
# byte), refused before anything is sent; nlohmann's words nowhere.
head -c 5000 "$T/seal/c1.json" >"$T/cut-c1.out"
expect -E "submit: a truncated C1" 1 "cut-c1\.out: vanilla_proofs\.StackedDrg2KiBV1\[0\]\[0\]\..*: unexpected end of input.* \(byte 5000\)" -- \
  "$ZK" submit --config "$CFG" --circuit fc2k --c1 "$T/cut-c1.out" --prover-id $P --sector 7
grep -q "json.exception" <<<"$EXPECT_OUT" && fail "submit: nlohmann's message: $EXPECT_OUT" || ok "submit: no json.exception"

# derive: a non-interactive 32 GiB config (126 partitions) needs no sealing.
mapfile -t NI < <(with --registered-proof StackedDrg32GiBV1_2_Feat_NonInteractivePoRep)
expect "derive: NI 32 GiB" 0 '"partitions": 126' -- "$ZK" filecoin derive "${NI[@]}"
finish
