#pragma once
// storage-proofs-core 19.1.0 src/api_version.rs: the ApiVersion a proof is made under (it changes
// the graphs and the challenges) and the ApiFeature a registered proof may have (at most one).
#include <string_view>

namespace zk::filecoin {

// storage-proofs-core ApiVersion.
enum class api_version_t { v1_0_0, v1_1_0, v1_2_0 };
// storage-proofs-core ApiFeature (a registered proof has at most one).
enum class feature_t { none, synthetic_porep, non_interactive_porep };

// "V1_0_0", "V1_1_0", "V1_2_0".
std::string_view api_version_name(api_version_t v);
// The name as above; also accepts the semver spelling "1.0.0" (ApiVersion::from_str).
// std::invalid_argument naming the known versions otherwise.
api_version_t parse_api_version(std::string_view s);
// "", "SyntheticPoRep", "NonInteractivePoRep" (ApiFeature's serde names).
std::string_view feature_name(feature_t f);

}  // namespace zk::filecoin
