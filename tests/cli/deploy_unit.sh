#!/usr/bin/env bash
# deploy/systemd: `systemd-analyze verify` accepts the unit (as instance scheduler) alone and with
# gpu.conf as a drop-in, ExecStart pointed at the zkfleet under test. The paths of
# configs/farm.yaml against the unit's writable folders: tests/config/deploy_paths_test.cpp.
# Exit 77 (skipped) without systemd-analyze.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cluster.sh"
harness_init deploy_unit "${1:-}"
command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed"

unit="$ROOT/deploy/systemd/zkfleet-node@.service"
mkdir -p "$T/units/zkfleet-node@scheduler.service.d"
sed -e "s#/usr/local/bin/zkfleet#$ZK#" "$unit" >"$T/units/zkfleet-node@scheduler.service"
grep -q "^ExecStart=$ZK node --config" "$T/units/zkfleet-node@scheduler.service" ||
  die "the unit's ExecStart is not /usr/local/bin/zkfleet node --config ..."
if timeout 60 systemd-analyze verify "$T/units/zkfleet-node@scheduler.service" >"$T/verify.log" 2>&1; then
  ok "systemd-analyze verify: the unit"
else
  fail "systemd-analyze verify: $(cat "$T/verify.log")"
fi
cp "$ROOT/deploy/systemd/gpu.conf" "$T/units/zkfleet-node@scheduler.service.d/"
if timeout 60 systemd-analyze verify "$T/units/zkfleet-node@scheduler.service" >"$T/verify2.log" 2>&1; then
  ok "systemd-analyze verify: the unit with gpu.conf"
else
  fail "systemd-analyze verify with gpu.conf: $(cat "$T/verify2.log")"
fi
# The check can fail: a unit with an unknown key is refused.
sed -e 's/^Restart=on-failure/Restart=sometimes/' "$T/units/zkfleet-node@scheduler.service" >"$T/units/zkfleet-node@bad.service"
if timeout 60 systemd-analyze verify "$T/units/zkfleet-node@bad.service" >"$T/verify3.log" 2>&1 &&
  ! grep -qi "restart" "$T/verify3.log"; then
  fail "systemd-analyze verify took a bad Restart= value: the check cannot fail"
else
  ok "systemd-analyze verify refuses a bad unit"
fi
finish
