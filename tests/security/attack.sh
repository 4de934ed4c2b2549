#!/usr/bin/env bash
# The cluster from an attacker's side, real processes on loopback: `zkfleet up` runs a scheduler,
# a synthesis node and a prover with mutual TLS (development certificates it makes itself), and
# then, from outside:
#   - the control port sends no plaintext greeting; a TLS client without a certificate gets an
#     alert; one certified by another CA is refused;
#   - a client certificate used to join as a node, and a node certificate used to submit, are
#     refused with a logged reason;
#   - the data port refuses a client without a certificate, and a certified node's frame that
#     carries no transfer ticket (NACK, logged);
#   - --partitions 4294967295 and a path outside scheduler.input_roots are refused at submit;
#   - the cluster still proves afterwards, and the proofs verify.
# Forged proofs and late replies are tested in tests/actors/security_test.cpp (a forging prover
# actor). Every wait is bounded.
#
#   tests/security/attack.sh path/to/zkfleet
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init attack "${1:-}"

cluster_new cluster tls
yaml_head "lookahead: 1" "input_roots: [$FIX]"
yaml_circuit mulchain mulchain "shape: abc_witness"
yaml_node scheduler scheduler
yaml_node synth-1 synth "resources: {cores: 1, memory_budget: 64MiB}"
yaml_node prover-1 prover "resources: {memory_budget: 256MiB, prover_backend: cpu}, data_plane: {idle_timeout: 3s, frame_timeout: 2s}"

cluster_up
wait_ready 60 || die "zkfleet up did not report ready"
ok "zkfleet up with mutual TLS: $(grep -c 'made the' "$UP_LOG") development certificates made"

# Another CA, with a node and a client of its own (the attacker's).
"$ZK" certs create-ca --certs-dir "$T/evil" >/dev/null
"$ZK" certs create-node scheduler --certs-dir "$T/evil" >/dev/null
"$ZK" certs create-client admin --certs-dir "$T/evil" >/dev/null

# --- the control port from outside --------------------------------------------------------------
python3 - "$SCHED_PORT" "$CERTS" "$T/evil" >"$T/tls.log" 2>&1 <<'PY'
import socket, ssl, sys
port, good, evil = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def conn(cert=None, ca=good):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.load_verify_locations(f"{ca}/ca.crt")
    if cert: ctx.load_cert_chain(f"{cert}.crt", f"{cert}.key")
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    t = ctx.wrap_socket(s)
    t.send(b"\0" * 16)
    return t.recv(16)
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.settimeout(1.5)
try:
    print("greeting", s.recv(8)); sys.exit(1)
except socket.timeout:
    print("no plaintext greeting")
for what, cert, ca in (("no certificate", None, good), ("another CA's client", f"{evil}/client.admin", good)):
    try:
        conn(cert, ca); print(what, "accepted"); sys.exit(1)
    except (ssl.SSLError, ConnectionError, socket.timeout) as e:
        print(what, "refused:", e)
try:  # a server of another CA is refused by a client of ours
    conn(f"{good}/client.admin", evil); print("our client trusted another CA"); sys.exit(1)
except ssl.SSLError as e:
    print("ours refuses the other CA:", e)
PY
if [ $? = 0 ]; then ok "control port: $(tr '\n' ';' <"$T/tls.log")"; else fail "control port: $(cat "$T/tls.log")"; fi
wait_log 10 "$LOGS/scheduler.log" "control plane: refused .*peer did not return a certificate" &&
  wait_log 10 "$LOGS/scheduler.log" "control plane: refused .*certificate refused" &&
  ok "the scheduler logged both refusals" || fail "scheduler log: $(grep refused "$LOGS/scheduler.log")"

# --- identities: a client certificate used to join, a node certificate used to submit -----------
mkdir -p "$T/stolen"
cp "$T/certs/ca.crt" "$T/stolen/"
cp "$T/certs/client.admin.crt" "$T/stolen/node.intruder.crt"
cp "$T/certs/client.admin.key" "$T/stolen/node.intruder.key"
cp "$T/certs/node.synth-1.crt" "$T/stolen/client.mallory.crt"
cp "$T/certs/node.synth-1.key" "$T/stolen/client.mallory.key"
take_port INTRUDER
sed -e "s#certs_dir: $T/certs#certs_dir: $T/stolen#" "$CFG" >"$T/intruder.yaml"
echo "  - {name: intruder, roles: [synth], listen: {data: 127.0.0.1:$INTRUDER}, resources: {cores: 1, memory_budget: 64MiB}}" >>"$T/intruder.yaml"
if timeout 60 "$ZK" node --config "$T/intruder.yaml" --node intruder >"$T/intruder.log" 2>&1; then
  fail "a client certificate joined as a node"
else
  grep -q "refused the login of node intruder: .*the certificate is for client admin" "$T/intruder.log" &&
    ok "a client certificate cannot join: $(grep -o 'refused the login.*' "$T/intruder.log" | head -1)" ||
    fail "intruder: $(cat "$T/intruder.log")"
fi
if timeout 60 "$ZK" submit --config "$T/intruder.yaml" --client mallory --circuit mulchain --input "$FIX/mulchain/witness.wtns" >"$T/mallory.log" 2>&1; then
  fail "a node certificate submitted a job"
else
  grep -q "refused the login of client mallory: .*the certificate is for node synth-1" "$T/mallory.log" &&
    ok "a node certificate cannot submit: $(grep -o 'refused the login.*' "$T/mallory.log")" || fail "mallory: $(cat "$T/mallory.log")"
fi
grep -q "refused a login .*certificate is for client admin" "$LOGS/scheduler.log" &&
  grep -q "refused a login .*certificate is for node synth-1" "$LOGS/scheduler.log" &&
  ok "the scheduler logged both" || fail "scheduler log: $(grep 'refused a login' "$LOGS/scheduler.log")"

# --- the data port ------------------------------------------------------------------------------
python3 - "${NODE_PORT[prover-1]}" "$CERTS" >"$T/data.log" 2>&1 <<'PY'
import socket, ssl, struct, sys, time
port, certs = int(sys.argv[1]), sys.argv[2]
def ctx(cert):
    c = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    c.check_hostname = False
    c.load_verify_locations(f"{certs}/ca.crt")
    if cert: c.load_cert_chain(f"{certs}/{cert}.crt", f"{certs}/{cert}.key")
    return c
s = socket.create_connection(("127.0.0.1", port), timeout=5)
try:
    t = ctx(None).wrap_socket(s); t.send(b"ZKSB" + b"\0" * 124); t.recv(64)
    print("no certificate: accepted"); sys.exit(1)
except (ssl.SSLError, ConnectionError) as e:
    print("no certificate refused:", e)
# A node of the cluster, but no transfer ticket: a synth header the scheduler never dispatched.
t = ctx("node.synth-1").wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5))
t.send(b"ZKSB" + struct.pack("<HH", 1, 128) + b"\0" * 120)
r = t.recv(64)
magic, version, status = struct.unpack("<IHH", r[:8])
assert magic == 0x50524b5a and status != 0 and status != 1, (magic, status)
print("frame without a ticket: NACK status", status)
# A slow peer: half a header, then silence; dropped by the deadline.
t = ctx("node.synth-1").wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10))
t.send(b"ZK")
t0 = time.time()
try:
    d = t.recv(64)
except (ssl.SSLError, ConnectionError) as e:
    d = b""
assert not d, d  # closed, not answered
print(f"a trickling peer dropped by the receiver after {time.time() - t0:.1f} s")
PY
if [ $? = 0 ]; then ok "data port: $(tr '\n' ';' <"$T/data.log")"; else fail "data port: $(cat "$T/data.log")"; fi
grep -q "data plane" "$LOGS/prover-1.log" && ok "the prover logged: $(grep 'data plane' "$LOGS/prover-1.log" | head -2 | cut -c 40- | tr '\n' ';')" ||
  fail "prover log: $(tail -5 "$LOGS/prover-1.log")"

# --- requests -----------------------------------------------------------------------------------
submit() { timeout 60 "$ZK" submit --config "$CFG" --circuit mulchain "$@"; }
if submit --input "$FIX/mulchain/witness.wtns" --partitions 4294967295 >"$T/huge.log" 2>&1; then fail "4294967295 partitions accepted"; else
  grep -q "4294967295 partitions: a job may have at most 1024 (scheduler.max_partitions)" "$T/huge.log" && ok "--partitions 4294967295 refused" || fail "$(cat "$T/huge.log")"
fi
if submit --input /etc/hostname >"$T/root.log" 2>&1; then fail "a path outside input_roots accepted"; else
  grep -q "input /etc/hostname: not under any of scheduler.input_roots" "$T/root.log" && ok "a path outside input_roots refused" || fail "$(cat "$T/root.log")"
fi

# --- the cluster still proves ------------------------------------------------------------------
J=$(submit --input "$FIX/mulchain/witness.wtns" --partitions 2)
if timeout 120 "$ZK" await --config "$CFG" "$J" --out "$T/proofs" --timeout 100 >"$T/await.log" 2>&1; then
  n=0
  for k in 0 1; do
    "$ZK" verify "$FIX/mulchain/verification_key.json" "$T/proofs/job$J-p$k-public.json" "$T/proofs/job$J-p$k-proof.json" >/dev/null && n=$((n + 1))
  done
  [ $n = 2 ] && ok "afterwards the cluster proves: 2 proofs of job $J verify" || fail "$n of 2 proofs verify"
else
  fail "await after the attacks: $(cat "$T/await.log")"
fi
finish
