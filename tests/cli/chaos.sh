#!/usr/bin/env bash
# Chaos: the cluster as processes under `zkfleet up` (mutual TLS on loopback: a scheduler with its
# journal, two synthesis nodes, two provers) proves jobs of two circuits (circom mulchain, native
# porep-lite) while, one after another:
#   1. synth-1 is killed (SIGKILL)                  → up restarts it; it rejoins
#   2. prover-1 is killed (SIGKILL)                 → up restarts it; it rejoins
#   3. prover-2 is stopped (SIGSTOP) past the node  → the scheduler drops it (its partitions go
#      timeout, then continued (SIGCONT)              elsewhere); continued, it rejoins
#   4. the scheduler is killed (SIGKILL)            → up restarts it; it replays its journal, the
#                                                     nodes rejoin, `await` reconnects
# Then: every job completes, every proof is accepted by snarkjs (zkfleet verify where snarkjs is
# not installed, said so), each partition comes back exactly once, and every node's reserved
# memory is back to zero. The figures (time to notice the stopped prover, time from the
# scheduler's kill to its next proof, proofs per minute) are printed; bench/chaos runs this
# against an undisturbed run (--calm: the same jobs, no faults).
#
#   tests/cli/chaos.sh <path-to-zkfleet> [--calm] [--partitions P] [--report FILE]
#
# --partitions P: per job (default 4; 10 jobs): bench/chaos makes the run work-bound with more.
#
# Ends with "N passed, M failed"; exits non-zero if M > 0. Every wait is bounded; about two
# minutes in all on 2 cores.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init chaos "${1:-}"
shift
CALM=0 REPORT="" P=4
while [ $# -gt 0 ]; do
  case "$1" in
    --calm) CALM=1; shift ;;
    --partitions) P="$2"; shift 2 ;;
    --report) REPORT="$2"; shift 2 ;;
    *) echo "chaos: unknown argument $1" >&2; exit 2 ;;
  esac
done
LOG_SKIP="proof accepted"  # the logs printed on a failure: what went wrong, not every proof
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

cluster_new chaos tls
yaml_head "lookahead: 1" "input_roots: [$FIX]" "heartbeat: 500ms" "node_timeout: 3s" "stage_timeout: 30s"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_porep porep "curve=bn254,challenges=2,depth=12"
yaml_node scheduler scheduler
for s in synth-1 synth-2; do
  yaml_node "$s" synth "resources: {cores: 1, memory_budget: 64MiB}, data_plane: {connect_timeout: 1s, io_timeout: 3s, max_attempts: 2}"
done
for p in prover-1 prover-2; do
  yaml_node "$p" prover "resources: {cores: 1, memory_budget: 512MiB, prover_backend: cpu}, hot_circuits: [mulchain, porep]"
done

cluster_up
wait_ready 90 || die "zkfleet up did not report ready"
ok "zkfleet up: 5 node processes ready"

# The jobs: a batch of two (one of each circuit, P partitions each) at the start and before each
# fault, so that every fault meets work in flight: 5 batches, 10 P partitions. Their waiters start
# at once (each in its own process group) and reconnect across the scheduler's restart.
T0=$(now)
JOBS=()
declare -A AWAIT=()
batch() {
  local j circ args
  for circ in mulchain porep; do
    case $circ in
      mulchain) args=(--input "$FIX/mulchain/witness.wtns") ;;
      porep) args=(--seed "$1") ;;
    esac
    j=$(timeout 60 "$ZK" submit --config "$CFG" --circuit "$circ" "${args[@]}" --partitions "$P") ||
      die "submit $circ (batch $1)"
    JOBS+=("$j:$circ:$P")
    start_bg "await-$j" timeout 300 "$ZK" await --config "$CFG" "$j" --out "$T/proofs" --timeout 280
    AWAIT[$j]=$BG
  done
}
batch 1
NPARTS=$((10 * P))
SL="$LOGS/scheduler.log"
if [ "$CALM" = 1 ]; then  # the same batches at about the same pace, no fault
  wait_log 60 "$SL" "proof accepted" || true
  for b in 2 3 4 5; do
    batch "$b"
    sleep 4  # the pace of the faulty run: the time its faults take
  done
else
  wait_log 60 "$SL" "proof accepted" || true
  # 1. synth-1
  batch 2
  pid=$(node_pid synth-1)
  from=$(lines "$UP_LOG")
  kill -9 "$pid"
  wait_log 30 "$UP_LOG" "node synth-1 restarted" "$from" && ok "synth-1 killed (pid $pid), restarted by up" ||
    fail "synth-1 was not restarted: $(tail -n 5 "$UP_LOG")"
  sleep 2  # work flows again before the next fault (the scenario's pace, not a wait)
  # 2. prover-1
  batch 3
  pid=$(node_pid prover-1)
  from=$(lines "$UP_LOG")
  kill -9 "$pid"
  wait_log 30 "$UP_LOG" "node prover-1 restarted" "$from" && ok "prover-1 killed (pid $pid), restarted by up" ||
    fail "prover-1 was not restarted: $(tail -n 5 "$UP_LOG")"
  sleep 2  # as above
  # 3. prover-2 silent past the node timeout (3 s)
  batch 4
  pid=$(node_pid prover-2)
  from=$(lines "$SL")
  t_stop=$(now)
  kill -STOP "$pid"
  if wait_log 20 "$SL" "node prover-2 lost" "$from"; then
    DETECT=$(since "$t_stop")
    ok "prover-2 stopped (SIGSTOP): the scheduler dropped it after ${DETECT} s (node_timeout 3 s)"
  else
    DETECT="-"
    fail "the stopped prover-2 was never dropped: $(tail -n 5 "$SL")"
  fi
  sleep 1  # dropped a while: its partitions go elsewhere before it comes back
  from=$(lines "$SL")
  kill -CONT "$pid"
  wait_log 40 "$SL" "node prover-2 joined" "$from" && ok "prover-2 continued (SIGCONT) and rejoined" ||
    fail "prover-2 did not rejoin: $(tail -n 5 "$LOGS/prover-2.log")"
  # 4. the scheduler
  batch 5
  pid=$(node_pid scheduler)
  before=$(grep -c "" "$SL")
  t_kill=$(now)
  kill -9 "$pid"
  wait_log 30 "$UP_LOG" "node scheduler restarted" "$(lines "$UP_LOG")" || true
  if wait_log 60 "$SL" "journal .*replayed" "$before"; then
    ok "scheduler killed (SIGKILL), restarted by up: $(tail -n +"$before" "$SL" | grep -m1 -o 'journal .*replayed.*')"
  else
    fail "the scheduler did not replay its journal: $(tail -n 10 "$SL")"
  fi
  if wait_log 90 "$SL" "proof accepted" "$before"; then
    RESTART=$(since "$t_kill")
    ok "first proof after the scheduler's kill: ${RESTART} s later"
  else
    RESTART="-"
  fi
fi

# Every job completes; each partition once; snarkjs accepts every proof.
declare -A RC
for spec in "${JOBS[@]}"; do
  j="${spec%%:*}"
  wait "${AWAIT[$j]}"
  RC[$j]=$?
done
ELAPSED=$(since "$T0")  # the last job's proofs are in
total=0 good=0
for spec in "${JOBS[@]}"; do
  IFS=: read -r j c n <<<"$spec"
  rc=${RC[$j]}
  got=$(grep -c "verified" "$T/await-$j.log")
  parts=$(grep -o "job$j-p[0-9]*-proof.json" "$T/await-$j.log" | sort -u | wc -l)
  if [ "$rc" = 0 ] && [ "$got" = "$n" ] && [ "$parts" = "$n" ]; then :; else
    fail "job $j ($c): await exit $rc, $got proofs for $parts partitions of $n: $(tail -n 3 "$T/await-$j.log")"
    continue
  fi
  vk="$FIX/mulchain/verification_key.json"
  [ "$c" = porep ] && vk="$T/keys/porep/verification_key.json"
  verify_job "$vk" "$T/proofs" "$j" "$n"
  total=$((total + n)) good=$((good + VERIFIED))
done
[ "$total" = "$NPARTS" ] && [ "$good" = "$NPARTS" ] &&
  ok "every job completed, each partition once: $good of $NPARTS proofs accepted by $CHECKER" ||
  fail "$good of $total proofs accepted by $CHECKER ($NPARTS expected)"
RATE=$(awk -v n="$NPARTS" -v s="$ELAPSED" 'BEGIN { printf "%.1f", n * 60 / s }')
echo "figures: $NPARTS proofs in ${ELAPSED} s = ${RATE} proofs/min$([ "$CALM" = 0 ] && echo "; silent prover dropped after ${DETECT} s; first proof ${RESTART} s after the scheduler's kill")"
[ -z "$REPORT" ] || echo "calm=$CALM elapsed=$ELAPSED rate=$RATE detect=${DETECT:-} restart=${RESTART:-}" >>"$REPORT"

# Every reservation released (the scheduler's account of each node).
# node  alive  reserved(value unit)  peak  budget  synth  pipeline: every reserved value 0
released() {
  timeout 10 "$ZK" status --config "$CFG" >"$T/status.txt" 2>&1 || true
  [ "$(tail -n +2 "$T/status.txt" | wc -l)" -ge 4 ] &&
    tail -n +2 "$T/status.txt" | awk '$3 != "0" { bad = 1 } END { exit bad }'
}
wait_until 10 "every reservation released" released && ok "every node's reserved memory is back to zero" ||
  fail "memory still reserved: $(cat "$T/status.txt")"

# The node logs, for whoever reads a failure: printed by finish; kept where ZK_CHAOS_KEEP says.
[ "$H_FAILED" = 0 ] || [ -z "${ZK_CHAOS_KEEP:-}" ] || cp -r "$LOGS" "$ZK_CHAOS_KEEP"
timeout 60 "$ZK" down --config "$CFG" >/dev/null 2>&1 && wait "$UP" 2>/dev/null
finish
