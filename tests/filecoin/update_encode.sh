#!/usr/bin/env bash
# zkfleet filecoin update end to end against the SnapDeals update Filecoin's own 19.1.0 code made
# of the same sector (tests/fixtures/filecoin/snap-2k, snap-8m: seal StackedDrg2KiBV1_1 /
# StackedDrg8MiBV1_1, prover id 32 × 0x01, ticket 32 × 0x02, sector 7, random_piece(1); update
# with random_piece(2); golden.txt its log): `zkfleet filecoin seal` then `zkfleet filecoin
# update` give golden.txt's comm_d_new, comm_r_old, comm_r_new, comm_r_last_new and the new
# replica's SHA-256, and vanilla.json decodes to Filecoin's partition proof bytes (vanilla-0.bin,
# the same text as its snap-vproof.json at 2 KiB; vanilla-1.bin and every partition's SHA-256 at
# 8 MiB). --data FILE of the same piece gives the same files. Refused with the option or file
# named, nothing written: a sparse seal's folder, a folder of another sector size, a folder without
# replica.bin, a replica.bin that is not commit.json's, data of the wrong length, an unknown proof
# name; usage errors exit 2.
#
#   tests/filecoin/update_encode.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_update_encode "${1:-}"

ONES=0101010101010101010101010101010101010101010101010101010101010101
TWOS=0202020202020202020202020202020202020202020202020202020202020202
SEED=0303030303030303030303030303030303030303030303030303030303030303

# seal_sector <seal proof> <out> [more seal options]
seal_sector() {
  local proof="$1" out="$2"
  shift 2
  "$ZK" filecoin seal --registered-proof "$proof" --prover-id "$ONES" --ticket "$TWOS" \
    --sector 7 --seed "$SEED" --random 1 --out "$out" "$@" >"$out.log" 2>&1
}

# matches_golden <fixture folder> <update folder> <label>: update.json's commitments and the new
# replica's SHA-256 are golden.txt's.
matches_golden() {
  local f="$1" u="$2" label="$3" key want got
  for key in comm_r_old comm_d_new comm_r_new comm_r_last_new; do
    want="$(sed -n "s/^$key=\([0-9a-f]*\).*/\1/p" "$f/golden.txt" | head -1)"
    got="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$u/update.json" "$key")"
    if [ ${#want} = 64 ] && [ "$got" = "$want" ]; then ok "$label: $key = Filecoin's"; else fail "$label: $key $got, Filecoin's $want"; fi
  done
  want="$(sed -n 's/^replica-new sha256=\([0-9a-f]*\).*/\1/p' "$f/golden.txt")"
  got="$(sha256sum "$u/replica-new.bin" | cut -c1-64)"
  if [ "$got" = "$want" ]; then ok "$label: replica-new.bin = Filecoin's new replica"; else fail "$label: replica-new.bin sha256 $got, Filecoin's $want"; fi
}

# partition_is <vanilla.json> <k> <file> <label>: partition k of the JSON is the file's bytes.
partition_is() {
  if python3 - "$@" <<'PY'; then ok "$4"; else fail "$4"; fi
import base64, json, sys
parts = json.load(open(sys.argv[1]))
want = open(sys.argv[3], "rb").read()
got = base64.b64decode(parts[int(sys.argv[2])], validate=True)
if got != want:
    at = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), min(len(got), len(want)))
    print("  %d bytes against %d; first difference at byte %d" % (len(got), len(want), at))
    sys.exit(1)
PY
}

F="$ROOT/tests/fixtures/filecoin/snap-2k"
U=("$ZK" filecoin update --registered-update-proof StackedDrg2KiBV1)
seal_sector StackedDrg2KiBV1_1 "$T/s" || die "the 2 KiB seal failed: $(tail -n 5 "$T/s.log")"
check "seal writes replica.bin by default (2,048 bytes)" test "$(stat -c %s "$T/s/replica.bin")" = 2048

expect "update --random 2" 0 '"partitions": 1' -- "${U[@]}" --sector-key "$T/s" --random 2 --out "$T/u"
matches_golden "$F" "$T/u" "2 KiB"
partition_is "$T/u/vanilla.json" 0 "$F/vanilla-0.bin" "2 KiB: vanilla.json = Filecoin's vanilla-0.bin"
check "2 KiB: vanilla.json is Filecoin's snap-vproof.json, byte for byte" cmp -s "$T/u/vanilla.json" "$F/snap-vproof.json"
check "update.json: comm_c is the seal's" python3 -c "
import json, sys
u, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(0 if u['comm_c'] == s['comm_c'] and u['registered_update_proof'] == 'StackedDrg2KiBV1' else 1)" \
  "$T/u/update.json" "$T/s/commit.json"

# The same piece as --data FILE: the same files.
python3 -c "
import hashlib, struct, sys
out = b''.join(hashlib.sha256(struct.pack('<QQ', 2, i)).digest() for i in range(64))
open(sys.argv[1], 'wb').write(out[:2032])
open(sys.argv[2], 'wb').write(out[:2031])" "$T/piece2" "$T/short"
expect "update --data FILE" 0 '"kind": "data"' -- "${U[@]}" --sector-key "$T/s" --data "$T/piece2" --out "$T/ud"
check "--data FILE of the same piece: the same vanilla.json" cmp -s "$T/ud/vanilla.json" "$T/u/vanilla.json"
check "--data FILE of the same piece: the same replica-new.bin" cmp -s "$T/ud/replica-new.bin" "$T/u/replica-new.bin"

# Refusals: nothing written to --out.
nothing_in() { if [ -e "$1" ]; then fail "$2: $1 was written"; else ok "$2: nothing written"; fi; }
"$ZK" filecoin seal --sparse --registered-proof StackedDrg2KiBV1_1 --prover-id "$ONES" --ticket "$TWOS" \
  --sector 7 --seed "$SEED" --random 1 --out "$T/sparse" >"$T/sparse.log" 2>&1 ||
  die "seal --sparse failed: $(tail -n 5 "$T/sparse.log")"
expect "a sparse seal's folder" 1 "is a sparse seal's folder" -- \
  "${U[@]}" --sector-key "$T/sparse" --random 2 --out "$T/bad1"
nothing_in "$T/bad1" "sparse"
expect "a 2 KiB folder as 8 MiB" 1 "holds a 2048-byte sector (StackedDrg2KiBV1_1); --registered-update-proof StackedDrg8MiBV1 updates 8388608-byte sectors" -- \
  "$ZK" filecoin update --registered-update-proof StackedDrg8MiBV1 --sector-key "$T/s" --random 2 --out "$T/bad2"
nothing_in "$T/bad2" "wrong size"
seal_sector StackedDrg2KiBV1_1 "$T/nr" --no-replica || die "seal --no-replica failed: $(tail -n 5 "$T/nr.log")"
check "seal --no-replica writes no replica.bin" test ! -e "$T/nr/replica.bin"
expect "a folder without replica.bin" 1 "has no replica.bin" -- \
  "${U[@]}" --sector-key "$T/nr" --random 2 --out "$T/bad3"
nothing_in "$T/bad3" "no replica"
mkdir -p "$T/other"
cp "$T/s/commit.json" "$T/other/"
python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[100] ^= 1
open(sys.argv[2], 'wb').write(bytes(b))" "$T/s/replica.bin" "$T/other/replica.bin"
expect "a replica.bin that is not commit.json's" 1 "replica.bin (comm_c, comm_r_last: its commit.json) with --random 2: the sector key is not the sealed sector's replica: its TreeR root is" -- \
  "${U[@]}" --sector-key "$T/other" --random 2 --out "$T/bad4"
nothing_in "$T/bad4" "another replica"
head -c 1024 "$T/s/replica.bin" >"$T/other/replica.bin"
expect "a short replica.bin" 1 "replica.bin has 1024 bytes; the sector's replica is 2048" -- \
  "${U[@]}" --sector-key "$T/other" --random 2 --out "$T/bad5"
expect "data of the wrong length" 1 "--data $T/short has 2031 bytes; the unpadded piece of a 2048-byte sector is 2032 bytes" -- \
  "${U[@]}" --sector-key "$T/s" --data "$T/short" --out "$T/bad6"
nothing_in "$T/bad6" "short data"
expect "a folder that is not a seal's" 1 "has no commit.json" -- \
  "${U[@]}" --sector-key "$T/u" --random 2 --out "$T/bad7"
expect "an unknown update proof" 1 "unknown registered update proof 'StackedDrg2KiBV1_1'" -- \
  "$ZK" filecoin update --registered-update-proof StackedDrg2KiBV1_1 --sector-key "$T/s" --random 2 --out "$T/bad8"
expect "both --data and --random: usage" 2 "give exactly one of --data FILE, --random N" -- \
  "${U[@]}" --sector-key "$T/s" --random 2 --data "$T/piece2" --out "$T/bad9"
expect "no --sector-key: usage" 2 "--sector-key DIR" -- "${U[@]}" --random 2 --out "$T/bad9"

# 8 MiB (about 10 s here): four partitions; partition 1 against Filecoin's.
F="$ROOT/tests/fixtures/filecoin/snap-8m"
start=$SECONDS
seal_sector StackedDrg8MiBV1_1 "$T/s8" || die "the 8 MiB seal failed: $(tail -n 5 "$T/s8.log")"
ok "8 MiB sealed in $((SECONDS - start)) s"
start=$SECONDS
expect "8 MiB update" 0 '"partitions": 4' -- \
  "$ZK" filecoin update --registered-update-proof StackedDrg8MiBV1 --sector-key "$T/s8" \
  --random 2 --out "$T/u8"
echo "  (update: $((SECONDS - start)) s)"
matches_golden "$F" "$T/u8" "8 MiB"
partition_is "$T/u8/vanilla.json" 1 "$F/vanilla-1.bin" \
  "8 MiB: partition 1 of vanilla.json = Filecoin's vanilla-1.bin"
# Every partition: its SHA-256 against golden.txt's ("vanilla partitions=4 lens=[…] sha256=[…]").
if python3 - "$T/u8/vanilla.json" "$F/golden.txt" <<'PY'; then ok "8 MiB: all 4 partitions' SHA-256 = Filecoin's"; else fail "8 MiB: the partitions' SHA-256"; fi
import base64, hashlib, json, re, sys
got = [hashlib.sha256(base64.b64decode(p, validate=True)).hexdigest() for p in json.load(open(sys.argv[1]))]
want = json.loads(re.search(r"^vanilla partitions=4 .*sha256=(\[.*\])$", open(sys.argv[2]).read(), re.M).group(1))
print("  got  %s\n  want %s" % (got, want)) if got != want else None
sys.exit(0 if got == want and len(want) == 4 else 1)
PY
finish
