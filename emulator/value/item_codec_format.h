// emulator/value/item_codec_format.h: the constants of the binary item form
// (layout in item_codec.cc), shared by item_codec.cc and item_json.cc.
// Internal to emulator/value.
//
// Thread-safety: constants only.
#pragma once

#include <cstdint>

namespace ddblab::value::item_format {

inline constexpr uint8_t kFormat = 1;
// A stored item never nests deeper than DynamoDB allows; corrupt input may.
inline constexpr int kMaxDepth = 64;

enum Tag : uint8_t {
  kTagS = 0,
  kTagN = 1,
  kTagB = 2,
  kTagFalse = 3,
  kTagTrue = 4,
  kTagNull = 5,
  kTagM = 6,
  kTagL = 7,
  kTagSS = 8,
  kTagNS = 9,
  kTagBS = 10,
};

}  // namespace ddblab::value::item_format
