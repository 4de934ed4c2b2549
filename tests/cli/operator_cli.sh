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
#
#   tests/cli/operator_cli.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init operator_cli "${1:-}"
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
