#!/usr/bin/env bash
# The README's main command, as a user runs it (CTest cli/demo): `zkfleet demo` proves every job
# of the embedded cluster — porep-lite, the bundled circom fixtures and a 2 KiB Filecoin sector's
# C2 (zkfleet's development parameters, shared with filecoin/c2-dev through the cache) — verifies
# every proof, checks the sector's proof with verify_seal, prints the waterfall with each job's
# rows and the stats, and exits 0.
#
#   tests/cli/demo.sh <path-to-zkfleet>
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init demo "${1:-}"
rc=0
out="$(timeout 1800 "$ZK" demo 2>&1)" || rc=$?
echo "$out" | grep -v '^20[0-9-]* [0-9:.]* info' | sed 's/^/     /'
check "the demo exits 0" test "$rc" = 0
check "the Filecoin C2 job is listed with its kind" grep -qE 'filecoin/c2-2kib +filecoin-porep' <<<"$out"
check "its sector's proof is accepted by verify_seal" grep -qE 'sector [0-9]+: 192-byte proof accepted by verify_seal' <<<"$out"
check "every proof verified, no job failed" grep -qE 'summary: 6 jobs, ([0-9]+) proofs \(\1 verified, 0 failed jobs\)' <<<"$out"
check "the waterfall has the C2 partition's row" grep -qE '^job 6/0 \|' <<<"$out"
check "the stats name the bottleneck" grep -q '^bottleneck: ' <<<"$out"
check "memory stayed within every budget" grep -q 'within budget' <<<"$out"
finish
