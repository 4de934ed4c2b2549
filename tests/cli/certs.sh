#!/usr/bin/env bash
# zkfleet certs: create-ca, create-node, create-client and list through the command line, and
# their errors: no CA yet, invalid names, existing files (refused, then --overwrite), bad options.
# Keys must be mode 600 whatever the umask; certificates 644; the directory 700.
#
#   tests/cli/certs.sh <path-to-zkfleet>
#
# Ends with "N passed, M failed"; exits non-zero if M > 0.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init certs_cli "${1:-}"
D="$T/certs"
umask 022  # certificates are created 0644 under the usual umask; keys are 0600 under any

# mode <file>: its permission bits (stat -c %a).
mode() { stat -c %a "$1"; }

# check_mode <label> <file> <mode>
check_mode() {
  if [ -e "$2" ] && [ "$(mode "$2")" = "$3" ]; then ok "$1: $2 is $3"; else fail "$1: $2 is $(mode "$2" 2>&1), not $3"; fi
}

# --- the CA ------------------------------------------------------------------------------------
Y10a="$(date -u -d '+10 years' +%F)"
expect -E "create-ca" 0 "^wrote $D/ca.key \(cluster CA's private key, mode 0600\)" -- "$ZK" certs create-ca --certs-dir "$D"
Y10b="$(date -u -d '+10 years' +%F)"
grep -Eq "^wrote $D/ca.crt \(cluster CA, expires ($Y10a|$Y10b)\)$" <<<"$EXPECT_OUT" &&
  ok "create-ca: the certificate's line, 10 years" || fail "create-ca: $EXPECT_OUT"
check_mode "create-ca" "$D" 700
check_mode "create-ca" "$D/ca.key" 600
check_mode "create-ca" "$D/ca.crt" 644
grep -q "BEGIN PRIVATE KEY" "$D/ca.key" && ok "create-ca: ca.key is a PEM private key" || fail "create-ca: ca.key"
expect -E "create-ca again" 1 "ca.crt already exists in $D: remove it first or use --overwrite" -- "$ZK" certs create-ca --certs-dir "$D"

# --- nodes and clients -------------------------------------------------------------------------
Y2a="$(date -u -d '+2 years' +%F)"
expect -E "create-node" 0 "^wrote $D/node.n1.key \(node n1's private key, mode 0600\)" -- \
  "$ZK" certs create-node n1 --host 127.0.0.1 --host n1.example.org --certs-dir "$D"
Y2b="$(date -u -d '+2 years' +%F)"
grep -Eq "^wrote $D/node.n1.crt \(node n1, expires ($Y2a|$Y2b)\)$" <<<"$EXPECT_OUT" &&
  ok "create-node: the certificate's line, 2 years" || fail "create-node: $EXPECT_OUT"
D30a="$(date -u -d '+30 days' +%F)"
expect -E "create-client --days 30" 0 "^wrote $D/client.alice.crt \(client alice, expires " -- \
  "$ZK" certs create-client alice --certs-dir "$D" --days 30
D30b="$(date -u -d '+30 days' +%F)"
grep -Eq "expires ($D30a|$D30b)\)$" <<<"$EXPECT_OUT" && ok "create-client: 30 days" || fail "create-client: $EXPECT_OUT"
# A umask that would leave files world-writable: the key is 600 all the same.
rc=0
out="$(umask 000 && timeout 60 "$ZK" certs create-client bob --certs-dir "$D" 2>&1)" || rc=$?
[ "$rc" = 0 ] && ok "create-client with umask 000" || fail "create-client with umask 000: $out"
check_mode "umask 000" "$D/client.bob.key" 600

# --- list --------------------------------------------------------------------------------------
expect -E "list: header" 0 "^FILE +ROLE +NAME +EXPIRES +STATE$" -- "$ZK" certs list --certs-dir "$D"
grep -Eq "^ca\.crt +ca +zkfleet CA +($Y10a|$Y10b) +expires in 365[0-3] days$" <<<"$EXPECT_OUT" && ok "list: the CA" || fail "list: the CA: $EXPECT_OUT"
grep -Eq "^node\.n1\.crt +node +n1 +($Y2a|$Y2b) +expires in 7(29|30|31) days$" <<<"$EXPECT_OUT" && ok "list: node n1" || fail "list: node n1: $EXPECT_OUT"
grep -Eq "^client\.alice\.crt +client +alice +($D30a|$D30b) +expires in (29|30) days$" <<<"$EXPECT_OUT" && ok "list: client alice" || fail "list: client alice: $EXPECT_OUT"
[ "$(grep -c '\.crt' <<<"$EXPECT_OUT")" = 4 ] && ok "list: 4 certificates" || fail "list: $EXPECT_OUT"
[ "$(sed -n 2p <<<"$EXPECT_OUT" | cut -d' ' -f1)" = ca.crt ] && [ "$(tail -1 <<<"$EXPECT_OUT" | cut -d' ' -f1)" = node.n1.crt ] &&
  ok "list: sorted by file name" || fail "list: order: $EXPECT_OUT"

# --- existing files, --overwrite ---------------------------------------------------------------
expect -E "create-node again" 1 "node.n1.crt already exists in $D: remove it first or use --overwrite" -- "$ZK" certs create-node n1 --certs-dir "$D"
before="$(sha256sum "$D/node.n1.crt")"
chmod 644 "$D/node.n1.key"
expect -E "create-node --overwrite" 0 "^wrote $D/node.n1.crt" -- "$ZK" certs create-node n1 --certs-dir "$D" --overwrite
[ "$before" != "$(sha256sum "$D/node.n1.crt")" ] && ok "--overwrite: a new certificate" || fail "--overwrite: the same file"
check_mode "--overwrite" "$D/node.n1.key" 600

# --- errors ------------------------------------------------------------------------------------
expect -E "no CA" 1 "no CA in $T/empty: .*ca.crt does not exist" -- "$ZK" certs create-node n1 --certs-dir "$T/empty"
expect -E "bad name (space)" 2 "invalid node name 'bad name': a name is 1 to 64 characters" -- "$ZK" certs create-node "bad name" --certs-dir "$D"
expect -E "bad name (dot)" 2 "invalid client name '.hidden'" -- "$ZK" certs create-client .hidden --certs-dir "$D"
expect -E "bad name (slash)" 2 "invalid node name '../x'" -- "$ZK" certs create-node ../x --certs-dir "$D"
expect -E "bad name (65 chars)" 2 "invalid node name" -- "$ZK" certs create-node "$(printf 'a%.0s' $(seq 65))" --certs-dir "$D"
expect -E "no NAME" 2 "certs create-node needs a NAME" -- "$ZK" certs create-node --certs-dir "$D"
expect -E "two NAMEs" 2 "certs create-node takes one NAME \(unexpected argument 'n3'\)" -- "$ZK" certs create-node n2 n3 --certs-dir "$D"
expect -E "bad host" 1 "host 'a b' is neither an IP address nor a DNS name" -- "$ZK" certs create-node n2 --host "a b" --certs-dir "$D"
[ ! -e "$D/node.n2.key" ] && [ ! -e "$D/node.n2.crt" ] && ok "bad host: nothing written" || fail "bad host: files left"
expect -E "client --host" 2 "unknown option --host" -- "$ZK" certs create-client carol --host h --certs-dir "$D"
expect -E "no --certs-dir" 2 "\-\-certs-dir DIR is required" -- "$ZK" certs create-ca
expect -E "--days 0" 2 "\-\-days needs an integer from 1 to 36500, got '0'" -- "$ZK" certs create-client carol --days 0 --certs-dir "$D"
expect -E "--days abc" 2 "\-\-days needs an integer" -- "$ZK" certs create-client carol --days abc --certs-dir "$D"
expect -E "list --days" 2 "unknown option --days" -- "$ZK" certs list --days 3 --certs-dir "$D"
expect -E "no subcommand" 2 "certs needs a command: create-ca, create-node NAME, create-client NAME, list, revoke NAME, create-token NAME, list-tokens or revoke-token NAME" -- "$ZK" certs
expect -E "unknown subcommand" 2 "certs takes a command" -- "$ZK" certs frobnicate
expect -E "help" 0 "create-node" -- "$ZK" certs --help
echo junk >"$D/junk.crt"
expect -E "list: a file that does not parse" 1 "junk\.crt: not a PEM certificate" -- "$ZK" certs list --certs-dir "$D"
rm "$D/junk.crt"
expect -E "list: no directory" 1 "$T/none: no such directory" -- "$ZK" certs list --certs-dir "$T/none"
mkdir "$T/nothing"
expect -E "list: empty" 0 "no certificates in $T/nothing" -- "$ZK" certs list --certs-dir "$T/nothing"

# --- every key, in the end ---------------------------------------------------------------------
for k in "$D"/*.key; do check_mode "final" "$k" 600; done
for c in "$D"/*.crt; do check_mode "final" "$c" 644; done

finish
