#!/usr/bin/env bash
# What an operator reaches for (issue 27), on a cluster of real processes with mutual TLS on
# loopback, driven by the CLI and curl:
#   - zkfleet --version
#   - zkfleet config check: every problem of a file at once (exit 1), a good file (exit 0), the
#     files of other hosts left alone unless --host names one
#   - zkfleet up and certs_dir: a folder that does not exist is refused naming
#     security.certs_dir and the path, no CA made, unless the file says dev_certs: true; with
#     dev_certs, still refused once the cluster has a journal (it ran with another CA); no "//" in
#     what it prints for a certs_dir written with a trailing '/'
#   - tokens: certs list-tokens, a replaced token fails and its successor works on the very next
#     request, certs revoke-token (401 at once)
#   - client certificates: certs revoke NAME; the scheduler's HTTPS and control plane refuse it at
#     the next handshake (no restart), other clients still pass; certs list says REVOKED
#   - zkfleet up keeps the previous run's node logs (NAME.log.1)
#   - hints that send nobody the wrong way: a client host without --client (its certificates
#     listed), a certs_dir typo (no "create-ca"), another CA's ca.crt ("reached the server but its
#     certificate is not signed by your ca.crt", control plane and HTTP), a misspelled circuit
#     (the known ones listed, API and CLI), an upload of the wrong circuit (no server path),
#     curl -d (a form, or a body stripped of its newlines: use --data-binary)
#   - a client's /v1/timeline shows only its own jobs; admin's shows every job
#
#   tests/cli/operator_cli.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init operator "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"

# --- --version -----------------------------------------------------------------------------------
v=$("$ZK" --version 2>&1)
[[ "$v" =~ ^zkfleet\ [0-9]+\.[0-9]+\.[0-9]+ ]] && ok "--version: $v" || fail "--version: $v"

# --- config check ----------------------------------------------------------------------------------
cat >"$T/bad.yaml" <<YAML
version: 1
scheduler:
  endpoint: 10.0.0.10:7400
  max_upload: 4 GB
security: {certs_dir: $T/nowhere}
circuits:
  a: {zkey: /nonexistent/a.zkey, r1cs: /nonexistent/a.r1cs}
  b: {zkye: /nonexistent/b.zkey, r1cs: /nonexistent/b.r1cs}
nodes:
  - {name: scheduler, roles: [scheduler], listen: {control: 10.0.0.10:7400}}
  - {name: gpu-1, roles: [prover], listen: {data: 10.0.0.31:7600}, resources: {memory_budget: 1GiB, cores: lots}}
YAML
"$ZK" config check --config "$T/bad.yaml" >"$T/check1.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "3 problems" "$T/check1.out" && grep -q "scheduler.max_upload" "$T/check1.out" &&
  grep -q "circuits.b.zkye: unknown key" "$T/check1.out" && grep -q "nodes\[1\].resources.cores" "$T/check1.out" &&
  grep -q "files not checked for: scheduler " "$T/check1.out"; then
  ok "config check: three problems at once, other hosts' files not checked"
else
  fail "config check (exit $rc): $(cat "$T/check1.out")"
fi
"$ZK" config check --config "$ROOT/configs/farm.yaml" --host gpu-1 >"$T/check2.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "node gpu-1: circuits.porep-32g.zkey: /srv/zkfleet/keys/porep-32g.zkey does not exist" "$T/check2.out" &&
  grep -q "node gpu-1: circuits.window-post.zkey" "$T/check2.out" && ! grep -q "node synth-1" "$T/check2.out"; then
  ok "config check --host gpu-1: every missing file of gpu-1, none of another host's"
else
  fail "config check --host gpu-1 (exit $rc): $(cat "$T/check2.out")"
fi
"$ZK" config check --config "$ROOT/configs/farm.yaml" >"$T/check3.out" 2>&1 &&
  grep -q "no problems" "$T/check3.out" && ok "config check: farm.yaml's keys on a host of none of its nodes" ||
  fail "config check farm.yaml: $(cat "$T/check3.out")"
"$ZK" config >"$T/check4.out" 2>&1
[ $? = 2 ] && grep -q "config needs a command: check" "$T/check4.out" && ok "config without check: usage" || fail "config: $(cat "$T/check4.out")"

# --- the cluster ---------------------------------------------------------------------------------
cluster_new op tls
take_port HTTP
U="https://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP"
yaml_porep porep "curve=bn254,challenges=1,depth=8"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 64MiB}"
yaml_node prover-1 prover "resources: {cores: 1, memory_budget: 512MiB, prover_backend: cpu}"
GOOD_CFG="$CFG"

# A certs_dir typo without dev_certs: refused, nothing made.
sed -e "s#certs_dir: $CERTS#certs_dir: $T/cas/#" -e '/dev_certs: true/d' "$CFG" >"$T/typo.yaml"
"$ZK" up --config "$T/typo.yaml" >"$T/typo.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "security.certs_dir in $T/typo.yaml: $T/cas does not exist" "$T/typo.out" &&
  grep -q "security.dev_certs: true" "$T/typo.out" && [ ! -e "$T/cas" ]; then
  ok "up: a certs_dir that does not exist is refused, no CA made: $(head -c 200 "$T/typo.out")"
else
  fail "up with a certs_dir typo (exit $rc): $(cat "$T/typo.out"); $(ls "$T/cas" 2>&1)"
fi

# The real cluster (dev_certs: the CA made on this first run), its certs_dir with a trailing '/'.
sed -i "s#certs_dir: $CERTS\$#certs_dir: $CERTS/#" "$CFG"
cluster_up
wait_ready 90 || die "zkfleet up did not report ready"
grep -q "made a development CA in $CERTS (security.dev_certs" "$UP_LOG" && ok "up: a development CA on the first run, said so" || fail "up: $(cat "$UP_LOG")"
grep -q "//" "$UP_LOG" && fail "up printed a path with //: $(grep // "$UP_LOG")" || ok "up prints no // in its paths"

"$ZK" certs create-client alice --certs-dir "$CERTS" >/dev/null
"$ZK" certs create-client bob --certs-dir "$CERTS" >/dev/null
ALICE=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.alice.crt" --key "$CERTS/client.alice.key")
BOB=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.bob.crt" --key "$CERTS/client.bob.key")
# status NAME ARGS...: the HTTP status of GET /v1/nodes with curl ARGS ("000": no HTTP at all).
status() { curl -s -m 20 -o /dev/null -w '%{http_code}' "$@" "$U/v1/nodes"; }

# --- tokens --------------------------------------------------------------------------------------
T1=$("$ZK" certs create-token ci-bot --certs-dir "$CERTS" 2>/dev/null)
[ "$(status --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $T1")" = 200 ] && ok "a token works" || fail "token ci-bot refused"
"$ZK" certs list-tokens --certs-dir "$CERTS" >"$T/tokens.out" 2>&1
grep -Eq "^ci-bot +20[0-9-]+T" "$T/tokens.out" && ! grep -q "$T1" "$T/tokens.out" && ok "certs list-tokens: $(tail -1 "$T/tokens.out")" || fail "list-tokens: $(cat "$T/tokens.out")"
# Replaced: the old one fails and the new one works on the very next request.
T2=$("$ZK" certs create-token ci-bot --certs-dir "$CERTS" 2>/dev/null)
a=$(status --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $T2")
b=$(status --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $T1")
[ "$a" = 200 ] && [ "$b" = 401 ] && ok "a replaced token: the new one 200, the old one 401, at once" || fail "replaced token: new $a, old $b"
"$ZK" certs revoke-token ci-bot --certs-dir "$CERTS" >"$T/rt.out" 2>&1 || fail "revoke-token: $(cat "$T/rt.out")"
c=$(status --cacert "$CERTS/ca.crt" -H "Authorization: Bearer $T2")
[ "$c" = 401 ] && ok "a revoked token: 401 at once" || fail "revoked token: $c"
"$ZK" certs revoke-token ci-bot --certs-dir "$CERTS" >"$T/rt2.out" 2>&1
[ $? = 1 ] && grep -q "client ci-bot has no token in" "$T/rt2.out" && ok "revoke-token of a name without one: error" || fail "revoke-token twice: $(cat "$T/rt2.out")"

# --- revoking a client certificate -----------------------------------------------------------------
[ "$(status "${ALICE[@]}")" = 200 ] && ok "alice's certificate works" || fail "alice refused before revocation"
timeout 60 "$ZK" status --config "$CFG" --client alice >/dev/null 2>&1 && ok "alice on the control plane" || fail "alice's zkfleet status failed before revocation"
"$ZK" certs revoke alice --certs-dir "$CERTS" >"$T/revoke.out" 2>&1 || fail "certs revoke: $(cat "$T/revoke.out")"
grep -q "revoked $CERTS/client.alice.crt (client alice, sha256 " "$T/revoke.out" && ok "certs revoke: $(head -1 "$T/revoke.out")" || fail "certs revoke: $(cat "$T/revoke.out")"
a=$(status "${ALICE[@]}")
b=$(status "${BOB[@]}")
[ "$a" = 000 ] && [ "$b" = 200 ] && ok "HTTPS: alice refused at the handshake, bob still served (no restart)" || fail "after revoke: alice $a, bob $b"
if timeout 60 "$ZK" status --config "$CFG" --client alice >"$T/alice-status.out" 2>&1; then
  fail "alice still reaches the control plane: $(cat "$T/alice-status.out")"
elif grep -q "the certificate is revoked" "$T/alice-status.out"; then
  ok "control plane: alice refused ($(head -c 200 "$T/alice-status.out" | tr '\n' ' '))"
else
  fail "control plane: alice refused, but not said why: $(cat "$T/alice-status.out")"
fi
wait_log 10 "$LOGS/scheduler.log" "refused .*certificate revoked" && ok "the scheduler logged the revoked certificate" || fail "no 'certificate revoked' in the scheduler's log"
"$ZK" certs list --certs-dir "$CERTS" >"$T/list.out" 2>&1
grep -Eq "^client.alice.crt +client +alice +[0-9-]+ +REVOKED 20" "$T/list.out" && grep -Eq "^client.bob.crt .* expires in" "$T/list.out" &&
  ok "certs list: alice REVOKED, bob not" || fail "certs list: $(cat "$T/list.out")"
"$ZK" certs revoke carol --certs-dir "$CERTS" >"$T/revoke2.out" 2>&1
[ $? = 1 ] && grep -q "client.carol.crt does not exist" "$T/revoke2.out" && ok "certs revoke of an unknown client: error naming the file" || fail "revoke carol: $(cat "$T/revoke2.out")"

# --- hints -----------------------------------------------------------------------------------------
BOBC=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.bob.crt" --key "$CERTS/client.bob.key")
ADMINC=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.admin.crt" --key "$CERTS/client.admin.key")
post() {  # post NAME CURL-ARGS...: the status in $T/NAME.code, the body in $T/NAME.body
  local name="$1"
  shift
  curl -s -m 60 -o "$T/$name.body" -w '%{http_code}' "$@" >"$T/$name.code" 2>/dev/null
}
# A client host: ca.crt and bob's certificate only; no --client (the default, admin, is not here).
mkdir -p "$T/client-host" && cp "$CERTS/ca.crt" "$CERTS/client.bob.crt" "$CERTS/client.bob.key" "$T/client-host/"
sed -e "s#certs_dir: $CERTS/#certs_dir: $T/client-host#" "$CFG" >"$T/client-host.yaml"
timeout 60 "$ZK" status --config "$T/client-host.yaml" >"$T/nc.out" 2>&1
grep -q "client admin (the default of --client) has no certificate in $T/client-host; the client certificates in $T/client-host: bob; give --client NAME" "$T/nc.out" &&
  ! grep -q "create-client" "$T/nc.out" && ok "no --client on a client host: its certificates listed" || fail "no --client: $(cat "$T/nc.out")"
sed -e "s#certs_dir: $CERTS/#certs_dir: $T/client-hots#" "$CFG" >"$T/client-typo.yaml"
timeout 60 "$ZK" status --config "$T/client-typo.yaml" --client bob >"$T/ct.out" 2>&1
grep -q "security.certs_dir in $T/client-typo.yaml: $T/client-hots does not exist. Is the path right?" "$T/ct.out" &&
  ! grep -q "create-ca" "$T/ct.out" && ok "a client's certs_dir typo: named, no create-ca" || fail "client certs_dir typo: $(cat "$T/ct.out")"
# Another CA's ca.crt beside bob's own certificate.
mkdir -p "$T/other-ca" "$T/other-host"
"$ZK" certs create-ca --certs-dir "$T/other-ca" >/dev/null
cp "$T/other-ca/ca.crt" "$CERTS/client.bob.crt" "$CERTS/client.bob.key" "$T/other-host/"
sed -e "s#certs_dir: $CERTS/#certs_dir: $T/other-host#" "$CFG" >"$T/other.yaml"
timeout 60 "$ZK" status --config "$T/other.yaml" --client bob >"$T/oc.out" 2>&1
grep -q "reached the server at 127.0.0.1:$SCHED_PORT but its certificate is not signed by your ca.crt ($T/other-host/ca.crt" "$T/oc.out" &&
  ok "another CA's ca.crt, control plane: $(head -c 160 "$T/oc.out")" || fail "another CA, control plane: $(cat "$T/oc.out")"
timeout 60 "$ZK" submit --config "$T/other.yaml" --client bob --circuit mulchain --input "$FIX/mulchain/witness.wtns" >"$T/oh.out" 2>&1
grep -q "reached 127.0.0.1:$HTTP but its certificate is not signed by your ca.crt ($T/other-host/ca.crt" "$T/oh.out" &&
  ok "another CA's ca.crt, HTTP upload: said so" || fail "another CA, HTTP: $(cat "$T/oh.out")"
# A misspelled circuit: the known ones listed (API, and the CLI through the control plane).
post typo "${BOBC[@]}" -H 'Content-Type: application/json' -d '{"circuit": "porpe"}' "$U/v1/jobs"
[ "$(cat "$T/typo.code")" = 400 ] && grep -Eq "unknown circuit 'porpe' \(this scheduler's circuits: (mulchain, porep|porep, mulchain)\)" "$T/typo.body" &&
  ok "API: a misspelled circuit lists the known ones" || fail "API typo: $(cat "$T/typo.code") $(cat "$T/typo.body")"
timeout 60 "$ZK" submit --config "$CFG" --client bob --circuit porpe --seed 1 >"$T/ctypo.out" 2>&1
grep -Eq "unknown circuit 'porpe' \(this scheduler's circuits: (mulchain, porep|porep, mulchain)\)" "$T/ctypo.out" &&
  ok "CLI: a misspelled circuit lists the known ones" || fail "CLI typo: $(cat "$T/ctypo.out")"
# curl -d: a form; -d with an octet-stream type: a body stripped of its newlines.
post form "${BOBC[@]}" -d "@$FIX/mulchain/witness.wtns" "$U/v1/jobs?circuit=mulchain"
[ "$(cat "$T/form.code")" = 400 ] && grep -q "sent as a form .*--data-binary @FILE" "$T/form.body" &&
  ok "curl -d: 400 saying --data-binary" || fail "curl -d: $(cat "$T/form.code") $(cat "$T/form.body")"
post mangled "${BOBC[@]}" -H 'Content-Type: application/octet-stream' -d "@$FIX/mulchain/witness.wtns" "$U/v1/jobs?circuit=mulchain"
[ "$(cat "$T/mangled.code")" = 400 ] && grep -q "curl -d strips them from a file; send it with --data-binary" "$T/mangled.body" &&
  ok "a body stripped of its newlines: 400 saying --data-binary ($(head -c 120 "$T/mangled.body"))" || fail "mangled: $(cat "$T/mangled.code") $(cat "$T/mangled.body")"
# The wrong circuit's witness, uploaded: the error names the request's body, not where the scheduler
# keeps it (node/api/jobs.cpp replaces the stored upload's name with what the client sent).
post wrong "${BOBC[@]}" -H 'Content-Type: application/octet-stream' --data-binary "@$ROOT/tests/fixtures/bn254/poseidon/witness.wtns" "$U/v1/jobs?circuit=mulchain"
if [ "$(cat "$T/wrong.code")" = 400 ] && grep -q "the request's body (a .wtns): the witness has [0-9]* values, circuit 'mulchain'" "$T/wrong.body" &&
  ! grep -q "$T/op.state\|sha256:" "$T/wrong.body"; then
  ok "wrong circuit's upload: $(head -c 200 "$T/wrong.body")"
else
  fail "wrong circuit's upload: $(cat "$T/wrong.code") $(cat "$T/wrong.body")"
fi

# --- a client's timeline: its own jobs only ---------------------------------------------------
post bobjob "${BOBC[@]}" -H 'Content-Type: application/json' -d '{"circuit": "porep", "partitions": 1, "input": {"seed": 3}}' "$U/v1/jobs"
post adminjob "${ADMINC[@]}" -H 'Content-Type: application/json' -d '{"circuit": "porep", "partitions": 1, "input": {"seed": 4}}' "$U/v1/jobs"
BJ=$(python3 -c "import json; print(json.load(open('$T/bobjob.body'))['id'])" 2>/dev/null)
AJ=$(python3 -c "import json; print(json.load(open('$T/adminjob.body'))['id'])" 2>/dev/null)
done_job() {  # done_job ID CURL-ARGS...
  local id="$1"
  shift
  curl -s -m 20 "$@" "$U/v1/jobs/$id" | grep -q '"state":"done"'
}
wait_until 240 "bob's job done" done_job "$BJ" "${BOBC[@]}" && wait_until 240 "admin's job done" done_job "$AJ" "${ADMINC[@]}" ||
  fail "the two jobs did not finish"
BSEQ=$(curl -s -m 20 "${BOBC[@]}" "$U/v1/jobs/$BJ" | python3 -c "import json,sys; print(json.load(sys.stdin)['seq'])")
ASEQ=$(curl -s -m 20 "${ADMINC[@]}" "$U/v1/jobs/$AJ" | python3 -c "import json,sys; print(json.load(sys.stdin)['seq'])")
tl_jobs() {  # tl_jobs CURL-ARGS...: the job numbers of /v1/timeline's events, sorted
  curl -s -m 20 "$@" "$U/v1/timeline" | python3 -c "import json,sys; print(' '.join(str(j) for j in sorted({e['job'] for e in json.load(sys.stdin)['events'] if e['job']})))"
}
sleep 1  # the nodes ship their events every 100 ms
bt=$(tl_jobs "${BOBC[@]}")
at=$(tl_jobs "${ADMINC[@]}")
[ "$bt" = "$BSEQ" ] && ok "bob's /v1/timeline: his job $BSEQ only" || fail "bob's timeline shows jobs '$bt' (his: $BSEQ, admin's: $ASEQ)"
if [[ " $at " == *" $BSEQ "* && " $at " == *" $ASEQ "* ]]; then ok "admin's /v1/timeline: every job ($at)"; else fail "admin's timeline: '$at'"; fi

# --- up keeps the previous run's logs ------------------------------------------------------------
echo "--- marker of the first run ---" >>"$LOGS/synth-1.log"
cluster_down || fail "zkfleet down"
cluster_up
wait_ready 90 || die "zkfleet up (second run) did not report ready"
grep -q -- "--- marker of the first run ---" "$LOGS/synth-1.log.1" && ! grep -q -- "--- marker" "$LOGS/synth-1.log" &&
  ok "up: the first run's log is synth-1.log.1, the new run's synth-1.log" || fail "logs: $(ls "$LOGS")"
cluster_down || fail "zkfleet down (second run)"
# With dev_certs, a typo in the same file is still refused once the cluster has run (its journal
# exists): no new CA.
cp "$CFG" "$T/op.yaml.good"
sed -i -e "s#certs_dir: $CERTS/#certs_dir: $T/cas#" "$CFG"
"$ZK" up --config "$CFG" >"$T/typo2.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "$T/cas does not exist, but this cluster has run before (its journal" "$T/typo2.out" && [ ! -e "$T/cas" ]; then
  ok "up with dev_certs: a new CA refused once the journal exists"
else
  fail "up with dev_certs and a typo (exit $rc): $(cat "$T/typo2.out")"
fi
cp "$T/op.yaml.good" "$CFG"
finish
