#pragma once
// The one run-time → compile-time curve dispatch: with_curve(id, f) calls f with the curve's
// tag type (curves::bn254 or curves::bls12_381, an empty struct), so typed code is written once
// as a generic lambda:
//
//   with_curve(header.curve, [&](auto tag) { using C = decltype(tag); prove_typed<C>(...); });
//
// Both calls of f must return the same type. curve_id_of<C> is the reverse direction.
#include <stdexcept>
#include <string>
#include <utility>

#include "zk/base/curve_id.hpp"
#include "zk/ec/curves.hpp"

namespace zk::curves {

template <class C>
inline constexpr curve_id_t curve_id_of = curve_id_t::bn254;
template <>
inline constexpr curve_id_t curve_id_of<bls12_381> = curve_id_t::bls12_381;

template <class F>
decltype(auto) with_curve(curve_id_t id, F&& f) {
  switch (id) {
    case curve_id_t::bn254:
      return std::forward<F>(f)(bn254{});
    case curve_id_t::bls12_381:
      return std::forward<F>(f)(bls12_381{});
  }
  throw std::invalid_argument("unknown curve id " + std::to_string(int(id)));
}

}  // namespace zk::curves
