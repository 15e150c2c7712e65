#include "emulator/streams/shard_iterator.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include "emulator/api/random.h"
#include "emulator/value/codec.h"

namespace ddblab::streams {
namespace {

constexpr std::string_view kVersion = "|1|";
// Only detects accidental damage and guessing; not a secret.
constexpr uint64_t kCheckSeed = 0x1d8e4e27c47d124fULL;

std::string Check(std::string_view arn, std::string_view fields) {
  std::string text(arn);
  text += '|';
  text += fields;
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(Rng::Hash(kCheckSeed, text)));
  return buf;
}

bool ParseInt(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string EncodeShardIterator(const IteratorPosition& p) {
  std::string fields =
      std::to_string(p.stream_id) + ":" + std::to_string(p.shard) + ":" +
      std::to_string(p.after_seq) + ":" + std::to_string(p.issued_ms);
  std::string payload = fields + ":" + Check(p.stream_arn, fields);
  return p.stream_arn + std::string(kVersion) + value::Base64Encode(payload);
}

std::optional<IteratorPosition> DecodeShardIterator(std::string_view text) {
  size_t bar = text.rfind(kVersion);
  if (bar == std::string_view::npos || bar == 0) return std::nullopt;
  std::string payload;
  if (!value::Base64Decode(text.substr(bar + kVersion.size()), &payload)) {
    return std::nullopt;
  }
  std::vector<std::string_view> parts;
  std::string_view rest = payload;
  while (true) {
    size_t colon = rest.find(':');
    parts.push_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (parts.size() != 5) return std::nullopt;
  IteratorPosition p;
  p.stream_arn = std::string(text.substr(0, bar));
  std::string_view fields(payload.data(), payload.size() - parts[4].size() - 1);
  if (parts[4] != Check(p.stream_arn, fields)) return std::nullopt;
  if (!ParseInt(parts[0], &p.stream_id) || !ParseInt(parts[1], &p.shard) ||
      !ParseInt(parts[2], &p.after_seq) || !ParseInt(parts[3], &p.issued_ms)) {
    return std::nullopt;
  }
  return p;
}

}  // namespace ddblab::streams
