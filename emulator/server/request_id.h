// emulator/server/request_id.h: x-amzn-RequestId values.
//
// AWS request ids are 52 uppercase alphanumerics. They come from a seeded
// Rng, so a server started with the same seed hands out the same sequence.
//
// Thread-safety: Next() may be called from many threads (internally locked).
#pragma once

#include <cstdint>
#include <string>

#include "emulator/api/mutex.h"
#include "emulator/api/random.h"
#include "emulator/api/thread_annotations.h"

namespace ddblab::server {

class RequestIdGenerator {
 public:
  static constexpr size_t kLength = 52;

  explicit RequestIdGenerator(uint64_t seed);

  // The next id: 52 characters from [A-Z0-9].
  std::string Next();

 private:
  Mutex mu_;
  Rng rng_ DDBLAB_GUARDED_BY(mu_);
};

}  // namespace ddblab::server
