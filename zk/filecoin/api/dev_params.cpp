#include "zk/filecoin/api/dev_params.hpp"

#include <filesystem>
#include <functional>
#include <memory>

#include "zk/base/clock.hpp"
#include "zk/bellperson/groth16/generator.hpp"
#include "zk/filecoin/update/circuit.hpp"

namespace zk::filecoin {

namespace {

dev_params_report_t make_params_of(
    const std::function<std::shared_ptr<const bellperson::r1cs_shape_t>()>& shape_of, uint64_t seed,
    const std::string& dir, const std::string& name, bool vk_only) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto shape = shape_of();
  std::filesystem::create_directories(dir);
  dev_params_report_t r;
  r.digest = shape->digest_hex();
  r.vk_path = dir + "/" + name + ".vk";
  if (!vk_only) r.params_path = dir + "/" + name + ".params";
  const auto g = bellperson::generate_parameters(*shape, seed, r.params_path, r.vk_path);
  r.domain = g.domain;
  r.points = g.points;
  r.seconds = seconds_since(t0);
  return r;
}

}  // namespace

dev_params_report_t make_dev_params(const circuit_config_t& c, uint64_t seed,
                                    const std::string& dir, const std::string& name, bool vk_only) {
  return make_params_of([&c] { return circuit_shape(c, true); }, seed, dir, name, vk_only);
}

dev_params_report_t make_dev_params(const update_config_t& c, uint64_t seed, const std::string& dir,
                                    const std::string& name, bool vk_only) {
  return make_params_of([&c] { return update_circuit_shape(c, true); }, seed, dir, name, vk_only);
}

}  // namespace zk::filecoin
