#!/usr/bin/env bash
# The HTTP API (docs/api.md) of a cluster of real processes (zkfleet up: scheduler, a synthesis
# node, a prover) with mutual TLS, driven by curl from outside as a client on another host would:
# no input_roots at all, so every input reaches the cluster as an upload (the client shares no
# filesystem with it).
#   - HTTPS with the scheduler's certificate; /healthz and /readyz open; everything else 401
#     without a client certificate or a bearer token (zkfleet certs create-token), 403 for a node
#     certificate; a token sees only its own jobs
#   - a circom job (the .wtns as the body) and a native job (JSON); status, the job list, the
#     proofs (snarkjs accepts each one), cancel (409 once finished); `zkfleet submit --input`
#     uploads the same way
#   - /v1/nodes, /v1/stats, /v1/timeline?since=, /v1/events (server-sent events), /metrics
#   - uploads: PUT, over scheduler.max_upload (413), fetching one without the dispatch's ticket
#     (403)
#   - every error answered in JSON naming what was wrong: 400 (bad query, bad JSON, not a .wtns,
#     zero partitions, bad priority, native input), 404 (route, job), 405 (with Allow)
#
#   tests/cli/http_api.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed"; exits non-zero if M > 0. Every wait is bounded.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init http_api "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"

cluster_new api tls
take_port HTTP
U="https://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "max_upload: 64KiB"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_porep porep "curve=bn254,challenges=1,depth=8"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 64MiB}"
yaml_node prover-1 prover "resources: {cores: 1, memory_budget: 512MiB, prover_backend: cpu}"

cluster_up
wait_ready 60 || die "zkfleet up did not report ready"
"$ZK" certs create-client alice --certs-dir "$CERTS" >/dev/null

ADMIN=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.admin.crt" --key "$CERTS/client.admin.key")
ALICE=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.alice.crt" --key "$CERTS/client.alice.key")
NODE=(--cacert "$CERTS/ca.crt" --cert "$CERTS/node.synth-1.crt" --key "$CERTS/node.synth-1.key")
# call NAME ARGS...: curl, the status in $T/NAME.code and the body in $T/NAME.body.
call() {
  local name="$1"
  shift
  curl -s -m 60 -o "$T/$name.body" -w '%{http_code}' "$@" >"$T/$name.code" 2>"$T/$name.err"
}
code() { cat "$T/$1.code"; }
body() { cat "$T/$1.body"; }
# answered NAME STATUS TEXT: the status, and TEXT in the body.
answered() {
  if [ "$(code "$1")" = "$2" ] && grep -qF -- "$3" "$T/$1.body"; then
    ok "$1: $2 $(head -c 160 "$T/$1.body" | tr '\n' ' ')"
  else
    fail "$1: wanted $2 with '$3', got $(code "$1"): $(head -c 300 "$T/$1.body") $(cat "$T/$1.err")"
  fi
}
json() { python3 -c "import json,sys; d=json.load(open('$T/$1.body')); print($2)"; }

# --- probes, authentication ------------------------------------------------------------------
call healthz --cacert "$CERTS/ca.crt" "$U/healthz" && answered healthz 200 ok
call readyz --cacert "$CERTS/ca.crt" "$U/readyz" && answered readyz 200 ready
call plain-http "http://127.0.0.1:$HTTP/healthz"
[ "$(code plain-http)" != 200 ] && ok "plain HTTP is not served on the HTTPS port" || fail "plain HTTP answered 200"
call noauth --cacert "$CERTS/ca.crt" "$U/v1/nodes" && answered noauth 401 '"error":"unauthenticated'
TOKEN=$("$ZK" certs create-token carol --certs-dir "$CERTS" 2>/dev/null)
call token --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $TOKEN" "$U/v1/nodes" && answered token 200 '"name":"synth-1"'
call badtoken --cacert "$CERTS/ca.crt" -H "Authorization: Bearer zkf_${TOKEN:4:10}" "$U/v1/nodes" && answered badtoken 401 unauthenticated
call nodecert "${NODE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"porep"}' "$U/v1/jobs" && answered nodecert 403 "a node certificate may not use /v1/jobs"

# --- jobs ----------------------------------------------------------------------------------------
call circom "${ALICE[@]}" -H 'Content-Type: application/octet-stream' --data-binary "@$FIX/mulchain/witness.wtns" \
  "$U/v1/jobs?circuit=mulchain&partitions=2&priority=high" && answered circom 201 '"id":'
C=$(json circom 'd["id"]')
call native "${ALICE[@]}" -H 'Content-Type: application/json' \
  -d '{"circuit": "porep", "partitions": 2, "input": {"seed": 7}}' "$U/v1/jobs" && answered native 201 '"id":'
N=$(json native 'd["id"]')
settled() {  # settled ID: the job's state is done or failed
  call "st-$1" "${ALICE[@]}" "$U/v1/jobs/$1"
  grep -Eq '"state":"(done|failed)"' "$T/st-$1.body"
}
done_state() { wait_until 60 "job $1 done or failed" settled "$1" && grep -q '"state":"done"' "$T/st-$1.body"; }
done_state "$C" && ok "circom job $C done: $(head -c 200 "$T/st-$C.body")" || fail "circom job: $(body "st-$C")"
done_state "$N" && ok "native job $N done" || fail "native job: $(body "st-$N")"
[ "$(json "st-$C" 'd["priority"] + " " + str(len(d["partitions"])) + " " + d["partitions"][0]["node"]')" = "high 2 prover-1" ] &&
  ok "status: priority, partitions, the prover that proved each" || fail "status fields: $(body "st-$C")"
call list "${ALICE[@]}" "$U/v1/jobs?limit=10"
[ "$(json list 'len(d["jobs"])')" = 2 ] && ok "alice's job list: her 2 jobs" || fail "job list: $(body list)"
call carol-list --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $TOKEN" "$U/v1/jobs"
[ "$(json carol-list 'len(d["jobs"])')" = 0 ] && ok "carol (token) sees none of alice's jobs" || fail "carol's list: $(body carol-list)"
call carol-job --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $TOKEN" "$U/v1/jobs/$C" && answered carol-job 404 "unknown job"
call admin-job "${ADMIN[@]}" "$U/v1/jobs/$C" && answered admin-job 200 '"owner":"alice"'

# The proofs, through snarkjs (zkfleet verify where snarkjs is not installed, said so).
good=0
for J in "$C" "$N"; do
  call "proofs-$J" "${ALICE[@]}" "$U/v1/jobs/$J/proofs"
  vk="$FIX/mulchain/verification_key.json"
  [ "$J" = "$N" ] && vk="$T/keys/porep/verification_key.json"
  for k in 0 1; do
    python3 -c "import json; d=json.load(open('$T/proofs-$J.body'))[$k]; json.dump(d['proof'], open('$T/p.json','w')); json.dump(d['public'], open('$T/pub.json','w'))" || continue
    verify_proof "$vk" "$T/pub.json" "$T/p.json" && good=$((good + 1))
  done
done
[ "$good" = 4 ] && ok "4 of 4 proofs from /v1/jobs/ID/proofs accepted by $CHECKER" || fail "$good of 4 proofs accepted by $CHECKER"
call cancel-done "${ALICE[@]}" -X DELETE "$U/v1/jobs/$C" && answered cancel-done 409 "already finished"

# zkfleet submit --input FILE uploads through the same endpoint (no input_roots in this config).
J=$(timeout 60 "$ZK" submit --config "$CFG" --client alice --circuit mulchain --input "$FIX/mulchain/witness.wtns" --partitions 1 2>"$T/submit.err")
if [ -n "$J" ] && timeout 120 "$ZK" await --config "$CFG" --client alice "$J" --out "$T/out" >"$T/await.log" 2>&1; then
  ok "zkfleet submit --input uploaded the .wtns; job $J proven"
else
  fail "zkfleet submit --input: $(cat "$T/submit.err" "$T/await.log" 2>/dev/null)"
fi
J2=$(timeout 60 "$ZK" submit --config "$CFG" --circuit mulchain --input-path "$FIX/mulchain/witness.wtns" 2>"$T/submit2.err")
[ -z "$J2" ] && grep -q "input_roots" "$T/submit2.err" && ok "--input-path outside scheduler.input_roots refused: $(cat "$T/submit2.err")" ||
  fail "--input-path: $J2 $(cat "$T/submit2.err")"

# --- the cluster's state ---------------------------------------------------------------------------
call nodes "${ADMIN[@]}" "$U/v1/nodes" && answered nodes 200 '"backend":"cpu"'
call stats "${ADMIN[@]}" "$U/v1/stats" && answered stats 200 '"verdict":'
call timeline "${ADMIN[@]}" "$U/v1/timeline" && answered timeline 200 '"stage":"SYNTH"'
NOW=$(json timeline 'd["now_ns"]')
call timeline-since "${ADMIN[@]}" "$U/v1/timeline?since=$NOW" && answered timeline-since 200 '"now_ns":'
[ "$(json timeline-since "all(e['t_ns'] > $NOW for e in d['events'])")" = True ] &&
  ok "timeline?since=now_ns: only the events after it" || fail "since: $(head -c 300 "$T/timeline-since.body")"
curl -s -N -m 3 "${ADMIN[@]}" "$U/v1/events" >"$T/events.txt" 2>/dev/null
for e in nodes stats jobs timeline; do
  grep -q "^event: $e$" "$T/events.txt" && ok "/v1/events streams '$e'" || fail "/v1/events has no '$e': $(head -c 300 "$T/events.txt")"
done
call metrics "${ADMIN[@]}" "$U/metrics" && answered metrics 200 'zkfleet_proofs_total 5'

# --- uploads -------------------------------------------------------------------------------------
call up "${ALICE[@]}" -X PUT -H 'Content-Type: application/octet-stream' --data-binary "@$FIX/mulchain/witness.wtns" "$U/v1/uploads" && answered up 201 '"input":"upload:sha256:'
REF=$(json up 'd["upload"]')
head -c 70000 /dev/zero | sed 's/^/wtns/' >"$T/big.bin"
call too-big "${ALICE[@]}" -X PUT --data-binary "@$T/big.bin" "$U/v1/uploads" && answered too-big 413 "is over scheduler.max_upload (65536 bytes, 64 KiB): raise scheduler.max_upload"
call fetch-client "${ALICE[@]}" "$U/v1/uploads/$REF" && answered fetch-client 403 "synthesis nodes"
call fetch-noticket "${NODE[@]}" "$U/v1/uploads/$REF" && answered fetch-noticket 403 "no valid ticket"
call fetch-forged "${NODE[@]}" -H "X-Zkfleet-Ticket: 1.0.1.$(printf 'a%.0s' $(seq 1 64))" "$U/v1/uploads/$REF" && answered fetch-forged 403 "not for this upload"

# --- errors --------------------------------------------------------------------------------------
call no-circuit "${ALICE[@]}" -H 'Content-Type: application/octet-stream' --data-binary "@$FIX/mulchain/witness.wtns" "$U/v1/jobs" && answered no-circuit 400 "circuit=ID"
call unknown-circuit "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"nope"}' "$U/v1/jobs" && answered unknown-circuit 400 "unknown circuit 'nope'"
call bad-json "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":' "$U/v1/jobs" && answered bad-json 400 "not JSON"
call not-wtns "${ALICE[@]}" -H 'Content-Type: application/octet-stream' --data-binary 'hello' "$U/v1/jobs?circuit=mulchain" && answered not-wtns 400 "not a .wtns"
call zero-parts "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"porep","partitions":0}' "$U/v1/jobs" && answered zero-parts 400 "partitions must be"
call bad-prio "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"porep","priority":"urgent"}' "$U/v1/jobs" && answered bad-prio 400 "priority is one of"
call native-input "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"porep","input":{"x":1}}' "$U/v1/jobs" && answered native-input 400 '{\"seed\": N}'
call circom-json "${ALICE[@]}" -H 'Content-Type: application/json' -d '{"circuit":"mulchain","input":{"a":1}}' "$U/v1/jobs" && answered circom-json 400 "takes a .wtns"
call wrong-wtns "${ALICE[@]}" -H 'Content-Type: application/octet-stream' --data-binary "@$ROOT/tests/fixtures/bls12_381/mulchain/witness.wtns" "$U/v1/jobs?circuit=mulchain" && answered wrong-wtns 400 "wtns"
call no-route "${ALICE[@]}" "$U/v1/nothing" && answered no-route 404 "no route /v1/nothing"
call no-job "${ALICE[@]}" "$U/v1/jobs/0123456789abcdef0123456789abcdef" && answered no-job 404 "unknown job"
call bad-method "${ALICE[@]}" -X PATCH "$U/v1/jobs/$C"
[ "$(code bad-method)" = 405 ] && curl -s -i -m 20 "${ALICE[@]}" -X PATCH "$U/v1/jobs/$C" | grep -qi '^allow: GET, DELETE' &&
  ok "bad-method: 405 with Allow: GET, DELETE" || fail "bad-method: $(code bad-method) $(body bad-method)"

timeout 60 "$ZK" down --config "$CFG" >/dev/null 2>&1 && wait "$UP" 2>/dev/null
finish
