#!/usr/bin/env bash
# Inputs of real size through the scheduler's HTTP endpoint (docs/api.md "Uploads"), on a loopback
# cluster of real processes with scheduler.http and no input_roots (every input is uploaded):
#   - a large upload (UPLOAD_MIB, default 512 MiB; sparse, so it costs no disk to make) streamed
#     to the store with the scheduler's peak RSS (VmHWM) growing by less than 64 MiB, stored
#     under its SHA-256
#   - over scheduler.max_upload: 413 at once from curl (JSON naming the setting and its value) and
#     from `zkfleet submit` ("refused the upload (413): ... raise scheduler.max_upload"), no byte
#     of it sent; a client that stops mid-body leaves no file in the store
#   - a real circuit's 200 MiB witness: circuits/mulchain.circom of WITNESS_CONSTRAINTS constraints
#     (default 6,553,600: a 209,715,372-byte .wtns, domain 2^23), made by make_mulchain (circom's
#     circuit and snarkjs's witness, tests/interop/make_mulchain.sh; generated here, never
#     committed) and keyed by `zkfleet setup`; submitted with `zkfleet submit --input` (the
#     scheduler's peak RSS grows by less than 64 MiB), fetched by the synthesis node over HTTP,
#     checked against the .r1cs, sent to the prover, proved, the proof verified (snarkjs, else
#     zkfleet verify)
#   - progress lines on a terminal (script(1)) for the large upload and for await, none in a pipe
#   - GET /v1/jobs/ID/proofs pages (?limit=1: a Link header to the next page), on a 3-partition job
#     of the committed mulchain fixture
#
#   tests/cli/uploads.sh <path-to-zkfleet> <path-to-make_mulchain>
#
# Ends with "N passed, M failed"; exit 77 (skipped) without curl. Every wait is bounded. Takes
# about 4 minutes on 2 cores, most of it `zkfleet setup` (2.5 min) and the proof (45 s) at 2^23.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init uploads "${1:-}"
GEN="${2:-}"
[ -x "$GEN" ] || die "usage: tests/cli/uploads.sh <path-to-zkfleet> <path-to-make_mulchain>"
command -v curl >/dev/null || skip "curl is not installed"
UPLOAD_MIB="${UPLOAD_MIB:-512}"
WITNESS_CONSTRAINTS="${WITNESS_CONSTRAINTS:-6553600}"
MAX_UPLOAD_MIB=$((UPLOAD_MIB + 16))
MAX_BYTES=$((MAX_UPLOAD_MIB * 1048576))

# --- the real circuit (before the cluster: the key takes a while) --------------------------------
CIRC="$T/mulchain"
mkdir -p "$CIRC"
START=$(date +%s%N)
"$GEN" --curve bn254 --size "$WITNESS_CONSTRAINTS" --out "$CIRC" 2>"$T/make_mulchain.log" ||
  die "make_mulchain failed: $(cat "$T/make_mulchain.log")"
timeout 1200 "$ZK" setup "$CIRC/circuit.r1cs" "$CIRC/circuit.zkey" "$CIRC/verification_key.json" \
  --seed 7 >"$T/setup.log" 2>&1 || die "zkfleet setup failed: $(tail -n 5 "$T/setup.log")"
WTNS_BYTES=$(stat -c %s "$CIRC/witness.wtns")
echo "  mulchain($WITNESS_CONSTRAINTS) made and keyed in $((($(date +%s%N) - START) / 1000000)) ms: $(grep -m1 constraints "$T/setup.log")"
[ "$WTNS_BYTES" -ge $((200 * 1048576)) ] || [ "$WITNESS_CONSTRAINTS" != 6553600 ] &&
  ok "the witness is $WTNS_BYTES bytes ($((WTNS_BYTES / 1048576)) MiB)" ||
  fail "the witness is only $WTNS_BYTES bytes"

# --- the cluster ---------------------------------------------------------------------------------
cluster_new uploads insecure
take_port HTTP
U="http://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "max_upload: ${MAX_UPLOAD_MIB}MiB"
yaml_circuit mulchain "$CIRC" "shape: witness_only"
yaml_circuit small mulchain "shape: witness_only"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node prover-1 prover "resources: {cores: 2, memory_budget: 4GiB, prover_backend: cpu}"
cluster_up
wait_ready 120 || die "zkfleet up did not report ready"
STORE="$T/uploads.state/uploads"
SCHED=$(node_pid scheduler)
[ -n "$SCHED" ] || die "no scheduler process"

hwm() { sed -n 's/^VmHWM:\s*\([0-9]*\) kB/\1/p' "/proc/$1/status"; }
stray() { find "$STORE" -name '.tmp.*' | wc -l; }

# --- a large upload, the scheduler's memory bounded -------------------------------------------
BIG="$T/big.wtns"
printf 'wtns' >"$BIG"
truncate -s "${UPLOAD_MIB}M" "$BIG"
BEFORE=$(hwm "$SCHED")
# The peak so far is the scheduler's start-up: it reads the 3.5 GB key's header and digest, never
# maps the key whole (else every growth below would hide under that peak).
[ "$BEFORE" -lt $((256 * 1024)) ] && ok "the scheduler's peak RSS after start-up: $((BEFORE / 1024)) MiB (a 3.5 GB key configured)" ||
  fail "the scheduler's peak RSS after start-up is $((BEFORE / 1024)) MiB: the key was mapped whole"
START=$(date +%s%N)
CODE=$(curl -s -m 600 -o "$T/big.body" -w '%{http_code}' -H 'Content-Type: application/octet-stream' \
  -T "$BIG" "$U/v1/uploads")
MS=$((($(date +%s%N) - START) / 1000000))
AFTER=$(hwm "$SCHED")
GREW=$(((AFTER - BEFORE) / 1024))
if [ "$CODE" = 201 ] && grep -q "\"bytes\":$((UPLOAD_MIB * 1048576))" "$T/big.body"; then
  ok "PUT of ${UPLOAD_MIB} MiB: 201 in $MS ms"
else
  fail "PUT of ${UPLOAD_MIB} MiB: $CODE $(head -c 300 "$T/big.body")"
fi
echo "  scheduler VmHWM: $BEFORE kB before, $AFTER kB after (grew $GREW MiB) for ${UPLOAD_MIB} MiB"
[ "$GREW" -lt 64 ] && ok "the scheduler's peak RSS grew by $GREW MiB (< 64 MiB)" ||
  fail "the scheduler's peak RSS grew by $GREW MiB for a ${UPLOAD_MIB} MiB upload"
SUM=$(sha256sum "$BIG" | cut -d' ' -f1)
[ -f "$STORE/$SUM.wtns" ] && [ "$(stat -c %s "$STORE/$SUM.wtns")" = "$(stat -c %s "$BIG")" ] &&
  ok "stored whole under its SHA-256" || fail "no $STORE/$SUM.wtns of the upload's size"
rm -f "$STORE/$SUM.wtns"

# --- over the bound: 413 before the body, from curl and from zkfleet submit -----------------------
OVER="$T/over.wtns"
printf 'wtns' >"$OVER"
truncate -s $((MAX_BYTES + 1)) "$OVER"
CODE=$(curl -s -m 60 -o "$T/over.body" -w '%{http_code}' -T "$OVER" "$U/v1/uploads")
WANT="is over scheduler.max_upload ($MAX_BYTES bytes, $MAX_UPLOAD_MIB MiB): raise scheduler.max_upload"
if [ "$CODE" = 413 ] && grep -qF "\"error\":\"the body ($((MAX_BYTES + 1)) bytes) $WANT" "$T/over.body"; then
  ok "curl: 413 $(cat "$T/over.body")"
else
  fail "curl over the bound: $CODE $(head -c 300 "$T/over.body")"
fi
START=$(date +%s%N)
timeout 120 "$ZK" submit --config "$CFG" --circuit mulchain --input "$OVER" >"$T/sub-over.out" 2>"$T/sub-over.err"
RC=$?
MS=$((($(date +%s%N) - START) / 1000000))
if [ "$RC" != 0 ] && grep -qF "over.wtns: the scheduler refused the upload (413): the body ($((MAX_BYTES + 1)) bytes) $WANT" "$T/sub-over.err"; then
  ok "zkfleet submit: $(cat "$T/sub-over.err") ($MS ms: nothing sent)"
else
  fail "zkfleet submit over the bound: exit $RC, $(cat "$T/sub-over.err")"
fi
[ "$MS" -lt 10000 ] || fail "the refusal took $MS ms (was the body sent?)"

# A client that stops mid-body: nothing left in the store.
python3 - "$HTTP" <<'PY' || fail "the cut-off client could not connect"
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"PUT /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nwtns" + b"\1" * (20 << 20))
time.sleep(0.5)
s.close()
PY
POLL=0.2 wait_until 20 "no temporary upload file left" test "$(stray)" = 0 &&
  ok "a client that stopped mid-body left nothing in the store"

# --- the real circuit's witness, to verified proofs, with progress on a terminal ---------------
command -v script >/dev/null || skip "script(1) is not installed"
# last_line FILE TEXT: the last progress line with TEXT that a terminal session drew.
last_line() { tr '\r' '\n' <"$1" | grep -a -- "$2" | tail -n 1 | sed 's/\x1b\[K//g'; }
# In a pipe: no progress line. The scheduler's memory does not grow with the witness.
BEFORE=$(hwm "$SCHED")
START=$(date +%s%N)
JOB=$(timeout 600 "$ZK" submit --config "$CFG" --circuit mulchain --input "$CIRC/witness.wtns" 2>"$T/submit.err")
MS=$((($(date +%s%N) - START) / 1000000))
GREW=$((($(hwm "$SCHED") - BEFORE) / 1024))
if [[ "$JOB" =~ ^[0-9a-f]{32}$ ]]; then ok "zkfleet submit --input of the $WTNS_BYTES-byte witness: job $JOB in $MS ms"; else
  die "zkfleet submit: $JOB $(cat "$T/submit.err")"; fi
grep -q "uploading" "$T/submit.err" && fail "a progress line in a pipe: $(cat "$T/submit.err")"
[ "$GREW" -lt 64 ] && ok "the scheduler's peak RSS grew by $GREW MiB for the witness (< 64 MiB)" ||
  fail "the scheduler's peak RSS grew by $GREW MiB for a $WTNS_BYTES-byte witness"
# await on a terminal: a progress line of proofs.
START=$(date +%s%N)
timeout 1200 script -qefc "'$ZK' await --config '$CFG' '$JOB' --out '$T/proofs' --timeout 1100" \
  "$T/await.tty" >/dev/null 2>&1
echo "  job $JOB: fetched by synth-1, checked, sent, proved and returned in $((($(date +%s%N) - START) / 1000000)) ms"
grep -aq "awaiting job ${JOB:0:8} \[.*\] [0-9]* / 1 proofs" "$T/await.tty" &&
  ok "await on a terminal: $(last_line "$T/await.tty" "awaiting job")" ||
  fail "no progress line from await on a terminal: $(tr -d '\033' <"$T/await.tty" | tail -c 400)"
verify_job "$CIRC/verification_key.json" "$T/proofs" "$JOB" 1
[ "$VERIFIED" = 1 ] && ok "the 200 MiB witness's proof verified by $CHECKER"
FETCHED=$(grep -h "fetched upload:sha256:.* ($WTNS_BYTES bytes)" "$TMPDIR"/zkfleet-up-*.logs/synth-1.log 2>/dev/null | head -n 1)
[ -n "$FETCHED" ] && ok "synth-1 fetched it over HTTP: ${FETCHED#*] }" || fail "no fetch of $WTNS_BYTES bytes in synth-1's log"
rm -rf "$T/proofs"

# The proofs in pages: a 3-partition job of the committed fixture, uploaded too.
JOB=$(timeout 120 "$ZK" submit --config "$CFG" --circuit small --input "$FIX/mulchain/witness.wtns" \
  --partitions 3 2>"$T/submit-small.err") || die "zkfleet submit of the fixture: $(cat "$T/submit-small.err")"
timeout 300 "$ZK" await --config "$CFG" "$JOB" --out "$T/proofs" --timeout 200 >"$T/await-small.log" 2>&1 ||
  fail "await of the 3-partition job: $(tail -n 3 "$T/await-small.log")"
verify_job "$FIX/mulchain/verification_key.json" "$T/proofs" "$JOB" 3
[ "$VERIFIED" = 3 ] && ok "the 3 proofs of the fixture job verified by $CHECKER"
curl -s -m 60 -D "$T/page.head" -o "$T/page.body" "$U/v1/jobs/$JOB/proofs?limit=2"
grep -qi "^link: </v1/jobs/$JOB/proofs?from=2&limit=2>; rel=\"next\"" "$T/page.head" &&
  python3 -c "import json; d=json.load(open('$T/page.body')); assert [p['partition'] for p in d] == [0, 1]" &&
  ok "GET /proofs?limit=2: partitions 0 and 1 and a Link to the next page" ||
  fail "GET /proofs?limit=2: $(cat "$T/page.head") $(head -c 200 "$T/page.body")"
curl -s -m 60 -D "$T/page2.head" -o "$T/page2.body" "$U/v1/jobs/$JOB/proofs?from=2&limit=2"
python3 -c "import json; d=json.load(open('$T/page2.body')); assert [p['partition'] for p in d] == [2]" &&
  ! grep -qi "^link:" "$T/page2.head" && ok "the last page: partition 2, no Link" ||
  fail "GET /proofs?from=2: $(head -c 200 "$T/page2.body")"

# The large upload through zkfleet submit on a terminal: its progress line (the job is then
# refused: the bytes are no witness of the circuit).
timeout 600 script -qefc "'$ZK' submit --config '$CFG' --circuit mulchain --input '$BIG'" \
  "$T/submit.tty" >/dev/null 2>&1
if grep -aq "uploading big.wtns \[.*\] .*MiB/s" "$T/submit.tty"; then
  ok "submit on a terminal: $(last_line "$T/submit.tty" "uploading big.wtns")"
else
  fail "no progress line from submit on a terminal: $(tr -d '\033' <"$T/submit.tty" | tail -c 400)"
fi
[ "$(stray)" = 0 ] || fail "temporary upload files left: $(ls -a "$STORE")"
finish
