#include "node/buffer_directory.hpp"

namespace zk::node {

void buffer_directory_t::add(const std::string& endpoint,
                             std::shared_ptr<buffer::buffer_store_t> store) {
  std::lock_guard<std::mutex> lock(mu_);
  stores_[endpoint] = std::move(store);
}

std::shared_ptr<buffer::buffer_store_t> buffer_directory_t::store(
    const std::string& endpoint) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stores_.find(endpoint);
  return it == stores_.end() ? nullptr : it->second;
}

std::optional<buffer::buffer_ref_t> buffer_directory_t::find(const std::string& endpoint,
                                                             uint64_t id) const {
  auto s = store(endpoint);
  if (!s) return std::nullopt;
  return s->find(id);
}

}  // namespace zk::node
