#include "emulator/server/request_id.h"

#include <string_view>

namespace ddblab::server {
namespace {
constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
}  // namespace

RequestIdGenerator::RequestIdGenerator(uint64_t seed)
    : rng_(Rng(seed).Fork("request-id")) {}

std::string RequestIdGenerator::Next() {
  std::string id(kLength, 'A');
  MutexLock lock(mu_);
  for (char& c : id) c = kAlphabet[rng_.Uniform(kAlphabet.size())];
  return id;
}

}  // namespace ddblab::server
