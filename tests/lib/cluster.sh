# The harness of the shell tests that run zkfleet (sourced, never run):
#
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
#   harness_init <name> <path-to-zkfleet>
#
# What it gives a test:
#   - ZK (the zkfleet binary, absolute; for a test of another program built here, such as
#     filecoin_circuit_ref, that program), ROOT (the repository), FIX (tests/fixtures/bn254), T (a
#     temporary folder of this run, removed at exit); TMPDIR=$T/tmp and XDG_CACHE_HOME=$T/cache
#     are exported, so `zkfleet up`'s pid file and node logs, porep-lite's keys and every other
#     temporary file of the processes the test starts stay in $T (two tests never share one).
#   - Reporting: ok MSG / fail MSG print "ok: MSG" / "FAIL: MSG"; check LABEL CMD... runs CMD and
#     reports LABEL by its exit status; report LABEL STATUS [LOG] reports a status already had
#     (with LOG's last lines on failure); expect [-E] LABEL STATUS NEEDLE -- CMD... runs a command
#     line (bounded) and reports whether it exited STATUS with NEEDLE in its output; tally FILE
#     counts the "ok: " / "FAIL: " lines a helper program printed; die MSG (a failure the rest
#     depends on) prints the logs and ends the test; finish prints "N passed, M failed" (and the
#     logs of every node when M > 0) and exits non-zero when M > 0; skip MSG exits 77 (CTest:
#     skipped).
#   - The tests against Filecoin's own code (tests/filecoin/*_vs_ref.sh, ...) add
#     tests/filecoin/ref_lib.sh on top: need_ref finds cargo and the Rust reference (REF), or skips.
#   - Ports: take_port VAR gives a port below the kernel's ephemeral range
#     (/proc/sys/net/ipv4/ip_local_port_range), from a block of 16 that this test holds (flock on
#     /tmp/zkfleet-test-ports/<first port>.lock while the test and its processes live) and that was
#     checked free by binding each port.
#   - A cluster config: cluster_new NAME [tls|insecure] then yaml_head, yaml_circuit, yaml_porep,
#     yaml_node, yaml_line append to $CFG; nodes get their ports from take_port.
#   - Processes: cluster_up starts `zkfleet up` (UP: its pid), start_bg runs any command; each in
#     a session (and so a process group) of its own, so that the exit trap ends the process and
#     everything it started (TERM, then KILL after 10 s) — whatever the test did before.
#   - Waits, each bounded and saying what did not happen on timeout: wait_until, wait_log,
#     wait_ready, wait_port, wait_url, wait_exit.
#   - Proofs: verify_proof (snarkjs groth16 verify when .tools/node has snarkjs, else zkfleet
#     verify; CHECKER says which), verify_job (every partition of a job's proofs).
#     need_noble: npm @noble/curves for noble_verify.js, or the test ends.

# --- set-up and reporting ------------------------------------------------------------------------

harness_init() {
  set -uo pipefail
  local name="$1" zk="${2:-}"
  ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  if [ -z "$zk" ] || [ ! -x "$zk" ]; then
    echo "$name: the binary under test '$zk' is not an executable file" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  ZK="$(cd "$(dirname "$zk")" && pwd)/$(basename "$zk")"
  FIX="$ROOT/tests/fixtures/bn254"
  SNARKJS="$ROOT/.tools/node/node_modules/.bin/snarkjs"
  CHECKER="snarkjs"
  [ -x "$SNARKJS" ] || CHECKER="zkfleet verify (snarkjs not installed: scripts/deps --npm)"
  T="$(mktemp -d "/tmp/zk_${name}_XXXXXX")"
  mkdir -p "$T/tmp" "$T/cache"
  export TMPDIR="$T/tmp" XDG_CACHE_HOME="$T/cache"
  H_PASSED=0 H_FAILED=0
  _H_GROUPS=() _H_CONFIGS=() _H_LOGS=() _H_LOCK_FDS=()
  _H_PORT_NEXT=0 _H_PORT_END=0
  _H_DUMPED=0
  trap _h_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# ok and fail count in this shell; called in a subshell (a pipe's end: `cmd | tally /dev/stdin`,
# `$(...)`), where a variable's change is lost, they leave a line in $T/.h_counts that
# _h_counts adds before the counts are said.
ok() {
  echo "ok: $*"
  if [ "$BASHPID" = "$$" ]; then H_PASSED=$((H_PASSED + 1)); else echo ok >>"$T/.h_counts"; fi
}
fail() {
  echo "FAIL: $*"
  if [ "$BASHPID" = "$$" ]; then H_FAILED=$((H_FAILED + 1)); else echo fail >>"$T/.h_counts"; fi
}
_h_counts() {
  [ -f "$T/.h_counts" ] || return 0
  H_PASSED=$((H_PASSED + $(grep -c '^ok$' "$T/.h_counts")))
  H_FAILED=$((H_FAILED + $(grep -c '^fail$' "$T/.h_counts")))
  rm -f "$T/.h_counts"
}
# check LABEL CMD...: ok LABEL when CMD exits 0, else fail LABEL (with CMD's exit status).
check() {
  local label="$1"
  shift
  "$@"
  local rc=$?
  if [ "$rc" = 0 ]; then ok "$label"; else fail "$label (exit $rc)"; fi
  return "$rc"
}
# report LABEL STATUS [LOG]: ok LABEL when STATUS is 0, else fail LABEL and the LOG's last lines.
report() {
  if [ "$2" = 0 ]; then
    ok "$1"
  else
    fail "$1"
    [ -n "${3:-}" ] && show "$3"
  fi
  return "$2"
}
# expect [-E] LABEL STATUS NEEDLE -- CMD...: runs CMD (within EXPECT_TIMEOUT seconds, 120 unless
# the caller sets it), its stdout and stderr together in EXPECT_OUT. ok LABEL when it exits STATUS
# and its output holds NEEDLE (a fixed string; with -E an extended regular expression; "" for
# any output), else fail LABEL with what differed and the output's start. False when it failed.
expect() {
  local how=-F
  if [ "$1" = -E ]; then
    how=-E
    shift
  fi
  local label="$1" want="$2" needle="$3" rc=0
  if [ "${4:-}" != -- ]; then
    fail "$label: expect LABEL STATUS NEEDLE -- CMD...: no -- before the command"
    return 1
  fi
  shift 4
  EXPECT_OUT="$(timeout "${EXPECT_TIMEOUT:-120}" "$@" 2>&1)" || rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$label: exit $rc, expected $want: $(head -c 300 <<<"$EXPECT_OUT")"
  elif [ -n "$needle" ] && ! grep -q "$how" -- "$needle" <<<"$EXPECT_OUT"; then
    if [ "$how" = -E ]; then
      fail "$label: output does not match /$needle/: $(head -c 300 <<<"$EXPECT_OUT")"
    else
      fail "$label: output lacks '$needle': $(head -c 300 <<<"$EXPECT_OUT")"
    fi
  else
    ok "$label (exit $rc: $(head -c 160 <<<"$EXPECT_OUT" | tr '\n' ' '))"
    return 0
  fi
  return 1
}
# tally FILE: the report of a helper program (a Python check run by the test, say): each line
# "ok: MSG" or "FAIL: MSG" of FILE counts as ok MSG / fail MSG; every other line is printed as it
# is.
tally() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      "ok: "*) ok "${line#ok: }" ;;
      "FAIL: "*) fail "${line#FAIL: }" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done <"$1"
}
# show FILE [LINES]: a file's last lines, indented, for a failure's details.
show() {
  [ -s "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/    | /'
  return 0
}
skip() {
  echo "SKIP: $*"
  exit 77
}
# die MSG: a failure the rest of the test depends on: the logs, the counts, exit 1.
die() {
  fail "$*"
  _h_counts
  dump_logs
  echo "$H_PASSED passed, $H_FAILED failed"
  exit 1
}
finish() {
  _h_counts
  [ "$H_FAILED" = 0 ] || dump_logs
  echo "$H_PASSED passed, $H_FAILED failed"
  [ "$H_FAILED" = 0 ] && exit 0
  exit 1
}

# dump_logs: the output of every process the test started and every node log of its clusters
# (the last 60 lines of each, less the lines matching LOG_SKIP when the test sets it), once.
dump_logs() {
  [ "$_H_DUMPED" = 0 ] || return 0
  _H_DUMPED=1
  local f
  for f in "${_H_LOGS[@]}" "$TMPDIR"/zkfleet-up-*.logs/*.log; do
    [ -f "$f" ] || continue
    echo "--- $f:"
    if [ -n "${LOG_SKIP:-}" ]; then grep -Ev -- "$LOG_SKIP" "$f" | tail -n 60; else tail -n 60 "$f"; fi
  done
}

_h_alive_group() { kill -0 -- "-$1" 2>/dev/null; }

_h_cleanup() {
  local rc=$? pg cfg p end
  for pg in "${_H_GROUPS[@]}"; do
    _h_alive_group "$pg" || continue
    kill -TERM -- "-$pg" 2>/dev/null
    kill -CONT -- "-$pg" 2>/dev/null  # a stopped process acts on TERM only once continued
  done
  end=$((SECONDS + 10))
  for pg in "${_H_GROUPS[@]}"; do
    while _h_alive_group "$pg" && [ "$SECONDS" -lt "$end" ]; do sleep 0.1; done
    _h_alive_group "$pg" && kill -KILL -- "-$pg" 2>/dev/null
  done
  # A process of one of the test's configs outside those groups (none is expected).
  for cfg in "${_H_CONFIGS[@]}"; do
    for p in $(pgrep -f -- "--config $cfg( |\$)" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
  done
  rm -rf "$T"
  exit "$rc"
}

# --- ports ----------------------------------------------------------------------------------------

# _h_ports_free FIRST COUNT: every port of FIRST..FIRST+COUNT-1 can be bound on 127.0.0.1 now.
_h_ports_free() {
  python3 - "$1" "$2" <<'PY'
import socket, sys
first, count = int(sys.argv[1]), int(sys.argv[2])
for p in range(first, first + count):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        sys.exit(1)
    finally:
        s.close()
PY
}

# _h_reserve_block: a block of 16 free ports below the ephemeral range, held by this test.
_h_reserve_block() {
  local eph lo hi blocks base try fd dir="/tmp/zkfleet-test-ports"
  read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
  hi=$((eph - 1 < 32000 ? eph - 1 : 32000))
  lo=10000
  [ $((hi - lo)) -ge 1024 ] || lo=1024
  blocks=$(((hi - lo + 1) / 16))
  mkdir -p "$dir" && chmod 1777 "$dir" 2>/dev/null
  for try in $(seq 1 200); do
    base=$((lo + 16 * ((RANDOM * 32768 + RANDOM) % blocks)))
    exec {fd}>>"$dir/$base.lock" || continue
    if flock -n "$fd" && _h_ports_free "$base" 16; then
      _H_LOCK_FDS+=("$fd")
      _H_PORT_NEXT=$base _H_PORT_END=$((base + 16))
      return 0
    fi
    exec {fd}>&-
  done
  die "no free block of 16 ports in $lo..$hi after 200 tries"
}

# take_port VAR: VAR = a port of this test's own, free when it was reserved.
take_port() {
  [ "$_H_PORT_NEXT" -lt "$_H_PORT_END" ] || _h_reserve_block
  printf -v "$1" '%s' "$_H_PORT_NEXT"
  _H_PORT_NEXT=$((_H_PORT_NEXT + 1))
}

# --- cluster configs ----------------------------------------------------------------------------

# cluster_new NAME [tls|insecure]: a new config CFG=$T/NAME.yaml (empty) whose scheduler listens
# on SCHED_PORT; CERTS: its certificates folder (tls: mutual TLS, `zkfleet up` makes the
# development certificates; insecure: security.insecure); PIDF and LOGS: where `zkfleet up` of it
# keeps its pid file and node logs. NODE_PORT[name]: each node's data port (yaml_node).
cluster_new() {
  CLUSTER="$1"
  SECURITY="${2:-tls}"
  CFG="$T/$1.yaml"
  CERTS="$T/certs"
  take_port SCHED_PORT
  PIDF="$TMPDIR/zkfleet-up-$SCHED_PORT.pid"
  LOGS="$TMPDIR/zkfleet-up-$SCHED_PORT.logs"
  declare -gA NODE_PORT=()
  _H_CONFIGS+=("$CFG")
  _H_SECTION=""
  : >"$CFG"
}

# yaml_line TEXT...: lines as they are.
yaml_line() { printf '%s\n' "$@" >>"$CFG"; }

# yaml_head [FIELD...]: version, the scheduler (its endpoint and each "key: value" FIELD), the
# security section of cluster_new.
yaml_head() {
  {
    echo "version: 1"
    echo "scheduler:"
    echo "  endpoint: 127.0.0.1:$SCHED_PORT"
    local f
    for f in "$@"; do echo "  $f"; done
    echo "security:"
    if [ "$SECURITY" = insecure ]; then
      echo "  insecure: true"
    else
      echo "  certs_dir: $CERTS"
      echo "  dev_certs: true" # zkfleet up makes the test's CA and certificates in $CERTS
    fi
  } >>"$CFG"
}

_h_section() {
  [ "$_H_SECTION" = "$1" ] && return
  _H_SECTION="$1"
  echo "$1:" >>"$CFG"
}

# yaml_circuit NAME FIXTURE [FIELDS]: a circom circuit of tests/fixtures/bn254/FIXTURE (or of the
# folder FIXTURE when it is a path); FIELDS: more of its keys, "shape: abc_witness, ...".
yaml_circuit() {
  local dir="$FIX/$2"
  case "$2" in /*) dir="$2" ;; esac
  _h_section circuits
  echo "  $1: {zkey: $dir/circuit.zkey, r1cs: $dir/circuit.r1cs${3:+, $3}}" >>"$CFG"
}

# yaml_porep NAME PARAMS [FIELDS]: a native porep-lite circuit keyed into $T/keys/NAME.
yaml_porep() {
  _h_section circuits
  echo "  $1: {native: porep-lite, params: \"$2\", key_dir: $T/keys/$1${3:+, $3}}" >>"$CFG"
}

# yaml_node NAME ROLES [FIELDS]: a node of the nodes list; ROLES "synth", "scheduler, prover", ...
# A scheduler listens for control on SCHED_PORT; a synth or prover for data on a port of its own
# (NODE_PORT[NAME]). FIELDS: more of its keys, "resources: {...}, hot_circuits: [...]".
yaml_node() {
  local name="$1" roles="$2" listen="" port
  case ", $roles," in *", scheduler,"*) listen="control: 127.0.0.1:$SCHED_PORT" ;; esac
  case ", $roles," in *", synth,"* | *", prover,"*)
    take_port port
    NODE_PORT[$name]=$port
    listen="${listen:+$listen, }data: 127.0.0.1:$port"
    ;;
  esac
  _h_section nodes
  echo "  - {name: $name, roles: [$roles], listen: {$listen}${3:+, $3}}" >>"$CFG"
}

# --- processes ----------------------------------------------------------------------------------

# start_bg NAME CMD...: runs CMD in a session of its own, its output in $T/NAME.log; BG: its pid
# (also its process group). The exit trap ends it and whatever it started.
start_bg() {
  local name="$1"
  shift
  setsid "$@" >"$T/$name.log" 2>&1 &
  BG=$!
  _H_GROUPS+=("$BG")
  _H_LOGS+=("$T/$name.log")
}

# cluster_up [--split] [ARGS...]: `zkfleet up --config $CFG ARGS` in a session of its own; UP: its
# pid. Its output in UP_LOG ($T/<cluster>-up.log); with --split, stdout in UP_OUT and stderr in
# UP_ERR (without: both are UP_LOG).
cluster_up() {
  UP_LOG="$T/$CLUSTER-up.log" UP_OUT="$T/$CLUSTER-up.log" UP_ERR="$T/$CLUSTER-up.log"
  if [ "${1:-}" = --split ]; then
    shift
    UP_OUT="$T/$CLUSTER-up.out" UP_ERR="$T/$CLUSTER-up.err"
    setsid "$ZK" up --config "$CFG" "$@" >"$UP_OUT" 2>"$UP_ERR" &
    _H_LOGS+=("$UP_OUT" "$UP_ERR")
  else
    setsid "$ZK" up --config "$CFG" "$@" >"$UP_LOG" 2>&1 &
    _H_LOGS+=("$UP_LOG")
  fi
  UP=$!
  _H_GROUPS+=("$UP")
}

# wait_ready [SECONDS=120] [NODES]: until `zkfleet up` says "cluster ready" ("cluster ready:
# NODES nodes" with NODES); false, saying why, when up exits first or the time runs out.
wait_ready() {
  local secs="${1:-120}" re="cluster ready"
  [ -n "${2:-}" ] && re="cluster ready: $2 nodes"
  wait_log "$secs" "$UP_OUT" "$re" 1 "$UP"
}

# cluster_down [SECONDS=60]: `zkfleet down` and up's exit, within SECONDS; false (saying which)
# otherwise. UP_RC: up's exit status.
cluster_down() {
  local secs="${1:-60}"
  UP_RC=""
  if ! timeout "$secs" "$ZK" down --config "$CFG" >"$T/$CLUSTER-down.log" 2>&1; then
    echo "zkfleet down: $(cat "$T/$CLUSTER-down.log")"
    return 1
  fi
  wait_exit "$secs" "$UP" || return 1
  wait "$UP" 2>/dev/null
  UP_RC=$?
  return 0
}

# node_pid NAME: the pid of node NAME's process of this config (a `zkfleet node --config $CFG
# ... --node NAME` command line), as it runs now.
node_pid() { pgrep -f -- "--config $CFG .*--node $1\$" | head -n 1; }

# stop_bg PID [SECONDS=10]: TERM to PID's process group, KILL after SECONDS; reaps it.
stop_bg() {
  kill -TERM -- "-$1" 2>/dev/null
  kill -CONT -- "-$1" 2>/dev/null
  wait_exit "${2:-10}" "$1" >/dev/null || kill -KILL -- "-$1" 2>/dev/null
  wait "$1" 2>/dev/null
  return 0
}

# --- waits --------------------------------------------------------------------------------------

# wait_until SECONDS WHAT CMD...: until CMD succeeds, polled every POLL seconds (0.1 unless the
# caller sets POLL); on timeout prints "timeout: WHAT not within SECONDS s" and returns 1.
wait_until() {
  local secs="$1" what="$2" end
  shift 2
  end=$(($(date +%s%N) + secs * 1000000000))
  while :; do
    "$@" && return 0
    [ "$(date +%s%N)" -lt "$end" ] || break
    sleep "${POLL:-0.1}"
  done
  echo "timeout: $what not within $secs s"
  return 1
}

_h_log_has() {  # FILE REGEX FROM_LINE
  tail -n +"$3" "$1" 2>/dev/null | grep -Eq -- "$2"
}
# wait_log SECONDS FILE REGEX [FROM_LINE=1] [PID]: until FILE has a line matching REGEX (from
# line FROM_LINE on); with PID, false as soon as that process has ended without it.
wait_log() {
  local secs="$1" file="$2" re="$3" from="${4:-1}" pid="${5:-}" end
  end=$(($(date +%s%N) + secs * 1000000000))
  while :; do
    _h_log_has "$file" "$re" "$from" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      _h_log_has "$file" "$re" "$from" && return 0
      echo "timeout: process $pid ended before $(basename "$file") had /$re/"
      return 1
    fi
    [ "$(date +%s%N)" -lt "$end" ] || break
    sleep 0.1
  done
  echo "timeout: no /$re/ in $(basename "$file") within $secs s"
  return 1
}

# lines FILE: how many lines it has now (0 when missing), for wait_log's FROM_LINE (+1).
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

_h_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# wait_port SECONDS PORT: until something accepts connections on 127.0.0.1:PORT.
wait_port() { wait_until "$1" "a listener on 127.0.0.1:$2" _h_port_open "$2"; }

_h_url_answers() { curl -s -o /dev/null -m 5 "$@"; }
# wait_url SECONDS URL [CURL ARGS...]: until URL answers (any HTTP status).
wait_url() {
  local secs="$1" url="$2"
  shift 2
  wait_until "$secs" "an answer from $url" _h_url_answers "$@" "$url"
}

_h_gone() { ! kill -0 "$1" 2>/dev/null; }
# wait_exit SECONDS PID: until the process has ended (a zombie of this shell counts as ended
# once reaped by `wait`: use it on processes the test started, then wait PID for the status).
wait_exit() {
  wait_until "$1" "the end of process $2" _h_gone_or_zombie "$2"
}
_h_gone_or_zombie() {
  _h_gone "$1" && return 0
  local s
  s=$(sed -n 's/^State:\s*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
  [ "$s" = Z ]
}

# --- proofs -------------------------------------------------------------------------------------

# need_noble: npm @noble/curves for tests/filecoin/noble_verify.js (ZK_NODE_MODULES, default
# .tools/node/node_modules, exported), or the test ends naming how to install it.
need_noble() {
  local modules="${ZK_NODE_MODULES:-$ROOT/.tools/node/node_modules}"
  [ -d "$modules/@noble/curves" ] ||
    die "@noble/curves is not installed in $modules (run scripts/deps --npm)"
  export ZK_NODE_MODULES="$modules"
}
# verify_proof VK PUBLIC PROOF: accepted by $CHECKER (snarkjs: exit 0 and "OK!"), within
# VERIFY_TIMEOUT seconds (120 unless the caller sets it). The checker's output in $T/verify.log.
verify_proof() {
  if [ -x "$SNARKJS" ]; then
    timeout "${VERIFY_TIMEOUT:-120}" "$SNARKJS" groth16 verify "$1" "$2" "$3" >"$T/verify.log" 2>&1 &&
      grep -q "OK!" "$T/verify.log"
  else
    timeout "${VERIFY_TIMEOUT:-120}" "$ZK" verify "$1" "$2" "$3" >"$T/verify.log" 2>&1
  fi
}

# verify_job VK DIR JOB N: checks the proofs DIR/jobJOB-p<k>-{public,proof}.json, k < N, with
# verify_proof; VERIFIED: how many were accepted. Each one missing or refused is a failure
# (fail) with the checker's words.
verify_job() {
  local vk="$1" dir="$2" job="$3" n="$4" k p
  VERIFIED=0
  for k in $(seq 0 $((n - 1))); do
    p="$dir/job$job-p$k"
    if [ ! -s "$p-proof.json" ] || [ ! -s "$p-public.json" ]; then
      fail "job $job partition $k: no proof in $dir"
    elif verify_proof "$vk" "$p-public.json" "$p-proof.json"; then
      VERIFIED=$((VERIFIED + 1))
    else
      fail "job $job partition $k: refused by $CHECKER: $(tail -n 3 "$T/verify.log" | tr '\n' ' ')"
    fi
  done
}

# need_snarkjs: installs the npm tools (scripts/deps --npm) when snarkjs is missing; false when
# that fails.
need_snarkjs() {
  if [ ! -x "$SNARKJS" ]; then
    "$ROOT/scripts/deps" --npm >/dev/null || return 1
  fi
  CHECKER="snarkjs"
  [ -x "$SNARKJS" ]
}
