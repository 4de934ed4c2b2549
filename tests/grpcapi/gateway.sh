#!/usr/bin/env bash
# Curio's cuzk API for a Curio on another host (issue 37 item 2): `zkfleet gateway` takes Curio's
# plaintext gRPC on a loopback address of Curio's host and carries each call to the scheduler's
# scheduler.grpc_tls over mutual TLS with a client's certificate:
#
#   a TLS cluster (scheduler with grpc_tls and no plaintext gRPC, a synthesis node, a prover with
#   the reference's 2 KiB parameters); the gateway as client alice; Prove through it, as Curio
#   calls it → COMPLETED, the proof accepted by Filecoin's verify_seal; the job is alice's
#   (GET /v1/jobs/request:ID as admin: owner alice, request_id) and another client does not see
#   it (nor does client curio, on the plaintext unix socket, which answers GetStatus); GetStatus
#   through it; the TLS port refuses plaintext gRPC; the gateway refuses a
#   non-loopback --listen; a config whose plaintext scheduler.grpc is not loopback is refused
#   unless grpc_insecure_networks names the networks, and then `zkfleet config check` warns.
#
#   tests/grpcapi/gateway.sh build/zkfleet
#
# Skipped (77) without cargo (no reference), curl, or Python's grpcio-tools (.tools/grpc).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../filecoin/ref_lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/client_lib.sh"
harness_init grpcapi_gateway "${1:-}"
command -v curl >/dev/null || skip "curl is not installed"
need_grpc_client
need_ref

# --- a sector for miner 1000, a TLS cluster ------------------------------------------------------
MINER=1000
REF_C2_PROVER="e807$(printf '0%.0s' $(seq 1 60))"  # 1000 as unsigned LEB128, padded to 32 bytes
. "$(dirname "${BASH_SOURCE[0]}")/../filecoin/ref_c2.sh"
VARGS=(--registered-proof $PROOF --prover-id "$PROVER" --ticket "$(c1_hex "$C1" ticket)"
  --seed "$(c1_hex "$C1" seed)" --comm-r "$(c1_hex "$C1" comm_r)" --comm-d "$(c1_hex "$C1" comm_d)")
cluster_new gw tls
take_port HTTP
take_port GTLS
take_port GW
U="https://127.0.0.1:$HTTP"
yaml_head "http: 127.0.0.1:$HTTP" "grpc: unix://$T/cuzk.sock" "grpc_tls: 127.0.0.1:$GTLS" "stage_timeout: 10m"
yaml_line "circuits:" "  fc2k: {native: filecoin-porep, registered_proof: $PROOF, vk: $VK}"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 1GiB}"
yaml_node prover-1 prover "resources: {cores: 2, memory_budget: 4GiB, prover_backend: cpu}, filecoin_params: {fc2k: $PARAMS}"
cluster_up
wait_ready 900 || die "the cluster did not become ready"
"$ZK" certs create-client alice --certs-dir "$CERTS" >/dev/null
"$ZK" certs create-client bob --certs-dir "$CERTS" >/dev/null
ADMIN=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.admin.crt" --key "$CERTS/client.admin.key")

# --- the config's rules for plaintext gRPC (offline, with the cluster's certificates) -----------------------------------------
cat >"$T/open.yaml" <<YAML
version: 1
scheduler: {endpoint: 127.0.0.1:7400, grpc: 0.0.0.0:9820}
security: {certs_dir: $CERTS}
nodes: [{name: scheduler, roles: [scheduler], listen: {control: 127.0.0.1:7400}}]
YAML
expect "plaintext gRPC on 0.0.0.0 without grpc_insecure_networks: refused" 1 "scheduler.grpc_insecure_networks" -- \
  "$ZK" config check --config "$T/open.yaml"
sed -i 's|grpc: 0.0.0.0:9820}|grpc: 0.0.0.0:9820, grpc_insecure_networks: [10.1.0.0/16]}|' "$T/open.yaml"
expect -E "with grpc_insecure_networks: taken, and config check warns" 0 "warning.*scheduler.grpc.*10.1.0.0/16" -- \
  "$ZK" config check --config "$T/open.yaml"

BOB=(--cacert "$CERTS/ca.crt" --cert "$CERTS/client.bob.crt" --key "$CERTS/client.bob.key")

expect "the gateway refuses a --listen that is not loopback" 2 "loopback" -- \
  "$ZK" gateway --config "$CFG" --listen 0.0.0.0:$GW --client alice
start_bg gateway "$ZK" gateway --config "$CFG" --listen 127.0.0.1:$GW --client alice
wait_port 60 $GW || die "the gateway did not listen: $(cat "$T/gateway.log")"
ok "zkfleet gateway on 127.0.0.1:$GW as client alice: $(grep -m1 -o 'carried to .*' "$T/gateway.log")"

# --- Prove through the gateway, as Curio calls it -----------------------------------------------
RID="porep-$MINER-$SECTOR"
client 127.0.0.1:$GW prove --c1 "$C1" --miner $MINER --sector $SECTOR --out "$T/p.bin" >"$T/prove.json"
if [ "$(field "$T/prove.json" status)" = COMPLETED ] && [ "$(stat -c %s "$T/p.bin" 2>/dev/null)" = 192 ]; then
  ok "Prove through the gateway: COMPLETED, 192 bytes, in $(field "$T/prove.json" call_ms) ms"
else
  die "Prove through the gateway: $(head -c 400 "$T/prove.json") $(tail -n 5 "$T/gateway.log")"
fi
rrc=0
"$REF" verify --vk "$VK" --proof "$T/p.bin" "${VARGS[@]}" --sector $SECTOR >"$T/ref.json" 2>&1 || rrc=$?
[ $rrc = 0 ] && ok "Filecoin's verify_seal accepts the proof (prover id of miner $MINER)" ||
  fail "verify_seal exit $rrc: $(grep -m1 error "$T/ref.json")"
curl -s -m 30 "${ADMIN[@]}" "$U/v1/jobs/request:$RID" >"$T/job.json"
if [ "$(field "$T/job.json" owner)" = alice ] && [ "$(field "$T/job.json" request_id)" = "$RID" ]; then
  ok "the job is alice's, named by its request_id: $(head -c 200 "$T/job.json")"
else
  fail "the job through the gateway: $(head -c 400 "$T/job.json")"
fi
code="$(curl -s -m 30 -o "$T/bob.json" -w '%{http_code}' "${BOB[@]}" "$U/v1/jobs/request:$RID")"
[ "$code" = 404 ] && ok "another client (bob) does not see it: 404" || fail "bob asked for alice's job: $code $(cat "$T/bob.json")"
client 127.0.0.1:$GW status >"$T/status.json"
[ "$(field "$T/status.json" code)" = OK ] && ok "GetStatus through the gateway: $(head -c 300 "$T/status.json")" ||
  fail "GetStatus through the gateway: $(cat "$T/status.json")"

# --- the plaintext listener on a unix socket: Curio's "unix:///..." Address, as client curio ----
client "unix://$T/cuzk.sock" await "$RID" --timeout-ms 1000 >"$T/unix.json"
if [ "$(field "$T/unix.json" code)" = NOT_FOUND ]; then
  ok "over the unix socket (client curio) alice's $RID is not found: $(field "$T/unix.json" details)"
else
  fail "over the unix socket: $(head -c 300 "$T/unix.json")"
fi
client "unix://$T/cuzk.sock" status >"$T/unix-status.json"
[ "$(field "$T/unix-status.json" code)" = OK ] && ok "GetStatus over the unix socket" ||
  fail "GetStatus over the unix socket: $(cat "$T/unix-status.json")"

# --- the TLS port takes no plaintext gRPC -------------------------------------------------------
client 127.0.0.1:$GTLS status --deadline 10 >"$T/plain.json"
[ "$(field "$T/plain.json" code)" != OK ] && ok "plaintext gRPC to scheduler.grpc_tls: $(field "$T/plain.json" code)" ||
  fail "the TLS port answered plaintext gRPC: $(cat "$T/plain.json")"
finish
