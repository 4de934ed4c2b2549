#include "zk/groth16/generator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "zk/base/clock.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/ntt/ntt.hpp"

namespace zk::groth16 {

namespace {

// out[c] = scale·x_c/(τ − x_c) for the points x_c = first·step^c, c < count. With
// scale = (τ^N − 1)/N and {x_c} part of an N-point subgroup (or of its coset ω_{2n}·H), this is
// the Lagrange basis L_c(τ) = (τ^N − 1)/N · x_c/(τ − x_c): Π_{j≠c}(x_c − x_j) = N·x_c^{N−1} =
// N/x_c on {x : x^N = 1}. O(count) field work and one inversion per chunk (Montgomery's trick).
template <class Fr>
void lagrange_at(const Fr& tau, const Fr& first, const Fr& step, size_t count, const Fr& scale,
                 Fr* out) {
  parallel_for(count, [&](size_t b, size_t e) {
    std::vector<Fr> den(e - b), scratch(e - b);
    Fr x = first * step.pow_u64(b);
    for (size_t c = b; c < e; ++c) {
      out[c] = x;
      den[c - b] = tau - x;
      x = x * step;
    }
    ff::batch_inverse(den.data(), scratch.data(), den.size());
    for (size_t c = b; c < e; ++c) out[c] = scale * out[c] * den[c - b];
  });
}

// The scalars of points [first, first + m) of a section into out[0, m).
template <class Fr>
using fill_t = std::function<void(uint64_t first, size_t m, Fr* out)>;

// One section: count points [s]·G, the scalars made by `fill` and multiplied through `table` a
// chunk at a time, each chunk handed to the sink before the next is made.
template <class C, class G>
void stream(key_section_t section, const ec::fixed_base_t<G>& table, size_t chunk, uint64_t count,
            const fill_t<typename C::fr_t>& fill, point_sink_t<C>& sink, generator_timings_t& t,
            double* mul_seconds) {
  sink.begin_section(section, count);
  const size_t cap = size_t(std::min<uint64_t>(chunk, count));
  std::vector<typename C::fr_t> scalars(cap);
  std::vector<ec::affine_t<G>> points(cap);
  for (uint64_t first = 0; first < count; first += chunk) {
    const size_t m = size_t(std::min<uint64_t>(chunk, count - first));
    {
      phase_timer_t timer(&t.evaluate_seconds);
      fill(first, m, scalars.data());
    }
    {
      phase_timer_t timer(mul_seconds);
      table.mul_batch(scalars.data(), points.data(), m);
    }
    sink.append(points.data(), m);
  }
  sink.end_section();
}

// A query's scalars in variable order: every variable's, or the density's (a cursor over the
// variables, since chunks come in order).
template <class Fr>
fill_t<Fr> query_fill(const std::vector<Fr>& values, const std::vector<bool>& density) {
  if (density.empty())
    return [&values](uint64_t first, size_t m, Fr* out) {
      std::copy(values.begin() + std::ptrdiff_t(first), values.begin() + std::ptrdiff_t(first + m),
                out);
    };
  // `next`: the first variable not yet handed out.
  return [&values, &density, next = uint64_t(0)](uint64_t, size_t m, Fr* out) mutable {
    for (size_t k = 0; k < m; ++next)
      if (density[next]) out[k++] = values[next];
  };
}

uint64_t count_set(const std::vector<bool>& v) {
  return uint64_t(std::count(v.begin(), v.end(), true));
}

}  // namespace

unsigned log2_domain(uint64_t rows) {
  unsigned log_n = 0;
  while ((uint64_t(1) << log_n) < rows) ++log_n;
  return log_n;
}

template <class C>
key_generator_t<C>::key_generator_t(const constraint_source_t<fr_t>& source,
                                    const convention_t<fr_t>& convention)
    : conv_(convention) {
  evaluate(source);
  make_vk();
}

// a_j(τ), b_j(τ) and β·a_j + α·b_j + c_j for every variable, and the densities.
template <class C>
void key_generator_t<C>::evaluate(const constraint_source_t<fr_t>& source) {
  phase_timer_t timer(&timings_.evaluate_seconds);
  const uint64_t m = source.constraints();
  inputs_ = source.inputs();
  variables_ = source.variables();
  if (inputs_ == 0 || inputs_ > variables_)
    throw std::invalid_argument("key generator: " + std::to_string(inputs_) + " inputs of " +
                                std::to_string(variables_) + " variables (ONE is an input)");
  const uint64_t rows = m + inputs_;
  log_n_ = log2_domain(rows);
  const unsigned need = log_n_ + (conv_.h == h_query_t::odd_coset ? 1 : 0);
  if (need > fr_t::params_t::two_adicity)
    throw std::invalid_argument("key generator: " + std::to_string(rows) + " QAP rows need a 2^" +
                                std::to_string(need) + " domain, beyond the field's 2-adicity " +
                                std::to_string(fr_t::params_t::two_adicity));
  n_ = uint64_t(1) << log_n_;
  sec_ = conv_.draw_secrets(n_);
  if (!conv_.gamma_drawn) sec_.gamma = fr_t::one();
  const fr_t& tau = sec_.tau;

  // L_c(τ) on the n-domain {ω^c}.
  const fr_t omega = ntt::root_of_unity<fr_t>(log_n_, conv_.domain_generator);
  const fr_t n_inv = fr_t::from_u64(n_).inverse();
  std::vector<fr_t> lag(n_);
  lagrange_at(tau, fr_t::one(), omega, n_, (tau.pow_u64(n_) - fr_t::one()) * n_inv, lag.data());

  // Σ_c M_{c,j}·L_c(τ) over the rows, then the input rows {A, row m+i, variable i, 1}.
  a_.assign(variables_, fr_t::zero());
  b_.assign(variables_, fr_t::zero());
  k_.assign(variables_, fr_t::zero());  // c_j(τ) until the combination below
  const bool density = conv_.queries == query_points_t::density;
  if (density) {
    in_a_.assign(variables_, false);
    in_b_.assign(variables_, false);
  }
  std::vector<fr_t>* acc[3] = {&a_, &b_, &k_};
  std::vector<bool>* dens[3] = {&in_a_, &in_b_, nullptr};
  source.for_each_term([&](qap_matrix_t mat, uint64_t row, uint64_t var, const fr_t& coeff) {
    if (row >= m || var >= variables_)
      throw std::out_of_range("key generator: term (" + std::to_string(row) + ", " +
                              std::to_string(var) + ") outside " + std::to_string(m) + " rows × " +
                              std::to_string(variables_) + " variables");
    const int i = int(mat);
    (*acc[i])[var] += coeff * lag[row];
    if (density && dens[i] && !coeff.is_zero()) (*dens[i])[var] = true;
  });
  for (uint64_t i = 0; i < inputs_; ++i) {
    a_[i] += lag[m + i];
    if (density) in_a_[i] = true;
  }
  std::vector<fr_t>().swap(lag);
  a_count_ = density ? count_set(in_a_) : variables_;
  b_count_ = density ? count_set(in_b_) : variables_;

  parallel_for(variables_, [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) k_[j] = sec_.beta * a_[j] + sec_.alpha * b_[j] + k_[j];
  });
}

// [α]₁ [β]₁ [δ]₁, [β]₂ [γ]₂ [δ]₂, IC, and the fixed-base tables.
template <class C>
void key_generator_t<C>::make_vk() {
  {
    phase_timer_t timer(&timings_.g2_seconds);
    g2_table_.emplace(C::g2_generator, fr_t::bits);
    vk_.beta2 = g2_table_->mul(sec_.beta.to_canonical()).to_affine();
    vk_.delta2 = g2_table_->mul(sec_.delta.to_canonical()).to_affine();
    vk_.gamma2 =
        conv_.gamma_drawn ? g2_table_->mul(sec_.gamma.to_canonical()).to_affine() : C::g2_generator;
  }
  phase_timer_t timer(&timings_.g1_seconds);
  g1_table_.emplace(C::g1_generator, fr_t::bits);
  vk_.alpha1 = g1_table_->mul(sec_.alpha.to_canonical()).to_affine();
  vk_.beta1 = g1_table_->mul(sec_.beta.to_canonical()).to_affine();
  vk_.delta1 = g1_table_->mul(sec_.delta.to_canonical()).to_affine();
  std::vector<fr_t> ic(k_.begin(), k_.begin() + std::ptrdiff_t(inputs_));
  if (conv_.gamma_drawn) {
    const fr_t gamma_inv = sec_.gamma.inverse();
    for (auto& x : ic) x = x * gamma_inv;
  }
  vk_.ic.resize(ic.size());
  g1_table_->mul_batch(ic.data(), vk_.ic.data(), ic.size());
}

template <class C>
uint64_t key_generator_t<C>::section_size(key_section_t s) const {
  switch (s) {
    case key_section_t::a:
      return a_count_;
    case key_section_t::b_g1:
    case key_section_t::b_g2:
      return b_count_;
    case key_section_t::l:
      return variables_ - inputs_;
    case key_section_t::h:
      return conv_.h == h_query_t::odd_coset ? n_ : n_ - 1;
  }
  return 0;
}

template <class C>
void key_generator_t<C>::write_section(key_section_t s, point_sink_t<C>& sink) {
  const uint64_t count = section_size(s);
  auto g1 = [&](const fill_t<fr_t>& fill) {
    stream<C>(s, *g1_table_, g1_chunk, count, fill, sink, timings_, &timings_.g1_seconds);
  };
  switch (s) {
    case key_section_t::a:
      return g1(query_fill(a_, in_a_));
    case key_section_t::b_g1:
      return g1(query_fill(b_, in_b_));
    case key_section_t::b_g2:
      return stream<C>(s, *g2_table_, g2_chunk, count, query_fill(b_, in_b_), sink, timings_,
                       &timings_.g2_seconds);
    case key_section_t::l: {
      const fr_t delta_inv = sec_.delta.inverse();
      return g1([&](uint64_t first, size_t m, fr_t* out) {
        const fr_t* k = k_.data() + inputs_ + first;
        parallel_for(m, [&](size_t b, size_t e) {
          for (size_t i = b; i < e; ++i) out[i] = k[i] * delta_inv;
        });
      });
    }
    case key_section_t::h: {
      const fr_t& tau = sec_.tau;
      const fr_t delta_inv = sec_.delta.inverse();
      const fr_t tau_n = tau.pow_u64(n_);
      if (conv_.h == h_query_t::odd_coset) {
        // L^{(2n)}_{2j+1}(τ)/δ: the 2n-domain's basis at its odd points ω_{2n}·ω_n^j, scale
        // (τ^{2n} − 1)/(2n)/δ (docs/formats.md §2.5).
        const fr_t omega_n = ntt::root_of_unity<fr_t>(log_n_, conv_.domain_generator);
        const fr_t omega_2n = ntt::root_of_unity<fr_t>(log_n_ + 1, conv_.domain_generator);
        const fr_t scale = (tau_n.sqr() - fr_t::one()) *
                           (fr_t::from_u64(n_).inverse() * fr_t::from_u64(2).inverse()) * delta_inv;
        return g1([&](uint64_t first, size_t m, fr_t* out) {
          lagrange_at(tau, omega_2n * omega_n.pow_u64(first), omega_n, m, scale, out);
        });
      }
      // τ^i·(τⁿ − 1)/δ (bellperson generator.rs: h's coefficients against Z(τ)/δ).
      const fr_t zd = (tau_n - fr_t::one()) * delta_inv;
      return g1([&](uint64_t first, size_t m, fr_t* out) {
        parallel_for(m, [&](size_t b, size_t e) {
          fr_t x = tau.pow_u64(first + b) * zd;
          for (size_t i = b; i < e; ++i) out[i] = x, x = x * tau;
        });
      });
    }
  }
}

template class key_generator_t<curves::bn254>;
template class key_generator_t<curves::bls12_381>;

}  // namespace zk::groth16
