// emulator/api/random.h: the seeded random generator.
//
// Every random choice in ddblab (TTL delays, fault rules, shard choice,
// scheduling) comes from an Rng built from a seed, so the same seed and the
// same inputs give the same result on every machine: the algorithm
// (xoshiro256**, seeded by splitmix64) is fixed here and does not depend on
// the standard library's distributions.
//
// Thread-safety: an Rng is not thread-safe; give each thread its own
// (Fork) or guard it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ddblab {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t seed() const { return seed_; }

  // 64 uniformly random bits.
  uint64_t Next();
  // Uniform in [0, n); n == 0 gives 0.
  uint64_t Uniform(uint64_t n);
  // Uniform in [0, 1).
  double UniformDouble();
  // True with probability p.
  bool Bernoulli(double p);

  // A new generator whose stream is determined by this generator's seed and
  // the tag, independent of how much this one has been used.
  Rng Fork(std::string_view tag) const;

  // A stable 64-bit hash of (seed, bytes): the same on every platform.
  // Used where a value must depend on a key, not on call order.
  static uint64_t Hash(uint64_t seed, std::string_view bytes);

 private:
  uint64_t seed_;
  std::array<uint64_t, 4> state_;
};

}  // namespace ddblab
