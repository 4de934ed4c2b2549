#include "zk/filecoin/core/api_version.hpp"

#include <stdexcept>
#include <string>

namespace zk::filecoin {

std::string_view api_version_name(api_version_t v) {
  switch (v) {
    case api_version_t::v1_0_0:
      return "V1_0_0";
    case api_version_t::v1_1_0:
      return "V1_1_0";
    case api_version_t::v1_2_0:
      return "V1_2_0";
  }
  return "?";
}

api_version_t parse_api_version(std::string_view s) {
  if (s == "V1_0_0" || s == "1.0.0") return api_version_t::v1_0_0;
  if (s == "V1_1_0" || s == "1.1.0") return api_version_t::v1_1_0;
  if (s == "V1_2_0" || s == "1.2.0") return api_version_t::v1_2_0;
  throw std::invalid_argument("unknown API version '" + std::string(s) +
                              "' (known: V1_0_0, V1_1_0, V1_2_0)");
}

std::string_view feature_name(feature_t f) {
  switch (f) {
    case feature_t::none:
      return "";
    case feature_t::synthetic_porep:
      return "SyntheticPoRep";
    case feature_t::non_interactive_porep:
      return "NonInteractivePoRep";
  }
  return "?";
}

}  // namespace zk::filecoin
