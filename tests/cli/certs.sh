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

# run <args...>: runs zkfleet, its output in $out and its exit status in $rc (never stops the script).
run() {
  rc=0
  out="$(timeout 60 "$ZK" "$@" 2>&1)" || rc=$?
}

# expect <label> <exit status> <regex the output must match> -- <zkfleet args...>
expect() {
  local label="$1" want="$2" re="$3"
  shift 4
  run "$@"
  if [ "$rc" != "$want" ]; then
    fail "$label: exit $rc, not $want: $out"
  elif ! grep -Eq -- "$re" <<<"$out"; then
    fail "$label: output does not match /$re/: $out"
  else
    ok "$label: $(head -c 160 <<<"$out" | tr '\n' ' ')"
  fi
}

# mode <file>: its permission bits (stat -c %a).
mode() { stat -c %a "$1"; }

# check_mode <label> <file> <mode>
check_mode() {
  if [ -e "$2" ] && [ "$(mode "$2")" = "$3" ]; then ok "$1: $2 is $3"; else fail "$1: $2 is $(mode "$2" 2>&1), not $3"; fi
}

# --- the CA ------------------------------------------------------------------------------------
Y10a="$(date -u -d '+10 years' +%F)"
expect "create-ca" 0 "^wrote $D/ca.key \(cluster CA's private key, mode 0600\)" -- certs create-ca --certs-dir "$D"
Y10b="$(date -u -d '+10 years' +%F)"
grep -Eq "^wrote $D/ca.crt \(cluster CA, expires ($Y10a|$Y10b)\)$" <<<"$out" &&
  ok "create-ca: the certificate's line, 10 years" || fail "create-ca: $out"
check_mode "create-ca" "$D" 700
check_mode "create-ca" "$D/ca.key" 600
check_mode "create-ca" "$D/ca.crt" 644
grep -q "BEGIN PRIVATE KEY" "$D/ca.key" && ok "create-ca: ca.key is a PEM private key" || fail "create-ca: ca.key"
expect "create-ca again" 1 "ca.crt already exists in $D: remove it first or use --overwrite" -- certs create-ca --certs-dir "$D"

# --- nodes and clients -------------------------------------------------------------------------
Y2a="$(date -u -d '+2 years' +%F)"
expect "create-node" 0 "^wrote $D/node.n1.key \(node n1's private key, mode 0600\)" -- \
  certs create-node n1 --host 127.0.0.1 --host n1.example.org --certs-dir "$D"
Y2b="$(date -u -d '+2 years' +%F)"
grep -Eq "^wrote $D/node.n1.crt \(node n1, expires ($Y2a|$Y2b)\)$" <<<"$out" &&
  ok "create-node: the certificate's line, 2 years" || fail "create-node: $out"
D30a="$(date -u -d '+30 days' +%F)"
expect "create-client --days 30" 0 "^wrote $D/client.alice.crt \(client alice, expires " -- \
  certs create-client alice --certs-dir "$D" --days 30
D30b="$(date -u -d '+30 days' +%F)"
grep -Eq "expires ($D30a|$D30b)\)$" <<<"$out" && ok "create-client: 30 days" || fail "create-client: $out"
# A umask that would leave files world-writable: the key is 600 all the same.
rc=0
out="$(umask 000 && timeout 60 "$ZK" certs create-client bob --certs-dir "$D" 2>&1)" || rc=$?
[ "$rc" = 0 ] && ok "create-client with umask 000" || fail "create-client with umask 000: $out"
check_mode "umask 000" "$D/client.bob.key" 600

# --- list --------------------------------------------------------------------------------------
expect "list: header" 0 "^FILE +ROLE +NAME +EXPIRES +STATE$" -- certs list --certs-dir "$D"
grep -Eq "^ca\.crt +ca +zkfleet CA +($Y10a|$Y10b) +expires in 365[0-3] days$" <<<"$out" && ok "list: the CA" || fail "list: the CA: $out"
grep -Eq "^node\.n1\.crt +node +n1 +($Y2a|$Y2b) +expires in 7(29|30|31) days$" <<<"$out" && ok "list: node n1" || fail "list: node n1: $out"
grep -Eq "^client\.alice\.crt +client +alice +($D30a|$D30b) +expires in (29|30) days$" <<<"$out" && ok "list: client alice" || fail "list: client alice: $out"
[ "$(grep -c '\.crt' <<<"$out")" = 4 ] && ok "list: 4 certificates" || fail "list: $out"
[ "$(sed -n 2p <<<"$out" | cut -d' ' -f1)" = ca.crt ] && [ "$(tail -1 <<<"$out" | cut -d' ' -f1)" = node.n1.crt ] &&
  ok "list: sorted by file name" || fail "list: order: $out"

# --- existing files, --overwrite ---------------------------------------------------------------
expect "create-node again" 1 "node.n1.crt already exists in $D: remove it first or use --overwrite" -- certs create-node n1 --certs-dir "$D"
before="$(sha256sum "$D/node.n1.crt")"
chmod 644 "$D/node.n1.key"
expect "create-node --overwrite" 0 "^wrote $D/node.n1.crt" -- certs create-node n1 --certs-dir "$D" --overwrite
[ "$before" != "$(sha256sum "$D/node.n1.crt")" ] && ok "--overwrite: a new certificate" || fail "--overwrite: the same file"
check_mode "--overwrite" "$D/node.n1.key" 600

# --- errors ------------------------------------------------------------------------------------
expect "no CA" 1 "no CA in $T/empty: .*ca.crt does not exist" -- certs create-node n1 --certs-dir "$T/empty"
expect "bad name (space)" 2 "invalid node name 'bad name': a name is 1 to 64 characters" -- certs create-node "bad name" --certs-dir "$D"
expect "bad name (dot)" 2 "invalid client name '.hidden'" -- certs create-client .hidden --certs-dir "$D"
expect "bad name (slash)" 2 "invalid node name '../x'" -- certs create-node ../x --certs-dir "$D"
expect "bad name (65 chars)" 2 "invalid node name" -- certs create-node "$(printf 'a%.0s' $(seq 65))" --certs-dir "$D"
expect "no NAME" 2 "certs create-node needs a NAME" -- certs create-node --certs-dir "$D"
expect "two NAMEs" 2 "certs create-node takes one NAME \(unexpected argument 'n3'\)" -- certs create-node n2 n3 --certs-dir "$D"
expect "bad host" 1 "host 'a b' is neither an IP address nor a DNS name" -- certs create-node n2 --host "a b" --certs-dir "$D"
[ ! -e "$D/node.n2.key" ] && [ ! -e "$D/node.n2.crt" ] && ok "bad host: nothing written" || fail "bad host: files left"
expect "client --host" 2 "unknown option --host" -- certs create-client carol --host h --certs-dir "$D"
expect "no --certs-dir" 2 "\-\-certs-dir DIR is required" -- certs create-ca
expect "--days 0" 2 "\-\-days needs an integer from 1 to 36500, got '0'" -- certs create-client carol --days 0 --certs-dir "$D"
expect "--days abc" 2 "\-\-days needs an integer" -- certs create-client carol --days abc --certs-dir "$D"
expect "list --days" 2 "unknown option --days" -- certs list --days 3 --certs-dir "$D"
expect "no subcommand" 2 "certs needs a command: create-ca, create-node NAME, create-client NAME, list, revoke NAME, create-token NAME, list-tokens or revoke-token NAME" -- certs
expect "unknown subcommand" 2 "certs takes a command" -- certs frobnicate
expect "help" 0 "create-node" -- certs --help
echo junk >"$D/junk.crt"
expect "list: a file that does not parse" 1 "junk\.crt: not a PEM certificate" -- certs list --certs-dir "$D"
rm "$D/junk.crt"
expect "list: no directory" 1 "$T/none: no such directory" -- certs list --certs-dir "$T/none"
mkdir "$T/nothing"
expect "list: empty" 0 "no certificates in $T/nothing" -- certs list --certs-dir "$T/nothing"

# --- every key, in the end ---------------------------------------------------------------------
for k in "$D"/*.key; do check_mode "final" "$k" 600; done
for c in "$D"/*.crt; do check_mode "final" "$c" 644; done

finish
