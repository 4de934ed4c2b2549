// A SubmitProofRequest read off the wire by hand (grpcapi/service.hpp read_submit): protobuf's
// wire format over gRPC's slices, so that vanilla_proof (a C1 of up to ~200 MB) goes from the
// received slices to the store without a parsed copy. The numbers are the contract's
// (proving.proto): a field of another wire type than the contract's is skipped, as protobuf's
// parser treats it (an unknown field).
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include "grpcapi/service.hpp"

namespace zk::grpcapi {

namespace {

using google::protobuf::io::CodedInputStream;
using wire_t = google::protobuf::internal::WireFormatLite;

// SubmitProofRequest's fields that the face reads (proving.proto).
enum field_t : uint32_t {
  request_id = 1,
  proof_kind = 2,
  sector_size = 3,
  registered_proof = 4,
  priority = 5,
  vanilla_proof = 10,
  vanilla_proofs = 11,
  sector_number = 20,
  miner_id = 21,
  comm_r_old = 30,
  comm_r_new = 31,
  comm_d_new = 32,
};
// The most a SnapDeals submit carries in vanilla_proofs (a 64 GiB update's 16 partitions are
// ~1 MB each): a bound on what the face holds before the scheduler's own checks.
constexpr uint64_t max_vanilla_proofs_bytes = uint64_t(256) << 20;
constexpr uint32_t prove_submit = 1;  // ProveRequest.submit

using sink_t = std::function<check_t(std::string_view)>;

// The fields of one SubmitProofRequest up to the stream's limit.
check_t read_fields(CodedInputStream& in, cz::submit_t& out, const sink_t* c1) {
  bool c1_seen = false;
  uint64_t partitions_bytes = 0;
  while (uint32_t tag = in.ReadTag()) {
    const uint32_t field = wire_t::GetTagFieldNumber(tag);
    const auto type = wire_t::GetTagWireType(tag);
    const bool varint = type == wire_t::WIRETYPE_VARINT;
    const bool bytes = type == wire_t::WIRETYPE_LENGTH_DELIMITED;
    uint64_t v = 0;
    if (varint && (field == proof_kind || field == sector_size || field == registered_proof ||
                   field == priority || field == sector_number || field == miner_id)) {
      if (!in.ReadVarint64(&v)) return "field " + std::to_string(field) + ": a truncated varint";
      switch (field) {
        case proof_kind:
          out.proof_kind = v;
          break;
        case sector_size:
          out.sector_size = v;
          break;
        case registered_proof:
          out.registered_proof = v;
          break;
        case priority:
          out.priority = v;
          break;
        case sector_number:
          out.sector_number = v;
          break;
        default:
          out.miner_id = v;
          break;
      }
    } else if (bytes && field == request_id) {
      uint32_t n = 0;
      if (!in.ReadVarint32(&n) || n > 4096 || !in.ReadString(&out.request_id, int(n)))
        return std::string("request_id: truncated, or longer than 4096 bytes");
    } else if (bytes && (field == comm_r_old || field == comm_r_new || field == comm_d_new)) {
      std::string& to = field == comm_r_old   ? out.comm_r_old
                        : field == comm_r_new ? out.comm_r_new
                                              : out.comm_d_new;
      uint32_t n = 0;  // 32 bytes when valid (check_submit says so); a bound on what is read
      if (!in.ReadVarint32(&n) || n > 1024 || !in.ReadString(&to, int(n)))
        return "field " + std::to_string(field) + ": truncated, or longer than 1024 bytes";
    } else if (bytes && field == vanilla_proofs) {
      uint32_t n = 0;
      if (!in.ReadVarint32(&n)) return std::string("vanilla_proofs: a truncated length");
      partitions_bytes += n;
      if (partitions_bytes > max_vanilla_proofs_bytes || out.vanilla_proofs.size() >= 1024)
        return "vanilla_proofs: more than " + std::to_string(max_vanilla_proofs_bytes >> 20) +
               " MiB or 1024 partitions";
      if (c1) {  // the second pass (the C1's) has them from the first
        if (!in.Skip(int(n))) return std::string("vanilla_proofs: shorter than its length");
      } else {
        std::string p;
        if (!in.ReadString(&p, int(n)))
          return std::string("vanilla_proofs: shorter than its length");
        out.vanilla_proofs.push_back(std::move(p));
      }
    } else if (bytes && field == vanilla_proof) {
      if (c1_seen) return std::string("vanilla_proof is given twice");
      c1_seen = true;
      uint32_t n = 0;
      if (!in.ReadVarint32(&n)) return std::string("vanilla_proof: a truncated length");
      out.vanilla_proof_bytes = n;
      // Its bytes as they lie in the slices, a piece at a time (or skipped in the first pass).
      while (n > 0) {
        const void* data = nullptr;
        int size = 0;
        if (!in.GetDirectBufferPointer(&data, &size) || size <= 0)
          return std::string("vanilla_proof: shorter than its length");
        const uint32_t take = std::min<uint32_t>(n, uint32_t(size));
        if (c1)
          if (check_t c = (*c1)(std::string_view(static_cast<const char*>(data), take)); !c)
            return c;
        in.Skip(int(take));
        n -= take;
      }
    } else if (!wire_t::SkipField(&in, tag)) {
      return "field " + std::to_string(field) + ": malformed";
    }
  }
  if (!in.ConsumedEntireMessage()) return std::string("a malformed tag");
  return {};
}

}  // namespace

check_t read_submit(const grpc::ByteBuffer& request, bool nested, cz::submit_t& out,
                    const sink_t* c1) {
  grpc::ByteBuffer copy(request);  // the same slices, referenced again (no bytes copied)
  grpc::ProtoBufferReader reader(&copy);
  if (!reader.status().ok())
    return "the request cannot be read: " + reader.status().error_message();
  CodedInputStream in(&reader);
  const char* what = nested ? "not a ProveRequest: " : "not a SubmitProofRequest: ";
  if (!nested) {
    if (const check_t c = read_fields(in, out, c1); !c) return what + c.reason();
    return {};
  }
  bool submit_seen = false;
  while (uint32_t tag = in.ReadTag()) {
    if (wire_t::GetTagFieldNumber(tag) == prove_submit &&
        wire_t::GetTagWireType(tag) == wire_t::WIRETYPE_LENGTH_DELIMITED) {
      if (submit_seen) return std::string(what) + "submit is given twice";
      submit_seen = true;
      uint32_t n = 0;
      if (!in.ReadVarint32(&n)) return std::string(what) + "submit: a truncated length";
      const auto limit = in.PushLimit(int(n));
      if (const check_t c = read_fields(in, out, c1); !c) return what + c.reason();
      if (in.BytesUntilLimit() != 0) return std::string(what) + "submit: shorter than its length";
      in.PopLimit(limit);
    } else if (!wire_t::SkipField(&in, tag)) {
      return std::string(what) + "a malformed field";
    }
  }
  if (!in.ConsumedEntireMessage()) return std::string(what) + "a malformed tag";
  if (!submit_seen) return std::string("missing submit field");  // cuzk's words
  return {};
}

}  // namespace zk::grpcapi
