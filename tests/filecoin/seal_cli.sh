#!/usr/bin/env bash
# zkfleet filecoin seal / check-c1 through the command line, without the Rust reference: a 2 KiB
# seal whose C1 its own check-c1 accepts, its comm_d for a zero piece equal to lotus's published
# zero commitment, the parent cache reused, and bad input refused with a message naming it (exit 1
# for bad values, 2 for a malformed command line; never a crash).
#
#   tests/filecoin/seal_cli.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed".
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init seal_cli "${1:-}"
P=$(printf '01%.0s' {1..32}); TK=$(printf '02%.0s' {1..32}); S=$(printf '03%.0s' {1..32})
SEAL=("$ZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 7 --ticket $TK --seed $S)

expect "seal a zero 2 KiB sector" 0 '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"' -- \
  "${SEAL[@]}" --zeros --out "$T/z" --parent-cache "$T/pc"
expect -E "check-c1 accepts it" 0 '^OK: the vanilla proofs are valid' -- "$ZK" filecoin check-c1 --c1 "$T/z/c1.json" --prover-id $P --sector 7
expect "a second seal reads the parent cache" 0 '"parent_table": "read from --parent-cache"' -- \
  "${SEAL[@]}" --random 3 --out "$T/r" --parent-cache "$T/pc"
expect "check-c1 refuses another prover" 1 "INVALID: the C1's replica_id" -- "$ZK" filecoin check-c1 --c1 "$T/r/c1.json" --prover-id $TK --sector 7
expect "check-c1 refuses another proof's config" 1 "INVALID: the C1 is for StackedDrg2KiBV1_1, not StackedDrg2KiBV1" -- \
  "$ZK" filecoin check-c1 --c1 "$T/r/c1.json" --prover-id $P --sector 7 --registered-proof StackedDrg2KiBV1
python3 - "$T/r/c1.json" "$T/bad.json" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1]))
c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["comm_d_proofs"]["data"]["Single"]["path"]["path"][2]["hashes"][0][5] ^= 1
open(sys.argv[2], "w").write(json.dumps(c1))
EOF
expect -E "check-c1 refuses a changed comm_d path (Rust's vanilla check would not)" 1 \
  "INVALID: the vanilla proofs do not verify: partition 0, challenge 0 \(node [0-9]+\): comm_d proof: the path" -- "$ZK" filecoin check-c1 --c1 "$T/bad.json" --prover-id $P --sector 7
printf '{"registered_proof": "StackedDrg2KiBV1_1", "vanilla_proofs": {"StackedDrg2KiBV1": [[{}]]}}' >"$T/short.json"
expect "check-c1 names the JSON path of a malformed C1 (fc-a's reader)" 1 'short.json: vanilla_proofs.StackedDrg2KiBV1[0][0]: missing key "comm_d_proofs"' -- \
  "$ZK" filecoin check-c1 --c1 "$T/short.json" --prover-id $P --sector 7
head -c 2048 /dev/zero >"$T/piece2048"
expect "seal refuses a piece of the wrong size" 1 "has 2048 bytes; the unpadded piece of a 2048-byte sector is 2032 bytes" -- \
  "${SEAL[@]}" --data "$T/piece2048" --out "$T/x"
expect "seal wants exactly one piece source" 2 "give exactly one of --data FILE, --zeros, --random N" -- \
  "${SEAL[@]}" --zeros --random 1 --out "$T/x"
expect "seal needs --out" 2 "--out DIR is required" -- "${SEAL[@]}" --zeros
expect "seal names a bad --ticket" 1 "ticket" -- "$ZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --prover-id $P --sector 7 \
  --ticket 12 --seed $S --zeros --out "$T/x"
expect "seal names an unknown proof" 1 "unknown registered seal proof" -- "$ZK" filecoin seal --registered-proof StackedDrg3KiB \
  --prover-id $P --sector 7 --ticket $TK --seed $S --zeros --out "$T/x"
expect "seal names a bad --random" 2 "--random" -- "${SEAL[@]}" --random -4 --out "$T/x"
finish
