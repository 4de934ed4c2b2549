#!/usr/bin/env bash
# Memory that matches the budget (issue 33 item 4, CTest filecoin/memory): a loopback cluster
# (scheduler with HTTP, a synthesis node, a prover with zkfleet's 2 KiB development parameters
# resident — `zkfleet filecoin setup --seed 1`, cached as tests/filecoin/c2_dev.sh makes them)
# proves one sector; each node's resident set (/proc/PID/status VmRSS, VmHWM for the peak) is
# compared at each step — idle, one partition, after — with what the node accounts for: the
# scheduler's reservation on it (/metrics zkfleet_node_reserved_bytes, its peak) plus, on the
# prover, what it keeps resident (its parameters and the packed wire's circuit structure, taken
# out of its budget at join), plus the
# process's own base (its RSS before any circuit work: SLACK).
#
#   tests/filecoin/memory.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init filecoin_memory "${1:-}"
. "$(dirname "${BASH_SOURCE[0]}")/dev_sector.sh"
command -v curl >/dev/null || skip "curl is not installed"
mib() { echo $(($1 / 1048576)); }

dev_sector 5

cluster_new memory insecure
take_port HTTP
U="http://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "stage_timeout: 10m"
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node prover-1 prover "resources: {cores: 2, memory_budget: 4GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS}"
cluster_up
wait_ready 900 || die "the cluster did not become ready"
SYNTH_PID="$(node_pid synth-1)" PROVER_PID="$(node_pid prover-1)"
[ -n "$SYNTH_PID" ] && [ -n "$PROVER_PID" ] || die "no pid for synth-1 ($SYNTH_PID) or prover-1 ($PROVER_PID)"
# What the prover keeps resident: what it took out of its 4 GiB at join (its parameters, and the
# packed wire's circuit structure), as the scheduler accounts its budget.
RESIDENT=$(( (4 << 30) - $(curl -s -m 10 "$U/metrics" |
  awk '$1 == "zkfleet_node_budget_bytes{node=\"prover-1\"}" { print $2 }') ))
[ "$RESIDENT" -ge "$(stat -c %s "$PARAMS")" ] && ok "prover-1 holds out of its budget its parameters ($(stat -c %s "$PARAMS") B) and more: $RESIDENT B" ||
  fail "prover-1's resident: $RESIDENT B, less than its parameters ($(stat -c %s "$PARAMS") B)"

kb() { awk -v k="$2:" '$1 == k { print $2 * 1024 }' "/proc/$1/status"; }
metric() { curl -s -m 10 "$U/metrics" | awk -v m="$1{node=\"$2\"}" '$1 == m { print $2 }'; }
# report STEP NODE PID RSS_FIELD RESERVED_FIELD RESIDENT: one line, and the excess over what the
# node accounts for (RSS − resident − reserved) in EXCESS.
report() {
  local rss reserved
  rss="$(kb "$3" "$4")" reserved="$(metric "$5" "$2")"
  EXCESS=$((rss - $6 - ${reserved:-0}))
  printf '  %-22s %-9s %s %6d MiB   reserved %6d MiB   resident params %5d MiB   excess %5d MiB\n' \
    "$1" "$2" "$4" "$(mib "$rss")" "$(mib "${reserved:-0}")" "$(mib "$6")" "$(mib "$EXCESS")" | tee -a "$T/memory.txt"
}
# check_excess WHAT LIMIT_MIB
check_excess() {
  if [ "$EXCESS" -le $(($2 * 1048576)) ]; then ok "$1: $(mib "$EXCESS") MiB above what it accounts for (at most $2)"
  else fail "$1: $(mib "$EXCESS") MiB above what it accounts for (at most $2)"; fi
}
SLACK="${ZK_MEMORY_SLACK_MIB:-160}"  # a node's own base: its libraries, CAF, the allocator's arenas

sleep 2
report idle synth-1 "$SYNTH_PID" VmRSS zkfleet_node_reserved_bytes 0
check_excess "synth-1 idle" "$SLACK"
report idle prover-1 "$PROVER_PID" VmRSS zkfleet_node_reserved_bytes "$RESIDENT"
check_excess "prover-1 idle" "$SLACK"

JOB="$("$ZK" submit --config "$CFG" --circuit fc2k --c1 "$C1" --prover-id "$PROVER" \
  --sector "$SECTOR" 2>"$T/submit.err")" || die "zkfleet submit: $(cat "$T/submit.err")"
"$ZK" await --config "$CFG" "$JOB" --out "$T/out" --timeout 900 >"$T/await.out" 2>&1 ||
  die "zkfleet await: $(cat "$T/await.out")"
ok "job $JOB proved: $(cat "$T/await.out")"
# The peaks: VmHWM against the peak reservation.
report "one partition (peak)" synth-1 "$SYNTH_PID" VmHWM zkfleet_node_peak_reserved_bytes 0
check_excess "synth-1 at its peak" "$SLACK"
report "one partition (peak)" prover-1 "$PROVER_PID" VmHWM zkfleet_node_peak_reserved_bytes "$RESIDENT"
check_excess "prover-1 at its peak" "$SLACK"
sleep 13  # a buffer idle in a node's pool is freed after 10 s (actors/node.cpp)
report after synth-1 "$SYNTH_PID" VmRSS zkfleet_node_reserved_bytes 0
check_excess "synth-1 after" "$SLACK"
report after prover-1 "$PROVER_PID" VmRSS zkfleet_node_reserved_bytes "$RESIDENT"
check_excess "prover-1 after" "$SLACK"
finish
