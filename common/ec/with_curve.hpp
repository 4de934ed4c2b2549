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

#include "common/ec/curves.hpp"
#include "common/formats/curve_id.hpp"

namespace zk::curves {

template <class C>
inline constexpr formats::curve_id curve_id_of = formats::curve_id::bn254;
template <>
inline constexpr formats::curve_id curve_id_of<bls12_381> = formats::curve_id::bls12_381;

template <class F>
decltype(auto) with_curve(formats::curve_id id, F&& f) {
  switch (id) {
    case formats::curve_id::bn254:
      return std::forward<F>(f)(bn254{});
    case formats::curve_id::bls12_381:
      return std::forward<F>(f)(bls12_381{});
  }
  throw std::invalid_argument("unknown curve id " + std::to_string(int(id)));
}

}  // namespace zk::curves
