# What the SnapDeals shell tests share (sourced after tests/lib/cluster.sh and harness_init):
#
#   snap_2k              F (tests/fixtures/filecoin/snap-2k: the update Filecoin 19.1.0 made), its
#                        commitments from golden.txt as R_OLD, R_NEW, D_NEW (64 hex digits), and
#                        R_NEW_FLIPPED (comm_r_new with bit 0 of byte 0 flipped)
#   snap_dev_params NAME zkfleet's development parameters of NAME's update circuit, seed 1, from
#                        the cache (`zkfleet filecoin setup`, made once: ~2 min at 2 KiB) as
#                        PARAMS and VK under $T/params
snap_2k() {
  F="$ROOT/tests/fixtures/filecoin/snap-2k"
  local k
  for k in comm_r_old comm_r_new comm_d_new; do
    local v
    v="$(sed -n "s/^$k=\([0-9a-f]*\).*/\1/p" "$F/golden.txt" | head -1)"
    [ ${#v} = 64 ] || die "$F/golden.txt: no $k"
    case $k in
      comm_r_old) R_OLD="$v" ;;
      comm_r_new) R_NEW="$v" ;;
      comm_d_new) D_NEW="$v" ;;
    esac
  done
  R_NEW_FLIPPED="$(printf '%02x%s' $((0x${R_NEW:0:2} ^ 1)) "${R_NEW:2}")"
}

snap_dev_params() {
  local out
  # Made once into the cache (zkfleet takes a lock there: other tests share them).
  if out="$(timeout 1800 "$ZK" filecoin setup --registered-update-proof "$1" --seed 1 --out "$T/params" 2>&1)"; then
    ok "development parameters: $(tail -n 1 <<<"$out")"
  else
    die "zkfleet filecoin setup: $out"
  fi
  PARAMS="$T/params/$1.params"
  VK="$T/params/$1.vk"
}
