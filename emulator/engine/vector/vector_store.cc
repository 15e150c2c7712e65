#include "emulator/engine/vector/vector_store.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <utility>

namespace ddblab::engine {
namespace {

constexpr size_t kLanes = 8;

// Sum of a[i] * b[i] in double, in kLanes independent partial sums: the
// lane loop has no dependency between iterations, so the compiler can use
// SIMD registers without reordering any one sum.
inline double DotKernel(const float* a, const float* b, size_t n) {
  double acc[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      acc[j] += static_cast<double>(a[i + j]) * static_cast<double>(b[i + j]);
    }
  }
  for (size_t j = 0; i < n; ++i, ++j) {
    acc[j] += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  }
  double sum = 0;
  for (double v : acc) sum += v;
  return sum;
}

// Sum of (a[i] - b[i])^2 in double, the same way.
inline double SquaredDistanceKernel(const float* a, const float* b, size_t n) {
  double acc[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      const double d =
          static_cast<double>(a[i + j]) - static_cast<double>(b[i + j]);
      acc[j] += d * d;
    }
  }
  for (size_t j = 0; i < n; ++i, ++j) {
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    acc[j] += d * d;
  }
  double sum = 0;
  for (double v : acc) sum += v;
  return sum;
}

constexpr double kMaxScore = static_cast<double>(FLT_MAX);

inline double Saturate(double score) {
  return std::clamp(score, -kMaxScore, kMaxScore);
}

inline double Score(DistanceFunction distance, const float* query,
                    const float* stored, size_t dims, double query_norm2,
                    double stored_norm2) {
  switch (distance) {
    case DistanceFunction::kCosine: {
      if (query_norm2 == 0 || stored_norm2 == 0) return 1.0;
      // sqrt(x * x) == x exactly, so identical vectors score exactly 0.
      const double cos = DotKernel(query, stored, dims) /
                         std::sqrt(query_norm2 * stored_norm2);
      return std::clamp(1.0 - cos, 0.0, 2.0);
    }
    case DistanceFunction::kEuclidean:
      return Saturate(std::sqrt(SquaredDistanceKernel(query, stored, dims)));
    case DistanceFunction::kDotProduct:
      return Saturate(DotKernel(query, stored, dims));
  }
  return 0;
}

}  // namespace

double SumOfSquares(std::span<const float> v) {
  return DotKernel(v.data(), v.data(), v.size());
}

double VectorScore(DistanceFunction distance, const float* query,
                   const float* stored, size_t dims, double query_norm2,
                   double stored_norm2) {
  return Score(distance, query, stored, dims, query_norm2, stored_norm2);
}

VectorIndexData::VectorIndexData(size_t dims) : dims_(dims) {}

std::string VectorIndexData::SlotKey(std::string_view pk, std::string_view sk) {
  // Length-prefixed pk, then sk: unambiguous for any bytes.
  std::string key;
  key.reserve(4 + pk.size() + sk.size());
  const uint32_t n = static_cast<uint32_t>(pk.size());
  key.append(reinterpret_cast<const char*>(&n), sizeof(n));
  key.append(pk);
  key.append(sk);
  return key;
}

const VectorIndexData::Row* VectorIndexData::Find(std::string_view pk,
                                                  std::string_view sk) const {
  auto it = slots_.find(SlotKey(pk, sk));
  return it == slots_.end() ? nullptr : &rows_[it->second];
}

void VectorIndexData::Upsert(std::string_view pk, std::string_view sk,
                             VectorEntry entry) {
  if (entry.values.size() != dims_) return;  // never stored half a vector
  const double norm2 = SumOfSquares(entry.values);
  auto [it, inserted] = slots_.try_emplace(SlotKey(pk, sk), rows_.size());
  const size_t slot = it->second;
  if (inserted) {
    values_.insert(values_.end(), entry.values.begin(), entry.values.end());
    norms2_.push_back(norm2);
    rows_.push_back(Row{std::string(pk), std::string(sk),
                        std::move(entry.schema_keys), entry.size,
                        entry.view_hash});
  } else {
    std::memcpy(values_.data() + slot * dims_, entry.values.data(),
                dims_ * sizeof(float));
    norms2_[slot] = norm2;
    Row& row = rows_[slot];
    bytes_ -= row.size;
    row.schema_keys = std::move(entry.schema_keys);
    row.size = entry.size;
    row.view_hash = entry.view_hash;
  }
  bytes_ += entry.size;
}

void VectorIndexData::Remove(std::string_view pk, std::string_view sk) {
  auto it = slots_.find(SlotKey(pk, sk));
  if (it == slots_.end()) return;
  const size_t slot = it->second;
  slots_.erase(it);
  bytes_ -= rows_[slot].size;
  const size_t last = rows_.size() - 1;
  if (slot != last) {
    std::memcpy(values_.data() + slot * dims_, values_.data() + last * dims_,
                dims_ * sizeof(float));
    norms2_[slot] = norms2_[last];
    rows_[slot] = std::move(rows_[last]);
    slots_[SlotKey(rows_[slot].pk, rows_[slot].sk)] = slot;
  }
  values_.resize(last * dims_);
  norms2_.pop_back();
  rows_.pop_back();
}

std::vector<VectorHit> VectorIndexData::Search(
    std::span<const float> query, DistanceFunction distance, size_t k,
    const std::vector<SchemaEquality>& where) const {
  std::vector<VectorHit> heap;
  if (k == 0 || query.size() != dims_) return heap;
  heap.reserve(k + 1);
  const bool higher_is_nearer = distance == DistanceFunction::kDotProduct;
  // Whether a is nearer than b (ties: lower primary key first).
  auto nearer = [&](const VectorHit& a, const VectorHit& b) {
    if (a.score != b.score) {
      return higher_is_nearer ? a.score > b.score : a.score < b.score;
    }
    const Row& ra = rows_[a.slot];
    const Row& rb = rows_[b.slot];
    if (ra.pk != rb.pk) return ra.pk < rb.pk;
    return ra.sk < rb.sk;
  };
  // A max-heap of the k best so far: the farthest on top.
  auto offer = [&](VectorHit hit) {
    if (heap.size() < k) {
      heap.push_back(hit);
      std::push_heap(heap.begin(), heap.end(), nearer);
    } else if (nearer(hit, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), nearer);
      heap.back() = hit;
      std::push_heap(heap.begin(), heap.end(), nearer);
    }
  };
  const double query_norm2 = SumOfSquares(query);
  const float* q = query.data();
  const size_t n = rows_.size();
  for (size_t slot = 0; slot < n; ++slot) {
    if (!where.empty()) {
      const Row& row = rows_[slot];
      bool match = true;
      for (const SchemaEquality& eq : where) {
        const std::optional<std::string>& v = row.schema_keys[eq.element];
        if (!v || *v != eq.key) {
          match = false;
          break;
        }
      }
      if (!match) continue;
    }
    offer({slot, Score(distance, q, values_.data() + slot * dims_, dims_,
                       query_norm2, norms2_[slot])});
  }
  std::sort_heap(heap.begin(), heap.end(), nearer);
  return heap;
}

}  // namespace ddblab::engine
