// emulator/value/item_codec_format.h: the constants of the binary item form
// (layout in item_codec.cc) and the bounds-checked reader of its primitives,
// shared by item_codec.cc (bytes -> Item) and item_json.cc (bytes -> JSON).
// Internal to emulator/value.
//
// Thread-safety: constants; a ByteReader belongs to one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

#include "emulator/value/number.h"

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

// Reads varints, counts, byte strings and numbers from stored bytes; every
// method returns false on corrupt or truncated input, never reads past the
// end. Views returned by Bytes point into the input.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool at_end() const { return p_ == end_; }
  // Steps back over n bytes just read.
  void Rewind(size_t n) { p_ -= n; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  bool Byte(uint8_t* b) {
    if (p_ == end_) return false;
    *b = static_cast<uint8_t>(*p_++);
    return true;
  }

  // LEB128, at most max_bytes bytes.
  bool Varint(Uint128* v, int max_bytes) {
    Uint128 result = 0;
    for (int shift = 0, i = 0; i < max_bytes; ++i, shift += 7) {
      if (p_ == end_) return false;
      const auto b = static_cast<uint8_t>(*p_++);
      result |= static_cast<Uint128>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *v = result;
        return true;
      }
    }
    return false;
  }

  // A count or length that must fit in what is left (each element takes at
  // least one byte), so corrupt counts cannot cause huge allocations.
  bool Count(size_t* n) {
    Uint128 v;
    if (!Varint(&v, 10) || v > remaining()) return false;
    *n = static_cast<size_t>(v);
    return true;
  }

  bool Bytes(std::string_view* s) {
    size_t n;
    if (!Count(&n)) return false;
    *s = std::string_view(p_, n);
    p_ += n;
    return true;
  }

  // Sign byte, zigzag exponent, coefficient; a valid DynamoDB number.
  bool Num(Number* n) {
    uint8_t sign;
    Uint128 zigzag;
    Uint128 coefficient;
    if (!Byte(&sign) || sign > 1 || !Varint(&zigzag, 5) ||
        !Varint(&coefficient, 19)) {
      return false;
    }
    if (zigzag > 0xffffffffu) return false;
    const auto z = static_cast<uint32_t>(zigzag);
    const int64_t exponent = (z & 1) != 0 ? -static_cast<int64_t>(z >> 1) - 1
                                          : static_cast<int64_t>(z >> 1);
    Result<Number> r = Number::FromParts(sign == 1, coefficient, exponent);
    if (!r.ok()) return false;
    *n = *r;
    return true;
  }

  // Reads past one value (tag and payload) without building it, with the
  // checks decoding makes.
  bool Skip(int depth) {
    uint8_t tag;
    if (!Byte(&tag)) return false;
    std::string_view view;
    Uint128 varint;
    size_t n;
    switch (tag) {
      case kTagS:
      case kTagB:
        return Bytes(&view);
      case kTagN: {
        uint8_t sign;
        return Byte(&sign) && Varint(&varint, 5) && Varint(&varint, 19);
      }
      case kTagFalse:
      case kTagTrue:
      case kTagNull:
        return true;
      case kTagM:
        if (depth >= kMaxDepth || !Count(&n)) return false;
        for (size_t i = 0; i < n; ++i) {
          if (!Bytes(&view) || !Skip(depth + 1)) return false;
        }
        return true;
      case kTagL:
        if (depth >= kMaxDepth || !Count(&n)) return false;
        for (size_t i = 0; i < n; ++i) {
          if (!Skip(depth + 1)) return false;
        }
        return true;
      case kTagSS:
      case kTagBS:
        if (!Count(&n)) return false;
        for (size_t i = 0; i < n; ++i) {
          if (!Bytes(&view)) return false;
        }
        return true;
      case kTagNS: {
        if (!Count(&n)) return false;
        uint8_t sign;
        for (size_t i = 0; i < n; ++i) {
          if (!Byte(&sign) || !Varint(&varint, 5) || !Varint(&varint, 19)) {
            return false;
          }
        }
        return true;
      }
      default:
        return false;
    }
  }

 private:
  const char* p_;
  const char* end_;
};

// Reads, of a stored map, only the top-level attributes named in `names`
// into `out` (a std::map-like object keyed by name, e.g. an AttributeMap or
// a JSON object), skipping the others; `reader` (a ByteReader with a
// Value(depth, Object::mapped_type*) method) is at the map's count. Stored
// names are in increasing order, so each lands last; false on corrupt input.
template <class Reader, class Object>
bool ReadNamedAttributes(Reader& reader,
                         std::span<const std::string_view> names, Object* out) {
  size_t n;
  if (!reader.Count(&n)) return false;
  size_t left = names.size();
  for (size_t i = 0; i < n && left > 0; ++i) {
    std::string_view name;
    if (!reader.Bytes(&name)) return false;
    bool wanted = false;
    for (std::string_view w : names) wanted = wanted || w == name;
    if (!wanted) {
      if (!reader.Skip(0)) return false;
      continue;
    }
    const size_t before = out->size();
    auto it = out->emplace_hint(out->end(), std::string(name),
                                typename Object::mapped_type());
    if (out->size() == before || std::next(it) != out->end()) return false;
    if (!reader.Value(0, &it->second)) return false;
    --left;
  }
  return true;
}

}  // namespace ddblab::value::item_format
