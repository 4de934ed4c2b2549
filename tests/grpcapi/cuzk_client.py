#!/usr/bin/env python3
"""A cuzk.v1.ProvingEngine client as Curio's is: plaintext, 256 MiB messages each way, the
requests of lib/ffi/cuzk_funcs.go. Its stubs are generated at test time from the project's
grpcapi/proto (tests/grpcapi/curio_cluster.sh puts them on PYTHONPATH).

  cuzk_client.py TARGET prove|submit --c1 FILE --miner M --sector N [--request-id R] [--kind K]
                 [--registered-proof P] [--sector-size B] [--vanilla FILE] [--out FILE]
                 [--deadline S]
  cuzk_client.py TARGET prove|submit --snap-vproof FILE --comm-r-old HEX --comm-r-new HEX
                 --comm-d-new HEX --registered-proof P [--miner M --sector N ...]
                 (SNAP_DEALS_UPDATE as lib/ffi/cuzk_funcs.go ProveUpdateCuzk sends it: the
                 snap-vproof.json's partitions as vanilla_proofs, the raw 32-byte commitments)
  cuzk_client.py TARGET await JOB [--timeout-ms MS] [--out FILE] [--deadline S]
  cuzk_client.py TARGET cancel JOB | status | metrics | preload ID | evict ID

Prints one JSON object: "code" (the gRPC status code's name, "OK" included), "details" (its
message), "provers" (Preload / Evict: zkfleet's trailer, what each prover did) and the response's
fields (the proof as its length and, with --out, written to FILE).
Exits 0 whenever a gRPC answer came (the test judges it), 2 on bad usage.
"""
import argparse
import base64
import json
import sys
import time

import grpc
from cuzk.v1 import proving_pb2 as pb
from cuzk.v1 import proving_pb2_grpc as pbg

MAX = 256 << 20  # Curio's client (lib/cuzk/client.go)


def wrap_c1(path, sector, sector_size):
    """The C1 as Curio wraps it (cuzk_funcs.go: Go's json.Marshal of c1OutputWrapper)."""
    raw = open(path, "rb").read()
    return json.dumps({"SectorNum": sector, "Phase1Out": base64.b64encode(raw).decode(),
                       "SectorSize": sector_size}, separators=(",", ":")).encode()


def submit_request(a):
    if a.snap_vproof:  # ProveUpdateCuzk: json.Unmarshal into [][]byte, the commitments raw
        parts = [base64.b64decode(s) for s in json.load(open(a.snap_vproof))]
        rid = a.request_id if a.request_id is not None else "snap-%d-%d" % (a.miner, a.sector)
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE,
                                     sector_size=a.sector_size,
                                     registered_proof=a.registered_proof, priority=pb.NORMAL,
                                     vanilla_proofs=parts, sector_number=a.sector,
                                     miner_id=a.miner, comm_r_old=bytes.fromhex(a.comm_r_old),
                                     comm_r_new=bytes.fromhex(a.comm_r_new),
                                     comm_d_new=bytes.fromhex(a.comm_d_new))
    if a.vanilla:
        vanilla = open(a.vanilla, "rb").read()
    else:
        vanilla = wrap_c1(a.c1, a.sector, a.sector_size)
    rid = a.request_id if a.request_id is not None else "porep-%d-%d" % (a.miner, a.sector)
    return pb.SubmitProofRequest(request_id=rid, proof_kind=a.kind, sector_size=a.sector_size,
                                 registered_proof=a.registered_proof, priority=pb.NORMAL,
                                 vanilla_proof=vanilla, sector_number=a.sector, miner_id=a.miner)


def await_fields(r, out):
    d = {"job_id": r.job_id, "status": pb.AwaitProofResponse.Status.Name(r.status),
         "proof_len": len(r.proof), "error_message": r.error_message,
         "queue_wait_ms": r.queue_wait_ms, "srs_load_ms": r.srs_load_ms,
         "synthesis_ms": r.synthesis_ms, "gpu_compute_ms": r.gpu_compute_ms,
         "total_ms": r.total_ms}
    if out and r.proof:
        with open(out, "wb") as f:
            f.write(r.proof)
    return d


def provers_of(call):
    """zkfleet's trailer on PreloadSRS / EvictSRS: what each prover did."""
    for k, v in call.trailing_metadata() or ():
        if k == "zkfleet-provers":
            return v
    return ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("target")
    p.add_argument("call", choices=["prove", "submit", "await", "cancel", "status", "metrics",
                                    "preload", "evict"])
    p.add_argument("arg", nargs="?")
    p.add_argument("--c1")
    p.add_argument("--vanilla")
    p.add_argument("--snap-vproof")
    p.add_argument("--comm-r-old", default="")
    p.add_argument("--comm-r-new", default="")
    p.add_argument("--comm-d-new", default="")
    p.add_argument("--miner", type=int, default=1000)
    p.add_argument("--sector", type=int, default=1)
    p.add_argument("--request-id")
    p.add_argument("--kind", type=int, default=pb.POREP_SEAL_COMMIT)
    p.add_argument("--registered-proof", type=int, default=5)  # StackedDrg2KiBV1_1
    p.add_argument("--sector-size", type=int, default=2048)
    p.add_argument("--timeout-ms", type=int, default=0)
    p.add_argument("--out")
    p.add_argument("--deadline", type=float, default=900)
    p.add_argument("--no-submit", action="store_true", help="prove: a ProveRequest without submit")
    p.add_argument("--max-send", type=int, default=MAX,
                   help="the channel's send limit (Curio's: 256 MiB; more to reach the server's)")
    a = p.parse_args()
    if a.call in ("prove", "submit") and not (a.c1 or a.vanilla or a.snap_vproof or a.no_submit):
        p.error("prove and submit need --c1, --vanilla or --snap-vproof")

    target = a.target
    if "://" not in target and not target.startswith("unix:"):
        target = "dns:///" + target  # as Curio's client does
    ch = grpc.insecure_channel(target, options=[("grpc.max_send_message_length", a.max_send),
                                                ("grpc.max_receive_message_length", MAX)])
    stub = pbg.ProvingEngineStub(ch)
    out = {}
    t0 = time.monotonic()
    try:
        if a.call == "prove":
            req = pb.ProveRequest() if a.no_submit else pb.ProveRequest(submit=submit_request(a))
            r = stub.Prove(req, timeout=a.deadline)
            out = await_fields(r.result, a.out) if r.HasField("result") else {"result": None}
        elif a.call == "submit":
            r = stub.SubmitProof(submit_request(a), timeout=a.deadline)
            out = {"job_id": r.job_id, "queue_position": r.queue_position,
                   "assigned_gpu": r.assigned_gpu}
        elif a.call == "await":
            r = stub.AwaitProof(pb.AwaitProofRequest(job_id=a.arg, timeout_ms=a.timeout_ms),
                                timeout=a.deadline)
            out = await_fields(r, a.out)
        elif a.call == "cancel":
            r = stub.CancelProof(pb.CancelProofRequest(job_id=a.arg), timeout=a.deadline)
            out = {"was_running": r.was_running}
        elif a.call == "status":
            r = stub.GetStatus(pb.GetStatusRequest(), timeout=min(a.deadline, 5))  # Curio: 5 s
            out = {"gpus": [{"ordinal": g.ordinal, "name": g.name,
                             "vram_total_bytes": g.vram_total_bytes,
                             "vram_free_bytes": g.vram_free_bytes,
                             "current_job_id": g.current_job_id,
                             "current_proof_kind": g.current_proof_kind} for g in r.gpus],
                   "loaded_srs": [{"circuit_id": s.circuit_id,
                                   "tier": pb.SRSStatus.Tier.Name(s.tier),
                                   "size_bytes": s.size_bytes, "ref_count": s.ref_count}
                                  for s in r.loaded_srs],
                   "queues": [{"proof_kind": q.proof_kind, "pending": q.pending,
                               "in_progress": q.in_progress} for q in r.queues],
                   "total_proofs_completed": r.total_proofs_completed,
                   "total_proofs_failed": r.total_proofs_failed,
                   "uptime_seconds": r.uptime_seconds,
                   "pinned_memory_bytes": r.pinned_memory_bytes,
                   "pinned_memory_limit_bytes": r.pinned_memory_limit_bytes}
        elif a.call == "metrics":
            r = stub.GetMetrics(pb.GetMetricsRequest(), timeout=a.deadline)
            out = {"prometheus_text": r.prometheus_text}
        elif a.call == "preload":
            r, call = stub.PreloadSRS.with_call(pb.PreloadSrsRequest(circuit_id=a.arg),
                                                timeout=a.deadline)
            out = {"already_loaded": r.already_loaded, "load_time_ms": r.load_time_ms,
                   "provers": provers_of(call)}
        elif a.call == "evict":
            r, call = stub.EvictSRS.with_call(pb.EvictSrsRequest(circuit_id=a.arg),
                                              timeout=a.deadline)
            out = {"was_loaded": r.was_loaded, "freed_bytes": r.freed_bytes,
                   "provers": provers_of(call)}
        out = dict(code="OK", details="", **out)
    except grpc.RpcError as e:
        out = {"code": e.code().name, "details": e.details(), "provers": provers_of(e)}
    out["call_ms"] = round((time.monotonic() - t0) * 1000, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
