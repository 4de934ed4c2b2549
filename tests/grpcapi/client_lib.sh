# The gRPC tests' client (sourced after tests/lib/cluster.sh's harness_init): need_grpc_client
# skips (77) without Python's grpcio and grpcio-tools (scripts/deps puts them in .tools/grpc/site;
# ZK_GRPC_PYTHON names another Python), then generates the cuzk.v1 client now from the project's
# own .proto into $T/py. After it: `client ARGS…` runs tests/grpcapi/cuzk_client.py with it,
# `field FILE KEY` prints a field of a JSON answer (objects and lists as JSON, none as "").
need_grpc_client() {
  PY="${ZK_GRPC_PYTHON:-python3}"
  GRPC_SITE=""
  [ -d "$ROOT/.tools/grpc/site/grpc_tools" ] && GRPC_SITE="$ROOT/.tools/grpc/site"
  PYTHONPATH="$GRPC_SITE" "$PY" -c 'import grpc, grpc_tools' 2>/dev/null ||
    skip "no grpcio and grpcio-tools for $PY (scripts/deps installs them into .tools/grpc)"
  mkdir -p "$T/py"
  PYTHONPATH="$GRPC_SITE" "$PY" -m grpc_tools.protoc -I"$ROOT/grpcapi/proto" --python_out="$T/py" \
    --grpc_python_out="$T/py" cuzk/v1/proving.proto >"$T/protoc.log" 2>&1 ||
    die "grpc_tools.protoc: $(cat "$T/protoc.log")"
}
client() { PYTHONPATH="$T/py${GRPC_SITE:+:$GRPC_SITE}" "$PY" "$ROOT/tests/grpcapi/cuzk_client.py" "$@"; }
field() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print("" if v is None else v if not isinstance(v,(dict,list)) else json.dumps(v))' "$1" "$2"
}
