#!/usr/bin/env bash
# A 32 GiB prover's budget (issue 35 item 4, CTest filecoin/budget-32g), without 32 GiB
# parameters: `zkfleet filecoin budget` gives what a partition of StackedDrg32GiBV1_1 takes from
# the circuit's shape (the buffer, the prover's work arrays, the parameters' sections); a sparse
# .params of exactly those sections (a real .vk's points — zkfleet's 2 KiB development key's, its
# first IC point repeated for the 328 inputs — then the five section heads, the points left as
# holes: the file has the real file's size and takes no disk) stands for the parameters. Nothing
# reads its points: `zkfleet config check` and a prover node's start-up count the parameters by
# the file's size, before any key is loaded. A budget that holds them and a partition passes; one
# that holds them but not a partition, or not them, is refused naming both, by config check and by
# the node at start (which then exits).
#
#   tests/filecoin/budget_32g.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_budget_32g "${1:-}"
P2=StackedDrg2KiBV1_1 P32=StackedDrg32GiBV1_1
out="$("$ZK" filecoin setup --registered-proof $P2 --seed 1 --vk-only --out "$T/p2" 2>&1)" ||
  die "zkfleet filecoin setup --vk-only: $out"
# The full wire's figures (today's buffer: the largest a partition reserves), then the packed
# wire's, the default.
timeout 600 "$ZK" filecoin budget --registered-proof $P32 --wire full --json >"$T/budget.json" 2>"$T/budget.err" ||
  die "zkfleet filecoin budget: $(cat "$T/budget.err")"
timeout 600 "$ZK" filecoin budget --registered-proof $P32 --json >"$T/packed.json" 2>"$T/budget.err" ||
  die "zkfleet filecoin budget (packed): $(cat "$T/budget.err")"
read -r pwire pwork < <(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))
print(b["wire_bytes"], b["prover_work_bytes"])' "$T/packed.json")
[ "${pwire:-0}" -le 300000000 ] && [ "${pwire:-0}" -ge 86924436 ] && [ "${pwork:-0}" = $((17050348960 + 130170221 * 32)) ] &&
  ok "the packed wire: at most $pwire bytes a 32 GiB partition on the wire; the prover's work $pwork (the witness unpacked beside the arrays)" ||
  fail "the packed wire's budget: wire ${pwire:-?}, work ${pwork:-?}: $(cat "$T/packed.json")"
# A 32 GiB SnapDeals update's partition: the counts storage-proofs-update's own tests assert
# (81,049,499 constraints), on the full wire (its only wire), the parameters' sections.
timeout 600 "$ZK" filecoin budget --registered-update-proof StackedDrg32GiBV1 --json >"$T/snap.json" 2>"$T/budget.err" ||
  die "zkfleet filecoin budget --registered-update-proof: $(cat "$T/budget.err")"
if python3 - "$T/snap.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
c, i, a = b["constraints"], b["inputs"], b["aux"]
assert (c, i, a, b["domain_size"], b["wire"]) == (81049499, 5, 80978488, 1 << 27, "full"), b
assert b["payload_bytes"] == (3 * (c + i) + i + a) * 32, b
assert b["prover_work_bytes"] == (3 * (1 << 27) + i + a) * 32, b
assert b["params_sections"]["h"] == (1 << 27) - 1 and b["params_sections"]["l"] == a, b
PY
then
  ok "a 32 GiB SnapDeals partition: $(python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(b["wire_bytes"], "bytes on the (full) wire,", b["params_bytes"], "bytes of parameters decoded")' "$T/snap.json")"
else
  fail "filecoin budget of StackedDrg32GiBV1: $(cat "$T/snap.json")"
fi
out="$("$ZK" filecoin budget --registered-update-proof StackedDrg32GiBV1 --wire packed 2>&1)" &&
  fail "a packed SnapDeals budget was given: $out" || {
  grep -q "cross the data plane in full" <<<"$out" && ok "--wire packed for an update refused: $out" ||
    fail "--wire packed for an update, refused for something else: $out"
}

# The figures of docs/filecoin.md "Budgets at 32 GiB", from the shape.
read -r buffer work params < <(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))
assert (b["constraints"], b["inputs"], b["aux"], b["domain_size"]) == (130278541, 328, 130169893, 1 << 27), b
print(b["buffer_bytes"], b["prover_work_bytes"], b["params_bytes"])' "$T/budget.json") ||
  die "filecoin budget: not the 32 GiB circuit's counts: $(cat "$T/budget.json")"
[ "$buffer" = 17179869184 ] && [ "$work" = 17050348960 ] &&
  ok "a 32 GiB partition reserves a 16 GiB buffer and $work bytes of work; parameters $params bytes decoded" ||
  fail "a 32 GiB partition: buffer $buffer (want 17179869184), work $work (want 17050348960)"

# The sparse parameters and their .vk (bellperson's layout, docs/filecoin.md §3).
python3 - "$T/p2/$P2.vk" "$T/budget.json" "$T/c32.params" "$T/c32.vk" <<'PY' || die "could not write the sparse parameters"
import json, struct, sys
vk2, budget, params, vk = sys.argv[1:]
raw = open(vk2, "rb").read()
fixed = 3 * 96 + 3 * 192  # alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 (uncompressed)
assert raw[0] & 0x80 == 0, "the 2 KiB .vk is not uncompressed"
n2 = struct.unpack(">I", raw[fixed:fixed + 4])[0]
assert len(raw) == fixed + 4 + 96 * n2, "the 2 KiB .vk's size"
s = json.load(open(budget))["params_sections"]
key = raw[:fixed] + struct.pack(">I", s["ic"]) + raw[fixed + 4:fixed + 4 + 96] * s["ic"]
open(vk, "wb").write(key)
with open(params, "wb") as f:
    f.write(key)
    for name, size in (("h", 96), ("l", 96), ("a", 96), ("b_g1", 96), ("b_g2", 192)):
        f.write(struct.pack(">I", s[name]))
        f.seek(s[name] * size, 1)
    f.truncate()
PY
size="$(stat -c %s "$T/c32.params")"
ok "sparse $P32 parameters: $size bytes, $(du -k "$T/c32.params" | cut -f1) KiB on disk"

cluster_new budget32 insecure
yaml_head
# wire: full, the largest a partition reserves (16 GiB a buffer).
yaml_line "circuits:" "  c2: {native: filecoin-porep, registered_proof: $P32, vk: $T/c32.vk, wire: full}"
yaml_node scheduler scheduler
BASE="$(cat "$CFG")"
# config BUDGET: the farm with prover-1's memory_budget BUDGET.
config() {
  printf '%s\n' "$BASE" >"$CFG"
  yaml_node prover-1 prover "resources: {cores: 2, memory_budget: $1, prover_backend: cpu}, filecoin_params: {c2: $T/c32.params}"
}
gib() { awk -v b="$1" 'BEGIN { printf "%.2f GiB", b / 1073741824 }'; }
# check BUDGET WANT_PROBLEMS REGEX: config check's verdict.
check() {
  config "$1"
  local rc=0 out n
  out="$(timeout 600 "$ZK" config check --config "$CFG" 2>&1)" || rc=$?
  n="$(sed -n 's/.*: \([0-9]*\) problems*$/\1/p' <<<"$out" | head -n 1)"
  if [ "${n:-0}" = "$2" ] && grep -qE -- "$3" <<<"$out" && { [ "$2" = 0 ] && [ $rc = 0 ] || [ $rc = 1 ]; }; then
    ok "config check, memory_budget $1: $(grep -E -- "$3" <<<"$out" | head -n 1 | sed 's/^ *//')"
  else
    fail "config check, memory_budget $1: expected $2 problem(s) matching /$3/, got (exit $rc): $out"
  fi
}
left=$((64 * 1073741824 - size))
check 128GiB 0 "no problems"
check 64GiB 1 "node prover-1: resources\.memory_budget: 64\.00 GiB holds the filecoin_params \($(gib "$size")\) but not one partition of 'c2' beside them \(buffer 16\.00 GiB \+ work 15\.88 GiB, $(gib $left) left\)"
check 40GiB 1 "node prover-1: resources\.memory_budget: 40\.00 GiB does not hold the node's filecoin_params \($(gib "$size") resident\)"

# The node at start-up: the scheduler describes the circuit (its shape: tens of seconds here), the
# prover asks it for the circuits and refuses, naming the parameters and the partition.
config 64GiB
start_bg scheduler "$ZK" node --config "$CFG" --node scheduler
wait_port 600 "$SCHED_PORT" || die "the scheduler did not listen: $(tail -n 5 "$T/scheduler.log")"
# start BUDGET REGEX: prover-1 with BUDGET must exit non-zero within 120 s, saying REGEX.
start() {
  config "$1"
  local rc=0
  timeout 120 "$ZK" node --config "$CFG" --node prover-1 >"$T/prover-$1.log" 2>&1 || rc=$?
  if [ $rc != 0 ] && [ $rc != 124 ] && grep -qE -- "$2" "$T/prover-$1.log"; then
    ok "prover-1 refuses to start with $1: $(grep -E -- "$2" "$T/prover-$1.log" | head -n 1 | sed 's/^.*node prover-1/node prover-1/')"
  else
    fail "prover-1 with $1: expected a refusal matching /$2/, got (exit $rc): $(tail -n 5 "$T/prover-$1.log")"
  fi
}
start 64GiB "node prover-1: resources\.memory_budget \(64\.00 GiB\) holds the filecoin_params but not one partition of 'c2' beside them \(buffer 16\.00 GiB \+ work 15\.88 GiB, $(gib $left) left\)"
start 40GiB "node prover-1: resources\.memory_budget \(40\.00 GiB\) does not hold its filecoin_params \($(gib "$size") resident\)"
finish
