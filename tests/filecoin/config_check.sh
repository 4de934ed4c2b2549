#!/usr/bin/env bash
# `zkfleet config check` reads a farm's Filecoin entries (issue 33 item 3, CTest
# filecoin/config-check), with zkfleet's 2 KiB development parameters (`zkfleet filecoin setup
# --seed 1`, cached as tests/filecoin/c2_dev.sh makes them) and an 8 MiB verifying key: each
# mistake is one problem naming its key and what is wrong, a right config has none.
#
#   tests/filecoin/config_check.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_config_check "${1:-}"
P2=StackedDrg2KiBV1_1 P8=StackedDrg8MiBV1_1
out="$(timeout 1800 "$ZK" filecoin setup --registered-proof $P2 --seed 1 --out "$T/p2" 2>&1)" ||
  die "zkfleet filecoin setup: $out"
out="$("$ZK" filecoin setup --registered-proof $P8 --seed 1 --vk-only --out "$T/p8" 2>&1)" ||
  die "zkfleet filecoin setup --vk-only: $out"
PARAMS="$T/p2/$P2.params" VK="$T/p2/$P2.vk" VK8="$T/p8/$P8.vk"

# cfg NAME CIRCUIT_FIELDS PARAMS BUDGET: a scheduler and a prover with PARAMS for circuit c2.
cfg() {
  cat >"$T/$1.yaml" <<EOT
version: 1
scheduler:
  endpoint: 127.0.0.1:7000
security:
  insecure: true
circuits:
  c2: {native: filecoin-porep, $2}
nodes:
  - {name: scheduler, roles: [scheduler], listen: {control: 127.0.0.1:7000}}
  - {name: prover-1, roles: [prover], listen: {data: 127.0.0.1:7002}, resources: {cores: 2, memory_budget: $4}, filecoin_params: {c2: $3}}
EOT
}
# check NAME WANT_PROBLEMS REGEX: config check's verdict on $T/NAME.yaml.
check() {
  local rc=0 out
  out="$("$ZK" config check --config "$T/$1.yaml" 2>&1)" || rc=$?
  local n
  n="$(sed -n 's/.*: \([0-9]*\) problems*$/\1/p' <<<"$out" | head -n 1)"
  [ -n "$n" ] || n=0
  if [ "$n" = "$2" ] && grep -qE -- "$3" <<<"$out" && { [ "$2" = 0 ] && [ $rc = 0 ] || [ $rc = 1 ]; }; then
    ok "$1: $(grep -E -- "$3" <<<"$out" | head -n 1 | sed 's/^ *//')"
  else
    fail "$1: expected $2 problem(s) matching /$3/, got (exit $rc): $out"
  fi
}

cfg right "registered_proof: $P2, vk: $VK" "$PARAMS" 4GiB
check right 0 "no problems"
cfg no-vk "registered_proof: $P2" "$PARAMS" 4GiB
check no-vk 1 "circuits\.c2\.vk: missing"
cfg no-params "registered_proof: $P2, vk: $VK" "$T/nowhere/$P2.params" 4GiB
check no-params 1 "node prover-1: filecoin_params\.c2: .*/nowhere/$P2\.params does not exist"
cfg vk-is-params "registered_proof: $P2, vk: $PARAMS" "$PARAMS" 4GiB
check vk-is-params 1 "node scheduler: circuits\.c2\.vk: .*\.params is a \.params file .*not a \.vk"
cfg params-is-vk "registered_proof: $P2, vk: $VK" "$VK" 4GiB
check params-is-vk 1 "node prover-1: filecoin_params\.c2: .*\.vk is a \.vk file .*not the \.params"
cfg other-vk "registered_proof: $P2, vk: $VK8" "$PARAMS" 4GiB
check other-vk 1 "node prover-1: filecoin_params\.c2: .*: its verifying key is not circuits\.c2\.vk \(.*$P8\.vk\)"
cfg other-params "registered_proof: $P8, vk: $VK8" "$PARAMS" 4GiB
check other-params 1 "node prover-1: filecoin_params\.c2: .*: parameters of another circuit than $P8's"
cfg small-budget "registered_proof: $P2, vk: $VK" "$PARAMS" 1GiB
check small-budget 1 "node prover-1: resources\.memory_budget: 1\.00 GiB does not hold the node's filecoin_params"
cfg no-room "registered_proof: $P2, vk: $VK" "$PARAMS" 1300MiB
check no-room 1 "node prover-1: resources\.memory_budget: .* holds the filecoin_params .* but not one partition of 'c2'"
finish
