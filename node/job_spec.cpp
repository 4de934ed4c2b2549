#include "node/job_spec.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace zk::node {

namespace {

template <class... F>
struct overloaded_t : F... {
  using F::operator()...;
};
template <class... F>
overloaded_t(F...) -> overloaded_t<F...>;

constexpr int json_version = 1;

circuit_kind_t kind_at(size_t index) {
  static_assert(uint8_t(circuit_kind_t::circom) == 0 && uint8_t(circuit_kind_t::porep_lite) == 1 &&
                    uint8_t(circuit_kind_t::filecoin_porep) == 2 &&
                    uint8_t(circuit_kind_t::filecoin_snap) == 3,
                "job_spec_t's alternatives are in circuit_kind_t's order");
  return circuit_kind_t(uint8_t(index));
}

}  // namespace

circuit_kind_t kind_of(const job_spec_t& s) { return kind_at(s.v.index()); }
circuit_kind_t kind_of(const partition_spec_t& s) { return kind_at(s.v.index()); }

check_t check_request(const circuit_def_t& c, const job_spec_t& s, uint32_t partitions) {
  if (kind_of(s) != c.kind)
    return "circuit '" + c.id + "' is " + config::circuit_kind_name(c.kind) + ", the job a " +
           config::circuit_kind_name(kind_of(s)) + " job (it takes " +
           (c.kind == circuit_kind_t::circom           ? "a .wtns or an input.json"
            : c.kind == circuit_kind_t::porep_lite     ? "a seed"
            : c.kind == circuit_kind_t::filecoin_porep ? "a C1 with its prover id and sector"
                                                       : "the update's vanilla proofs with "
                                                         "comm_r_old, comm_d_new and comm_r_new") +
           ")";
  return std::visit([&](const auto& x) { return check_request(c, x, partitions); }, s.v);
}

result_t<job_spec_t> take_in(const circuit_def_t& c, const job_spec_t& s, uint32_t partitions,
                             const intake_env_t& env) {
  if (check_t why = check_request(c, s, partitions); !why) return why.reason();
  return std::visit(
      [&](const auto& x) -> result_t<job_spec_t> {
        auto r = take_in(c, x, partitions, env);
        if (!r) return r.error();
        return job_spec_t{std::move(r.value())};
      },
      s.v);
}

bool needs_intake(const job_spec_t& s) {
  if (const auto* f = std::get_if<filecoin_porep_spec_t>(&s.v)) return f->partitions.empty();
  if (const auto* f = std::get_if<filecoin_snap_spec_t>(&s.v)) return f->partitions.empty();
  return false;
}

partition_spec_t partition_spec(const job_spec_t& s, uint32_t k) {
  return std::visit([&](const auto& x) { return partition_spec_t{partition_input(x, k)}; }, s.v);
}

const input_file_t* file_of(const partition_spec_t& p) {
  return std::visit(
      overloaded_t{
          [](const circom_input_t& x) -> const input_file_t* { return &x.file; },
          [](const porep_lite_spec_t&) -> const input_file_t* { return nullptr; },
          [](const filecoin_porep_partition_t& x) -> const input_file_t* { return &x.input; },
          [](const filecoin_snap_partition_t& x) -> const input_file_t* { return &x.input; }},
      p.v);
}

std::vector<stored_object_t> stored_objects(const job_spec_t& s) {
  std::vector<stored_object_t> out;
  std::visit([&](const auto& x) { stored_objects(x, out); }, s.v);
  return out;
}

std::optional<std::string> expected_public_digest(const job_spec_t& s, uint32_t k) {
  const std::vector<filecoin_stored_partition_t>* parts = nullptr;
  if (const auto* f = std::get_if<filecoin_porep_spec_t>(&s.v)) parts = &f->partitions;
  if (const auto* f = std::get_if<filecoin_snap_spec_t>(&s.v)) parts = &f->partitions;
  if (!parts || k >= parts->size()) return std::nullopt;
  return (*parts)[k].public_digest;
}

job_spec_t circom_job_spec(const std::vector<std::string>& paths) {
  circom_spec_t s;
  for (const auto& p : paths) s.inputs.push_back({circom_form_of_path(p), input_file_t::at(p)});
  return {s};
}

job_spec_t porep_lite_job_spec(uint64_t seed) { return {porep_lite_spec_t{seed}}; }

std::string to_json(const job_spec_t& s) {
  nlohmann::json j = std::visit([](const auto& x) { return spec_json(x); }, s.v);
  j["v"] = json_version;
  j["kind"] = config::circuit_kind_name(kind_of(s));
  return j.dump();
}

job_spec_t job_spec_from_json(std::string_view text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("the spec is not JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("the spec is not a JSON object");
  if (!j.contains("v") || !j["v"].is_number_integer() || j["v"].get<int64_t>() != json_version)
    throw std::invalid_argument("the spec's \"v\" is not " + std::to_string(json_version));
  if (!j.contains("kind") || !j["kind"].is_string())
    throw std::invalid_argument("the spec has no \"kind\"");
  const std::string kind = j["kind"];
  try {
    if (kind == config::circuit_kind_name(circuit_kind_t::circom))
      return {circom_spec_from_json(j)};
    if (kind == config::circuit_kind_name(circuit_kind_t::porep_lite))
      return {porep_lite_spec_from_json(j)};
    if (kind == config::circuit_kind_name(circuit_kind_t::filecoin_porep))
      return {filecoin_porep_spec_from_json(j)};
    if (kind == config::circuit_kind_name(circuit_kind_t::filecoin_snap))
      return {filecoin_snap_spec_from_json(j)};
  } catch (const nlohmann::json::exception& e) {  // a type nlohmann refused
    throw std::invalid_argument(kind + ": " + e.what());
  }
  throw std::invalid_argument("the spec's kind '" + kind.substr(0, 40) +
                              "' is none of circom, "
                              "porep-lite, filecoin-porep, filecoin-snap");
}

}  // namespace zk::node
