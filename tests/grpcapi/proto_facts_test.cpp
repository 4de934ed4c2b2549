// zkfleet's grpcapi/proto against Curio's: the facts a generated client's bytes depend on (the
// service and its methods, every message's fields with their numbers, types and labels, every
// enum's values, the package and the file's name), written from the descriptor compiled into
// zkfleet, must be those of Curio's file at e0294b0f (tests/grpcapi/curio_proving.facts, made by
// tests/grpcapi/proto_facts.py from Curio's file: the same lines from another implementation).
#include <doctest/doctest.h>
#include <google/protobuf/descriptor.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/v1/proving.pb.h"

namespace {

namespace gp = google::protobuf;

void enum_facts(const gp::EnumDescriptor* e, std::vector<std::string>& out) {
  out.push_back("enum " + e->full_name());
  for (int i = 0; i < e->value_count(); ++i)
    out.push_back("value " + e->value(i)->name() + " " + std::to_string(e->value(i)->number()));
}

void message_facts(const gp::Descriptor* m, std::vector<std::string>& out) {
  out.push_back("message " + m->full_name());
  for (int i = 0; i < m->field_count(); ++i) {
    const gp::FieldDescriptor* f = m->field(i);
    static const char* const labels[] = {"", "optional", "required", "repeated"};
    std::string line = "field " + f->name() + " " + std::to_string(f->number()) + " " +
                       labels[f->label()] + " " + f->type_name();
    if (f->message_type()) line += " " + f->message_type()->full_name();
    if (f->enum_type()) line += " " + f->enum_type()->full_name();
    if (f->has_optional_keyword()) line += " proto3_optional";
    out.push_back(line);
  }
  for (int i = 0; i < m->oneof_decl_count(); ++i)
    out.push_back("oneof " + m->oneof_decl(i)->name());
  for (int i = 0; i < m->enum_type_count(); ++i) enum_facts(m->enum_type(i), out);
  for (int i = 0; i < m->nested_type_count(); ++i) message_facts(m->nested_type(i), out);
}

std::vector<std::string> facts(const gp::FileDescriptor* f) {
  std::vector<std::string> out;
  out.push_back("file " + f->name() + " package " + f->package() + " syntax " +
                gp::FileDescriptor::SyntaxName(f->syntax()));
  for (int s = 0; s < f->service_count(); ++s) {
    const gp::ServiceDescriptor* sv = f->service(s);
    out.push_back("service " + sv->full_name());
    for (int i = 0; i < sv->method_count(); ++i) {
      const gp::MethodDescriptor* m = sv->method(i);
      out.push_back("rpc " + m->name() + " " + m->input_type()->full_name() + " " +
                    m->output_type()->full_name() +
                    " client_streaming=" + std::to_string(int(m->client_streaming())) +
                    " server_streaming=" + std::to_string(int(m->server_streaming())));
    }
  }
  for (int i = 0; i < f->enum_type_count(); ++i) enum_facts(f->enum_type(i), out);
  for (int i = 0; i < f->message_type_count(); ++i) message_facts(f->message_type(i), out);
  return out;
}

std::vector<std::string> curio_facts() {
  std::ifstream in(ZK_SOURCE_DIR "/tests/grpcapi/curio_proving.facts");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("proto: zkfleet's cuzk.v1 contract has every wire fact of Curio's proving.proto") {
  const gp::FileDescriptor* f = cuzk::v1::SubmitProofRequest::descriptor()->file();
  REQUIRE(f != nullptr);
  CHECK(f->name() == "cuzk/v1/proving.proto");  // the descriptor's name, as Curio's
  const std::vector<std::string> ours = facts(f), curio = curio_facts();
  REQUIRE_MESSAGE(curio.size() > 100, "tests/grpcapi/curio_proving.facts is missing or short");
  for (size_t i = 0; i < std::max(ours.size(), curio.size()); ++i) {
    const std::string a = i < ours.size() ? ours[i] : "(nothing)";
    const std::string b = i < curio.size() ? curio[i] : "(nothing)";
    INFO("fact " << i + 1 << ": zkfleet's '" << a << "', Curio's '" << b << "'");
    CHECK(a == b);
    if (a != b) break;  // one difference is enough to read; the rest follow from it
  }
  CHECK(ours.size() == curio.size());
}
