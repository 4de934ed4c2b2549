#!/usr/bin/env bash
# `zkfleet filecoin verify` and Filecoin's own verify_seal (`filecoin-ref verify`) on the
# polka-storage 2 KiB proof (tests/fixtures/filecoin/polka-2kib.json, compressed key): both
# accept it; both reject it when any one of prover id, sector, ticket, seed, comm_r, comm_d, the
# porep_id or the ApiVersion changes, and when one bit of the proof changes (16 random bits);
# both accept V1_1_0 and StackedDrg2KiBV1 (the same graphs and circuit), and both accept the key
# rewritten uncompressed by `zkfleet filecoin vk`. Every verdict must agree;
# --print-public-inputs must print the reference's public inputs.
#
#   tests/filecoin/verify_vs_ref.sh <path-to-zkfleet> [SEED]
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/ref_lib.sh"
harness_init verify_vs_ref "${1:-}"
need_ref
SEED="${2:-$RANDOM}"
echo "random seed $SEED (rerun: $0 $1 $SEED)"
POLKA="$ROOT/tests/fixtures/filecoin/polka-2kib.json"

field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$POLKA" "$1"; }
python3 - "$POLKA" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/polka.vk", "wb").write(bytes.fromhex(d["verifying_key_hex_compressed"]))
open(sys.argv[2] + "/polka.proof", "wb").write(bytes.fromhex(d["proof_hex"]))
PY
PROOF=$(field registered_proof)
VERSION=$(field api_version)
POREP=$(field porep_id_hex)
PROVER=$(field prover_id_hex)
SECTOR=$(field sector_id)
TICKET=$(field ticket_hex)
SEEDHEX=$(field seed_hex)
COMMR=$(field comm_r_hex)
COMMD=$(field comm_d_hex)

# flip <hex> <byte index>: the hex with one bit of that byte flipped.
flip() { python3 -c "import sys; b=bytearray.fromhex(sys.argv[1]); b[int(sys.argv[2])]^=1; print(b.hex())" "$1" "$2"; }

# both <label> <want: 0 accept, 1 reject> <proof file> <args...>
both() {
  local label="$1" want="$2" proof="$3"
  shift 3
  local zrc=0 rrc=0 zout rout
  zout="$("$ZK" filecoin verify --vk "$T/polka.vk" --proof "$proof" "$@" 2>&1)" || zrc=$?
  rout="$("$REF" verify --vk "$T/polka.vk" --proof "$proof" "$@" 2>&1)" || rrc=$?
  if [ "$rrc" -gt 1 ]; then
    fail "$label: the reference failed (exit $rrc): $(tail -c 300 <<<"$rout")"
  elif [ "$zrc" != "$rrc" ]; then
    fail "$label: zkfleet exit $zrc, reference exit $rrc: $zout"
  elif [ "$zrc" != "$want" ]; then
    fail "$label: both exit $zrc, expected $want: $zout"
  else
    ok "$label: both $([ "$zrc" = 0 ] && echo accept || echo reject) ($(head -c 120 <<<"$zout" | tr '\n' ' '))"
  fi
}

args() { # the polka inputs with overrides: NAME=VALUE ...
  local p=$PROOF v=$VERSION o=$POREP pr=$PROVER s=$SECTOR t=$TICKET sd=$SEEDHEX r=$COMMR d=$COMMD
  for kv in "$@"; do eval "${kv%%=*}=\"${kv#*=}\""; done
  echo --registered-proof "$p" --api-version "$v" --porep-id "$o" --prover-id "$pr" --sector "$s" \
    --ticket "$t" --seed "$sd" --comm-r "$r" --comm-d "$d"
}

# shellcheck disable=SC2046
{
  both "accept" 0 "$T/polka.proof" $(args)
  both "another prover id" 1 "$T/polka.proof" $(args pr="$(flip "$PROVER" 3)")
  both "sector 78" 1 "$T/polka.proof" $(args s=78)
  both "another ticket" 1 "$T/polka.proof" $(args t="$(flip "$TICKET" 31)")
  both "another seed" 1 "$T/polka.proof" $(args sd="$(flip "$SEEDHEX" 0)")
  both "comm_r one bit" 1 "$T/polka.proof" $(args r="$(flip "$COMMR" 10)")
  both "comm_d one bit" 1 "$T/polka.proof" $(args d="$(flip "$COMMD" 20)")
  both "the default porep_id (5)" 1 "$T/polka.proof" $(args o="$(python3 -c "print('05'+'00'*31)")")
  both "ApiVersion V1_0_0" 1 "$T/polka.proof" $(args v=V1_0_0)
  both "ApiVersion V1_1_0 (same graphs)" 0 "$T/polka.proof" $(args v=V1_1_0)
  both "StackedDrg2KiBV1 (same circuit)" 0 "$T/polka.proof" $(args p=StackedDrg2KiBV1)
}

# The key rewritten uncompressed by zkfleet (bellperson's VerifyingKey::write layout, 4,708 bytes):
# both tools read it and accept the proof with it.
if "$ZK" filecoin vk --vk "$T/polka.vk" --out "$T/polka-uncompressed.vk" >/dev/null &&
  [ "$(wc -c <"$T/polka-uncompressed.vk")" = 4708 ]; then
  cp "$T/polka.vk" "$T/polka-compressed.vk"
  cp "$T/polka-uncompressed.vk" "$T/polka.vk"
  # shellcheck disable=SC2046
  both "the key uncompressed (written by zkfleet)" 0 "$T/polka.proof" $(args)
  # shellcheck disable=SC2046
  both "the key uncompressed, sector 78" 1 "$T/polka.proof" $(args s=78)
  cp "$T/polka-compressed.vk" "$T/polka.vk"
else
  fail "zkfleet filecoin vk did not write a 4,708-byte uncompressed key"
fi

# One bit of the proof, at random places (a point that no longer decodes or another point).
# Bits 5 and 1157 are the sign flags of A and C: −A and −C are valid points, so those proofs
# decode and fail the pairing check.
for i in 5 1157 $(python3 -c "import random; r=random.Random($SEED); print(' '.join(str(r.randrange(192*8)) for _ in range(16)))"); do
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[int(sys.argv[2])//8]^=1<<(int(sys.argv[2])%8); open(sys.argv[3],'wb').write(b)" \
    "$T/polka.proof" "$i" "$T/bit.proof"
  # shellcheck disable=SC2046
  both "proof bit $i" 1 "$T/bit.proof" $(args)
done

# The public inputs, against the reference's derive.
# shellcheck disable=SC2046
"$ZK" filecoin verify --vk "$T/polka.vk" --proof "$T/polka.proof" $(args) --print-public-inputs \
  >"$T/inputs.txt" 2>"$T/verdict.txt" || true
# shellcheck disable=SC2046
"$REF" derive $(args) | python3 -c "import json,sys; print('\n'.join(json.load(sys.stdin)['partition_data'][0]['public_inputs']))" >"$T/ref_inputs.txt"
if cmp -s "$T/inputs.txt" "$T/ref_inputs.txt" && [ "$(wc -l <"$T/inputs.txt")" = 39 ]; then
  ok "--print-public-inputs: the reference's 39 inputs ($(cat "$T/verdict.txt"))"
else
  fail "--print-public-inputs differs from the reference's: $(diff "$T/inputs.txt" "$T/ref_inputs.txt" | head -5)"
fi
finish
