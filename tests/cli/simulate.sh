#!/usr/bin/env bash
# zkfleet simulate on the example farm (configs/farm.yaml): jobs arrive every 2 s and are
# dispatched as they come, so the provers wait for work, not for the pipeline. The bottleneck
# sentence must say so (demand-bound), and must not advise a lookahead the file already sets to
# auto (issue 27, item 3). Then the 32 GiB farms of configs/ (issue 35 item 4, below).
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

# The 32 GiB farms (issue 35 item 4): each run once with today's buffer on the wire and once with
# the packed witness. Today the links are the bound and the sentence must say network-bound; with
# the packed witness every GPU must be busier than with today's buffer (the simulator's own table),
# and a 25 GbE link must keep the GPUs busier than a 10 GbE one with today's buffer.
today_busy() { # FILE: the mean of the table's today column
  awk '/the provers. busy fraction by wire/ { t = 1; next } t && /\/prover / { gsub("%", ""); s += $(NF - 1); n++ } END { if (n) printf "%.1f", s / n }' "$1"
}
for link in 10gbe 25gbe; do
  out="$T/32g-$link.out"
  if timeout 60 "$ZK" simulate --config "$ROOT/configs/simulate-32g-$link.yaml" --rows 0 >"$out" 2>&1; then
    ok "simulate configs/simulate-32g-$link.yaml runs"
  else
    fail "simulate configs/simulate-32g-$link.yaml: $(tail -n 3 "$out")"
    continue
  fi
  grep -q "EXCEEDED" "$out" && fail "$link: $(grep -m1 EXCEEDED "$out")"
  mapfile -t verdicts < <(grep '^bottleneck: ' "$out")
  [ "${#verdicts[@]}" = 2 ] || fail "$link: expected two runs (today, packed), got ${#verdicts[@]} verdicts"
  case "${verdicts[0]}" in
    "bottleneck: network-bound: the links carrying buffers to the provers are busy "*"(the busiest, synth-"*"/uplink, "*)
      ok "$link, today's buffer: ${verdicts[0]:0:90}…" ;;
    *) fail "$link, today's buffer: not network-bound naming the busiest link: '${verdicts[0]}'" ;;
  esac
  case "${verdicts[1]}" in
    "bottleneck: network-bound"*) fail "$link, packed witness: still network-bound: '${verdicts[1]}'" ;;
    *) ok "$link, packed witness: ${verdicts[1]:0:60}…" ;;
  esac
  # Every GPU's busy fraction, today against packed, from the table simulate prints last.
  rows="$(awk '/the provers. busy fraction by wire/ { t = 1; next } t && /\/prover / { gsub("%", ""); print $(NF - 1), $NF }' "$out")"
  [ "$(wc -l <<<"$rows")" = 4 ] || fail "$link: expected 4 GPUs in the busy table, got: $rows"
  if awk '{ if (!($2 > $1 + 10)) bad = 1 } END { exit bad }' <<<"$rows"; then
    ok "$link: every GPU busier with the packed witness ($(tr '\n' ' ' <<<"$rows"))"
  else
    fail "$link: a GPU not at least 10 points busier with the packed witness: $(tr '\n' ' ' <<<"$rows")"
  fi
done
b10="$(today_busy "$T/32g-10gbe.out")" b25="$(today_busy "$T/32g-25gbe.out")"
if [ -n "$b10" ] && [ -n "$b25" ] && awk -v a="$b10" -v b="$b25" 'BEGIN { exit !(b > 1.5 * a) }'; then
  ok "today's buffer: GPUs busy $b10 % on 10 GbE, $b25 % on 25 GbE (the link is the bound)"
else
  fail "today's buffer: GPUs busy '$b10' % on 10 GbE, '$b25' % on 25 GbE: a faster link should help"
fi
finish
