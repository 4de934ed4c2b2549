#!/usr/bin/env bash
# zkfleet simulate on the example farm (configs/farm.yaml): jobs arrive every 2 s and are
# dispatched as they come, so the provers wait for work, not for the pipeline. The bottleneck
# sentence must say so (demand-bound), and must not advise a lookahead the file already sets to
# auto (issue 27, item 3).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init simulate "${1:-}"

if timeout 120 "$ZK" simulate --config "$ROOT/configs/farm.yaml" --rows 2 >"$T/farm.out" 2>&1; then
  ok "simulate configs/farm.yaml runs"
else
  fail "simulate configs/farm.yaml: $(tail -n 3 "$T/farm.out")"
fi
grep -q "^  lookahead: auto" "$ROOT/configs/farm.yaml" || fail "configs/farm.yaml no longer sets lookahead: auto"
verdict="$(grep '^bottleneck: ' "$T/farm.out")"
echo "  $verdict"
case "$verdict" in
  "bottleneck: demand-bound: "*) ok "the farm is demand-bound: its jobs are dispatched as they come" ;;
  *) fail "the bottleneck of configs/farm.yaml: '$verdict'" ;;
esac
if grep -qiE "raise the lookahead|use auto|set it to auto" "$T/farm.out"; then
  fail "auto lookahead advised to a farm that sets it: $(grep -iE 'lookahead' "$T/farm.out" | tail -n 1)"
else
  ok "no lookahead advice to a farm whose lookahead is already auto"
fi
grep -q "of it with nothing queued)" "$T/farm.out" && ok "the idle time with nothing queued is shown" ||
  fail "no 'with nothing queued' figure: $(grep '^busy' "$T/farm.out")"
finish
