// emulator/value/item_codec.cc: the binary storage form of an Item.
//
// Layout: a format byte (1), then a map. A map is varint(count) followed by
// (varint(name length), name, value) in name order. A value is a tag byte
// then its payload:
//   S, B: varint(length), bytes        N: number
//   BOOL: tag only (true/false tags)   NULL: tag only
//   M: map                             L: varint(count), values
//   SS, BS: varint(count), (varint(length), bytes)*
//   NS: varint(count), numbers
// A number is a byte (1 if negative), zigzag varint(exponent), varint(128-bit
// coefficient). Varints are LEB128.
#include "emulator/value/item_codec.h"

#include <iterator>
#include <utility>

#include "emulator/value/item_codec_format.h"

namespace ddblab::value {

namespace {

using item_format::kFormat;
using item_format::kMaxDepth;
using item_format::kTagB;
using item_format::kTagBS;
using item_format::kTagFalse;
using item_format::kTagL;
using item_format::kTagM;
using item_format::kTagN;
using item_format::kTagNS;
using item_format::kTagNull;
using item_format::kTagS;
using item_format::kTagSS;
using item_format::kTagTrue;

void PutVarint(Uint128 v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(static_cast<uint8_t>(v) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutBytes(std::string_view s, std::string* out) {
  PutVarint(s.size(), out);
  out->append(s);
}

void PutNumber(const Number& n, std::string* out) {
  out->push_back(n.is_negative() ? 1 : 0);
  const int e = n.exponent();
  const uint32_t zigzag = e >= 0 ? static_cast<uint32_t>(e) << 1
                                 : (static_cast<uint32_t>(-(e + 1)) << 1) | 1;
  PutVarint(zigzag, out);
  PutVarint(n.coefficient(), out);
}

void PutMap(const AttributeMap& m, std::string* out);

void PutValue(const AttributeValue& v, std::string* out) {
  using Type = AttributeValue::Type;
  switch (v.type()) {
    case Type::kS:
      out->push_back(kTagS);
      PutBytes(v.s(), out);
      return;
    case Type::kN:
      out->push_back(kTagN);
      PutNumber(v.n(), out);
      return;
    case Type::kB:
      out->push_back(kTagB);
      PutBytes(v.b(), out);
      return;
    case Type::kBool:
      out->push_back(v.boolean() ? kTagTrue : kTagFalse);
      return;
    case Type::kNull:
      out->push_back(kTagNull);
      return;
    case Type::kM:
      out->push_back(kTagM);
      PutMap(v.m(), out);
      return;
    case Type::kL:
      out->push_back(kTagL);
      PutVarint(v.l().size(), out);
      for (const AttributeValue& e : v.l()) PutValue(e, out);
      return;
    case Type::kSS:
    case Type::kBS: {
      const auto& set = v.type() == Type::kSS ? v.ss() : v.bs();
      out->push_back(v.type() == Type::kSS ? kTagSS : kTagBS);
      PutVarint(set.size(), out);
      for (const std::string& s : set) PutBytes(s, out);
      return;
    }
    case Type::kNS:
      out->push_back(kTagNS);
      PutVarint(v.ns().size(), out);
      for (const Number& n : v.ns()) PutNumber(n, out);
      return;
  }
}

void PutMap(const AttributeMap& m, std::string* out) {
  PutVarint(m.size(), out);
  for (const auto& [name, value] : m) {
    PutBytes(name, out);
    PutValue(value, out);
  }
}

// Bytes -> Item; every failure is "corrupt".
class Reader : public item_format::ByteReader {
 public:
  using ByteReader::ByteReader;
  using ByteReader::Bytes;

  bool Bytes(std::string* s) {
    std::string_view view;
    if (!Bytes(&view)) return false;
    s->assign(view);
    return true;
  }

  bool Value(int depth, AttributeValue* out);
  bool Map(int depth, AttributeMap* out);
  // Only the named top-level attributes of a map.
  bool Some(std::span<const std::string_view> names, AttributeMap* out);
  // Key attributes in place into out[i] for names[i].
  bool Keys(std::span<const std::string_view> names,
            std::span<StoredKeyValue> out);
};

bool Reader::Some(std::span<const std::string_view> names, AttributeMap* out) {
  return item_format::ReadNamedAttributes(*this, names, out);
}

AttributeValue::Type TypeOfTag(uint8_t tag) {
  using Type = AttributeValue::Type;
  switch (tag) {
    case kTagS:
      return Type::kS;
    case kTagN:
      return Type::kN;
    case kTagB:
      return Type::kB;
    case kTagFalse:
    case kTagTrue:
      return Type::kBool;
    case kTagM:
      return Type::kM;
    case kTagL:
      return Type::kL;
    case kTagSS:
      return Type::kSS;
    case kTagNS:
      return Type::kNS;
    case kTagBS:
      return Type::kBS;
    default:
      return Type::kNull;
  }
}

bool Reader::Keys(std::span<const std::string_view> names,
                  std::span<StoredKeyValue> out) {
  size_t n;
  if (!Count(&n)) return false;
  size_t left = names.size();
  for (size_t i = 0; i < n && left > 0; ++i) {
    std::string_view name;
    if (!Bytes(&name)) return false;
    size_t wanted = names.size();
    for (size_t j = 0; j < names.size(); ++j) {
      if (names[j] == name) {
        wanted = j;
        break;
      }
    }
    if (wanted == names.size()) {
      if (!Skip(0)) return false;
      continue;
    }
    // A name stored twice is corrupt (stored names are strictly increasing).
    StoredKeyValue& v = out[wanted];
    if (v.present) return false;
    v.present = true;
    uint8_t tag;
    if (!Byte(&tag)) return false;
    v.type = TypeOfTag(tag);
    if (tag == kTagS || tag == kTagB) {
      if (!Bytes(&v.bytes)) return false;
    } else if (tag == kTagN) {
      if (!Num(&v.number)) return false;
    } else {
      Rewind(1);  // the tag: Skip reads it again
      if (!Skip(0)) return false;
    }
    --left;
  }
  return true;
}

bool Reader::Value(int depth, AttributeValue* out) {
  uint8_t tag;
  if (!Byte(&tag)) return false;
  switch (tag) {
    case kTagS:
    case kTagB: {
      std::string s;
      if (!Bytes(&s)) return false;
      *out = tag == kTagS ? AttributeValue::S(std::move(s))
                          : AttributeValue::B(std::move(s));
      return true;
    }
    case kTagN: {
      Number n;
      if (!Num(&n)) return false;
      *out = AttributeValue::N(n);
      return true;
    }
    case kTagFalse:
    case kTagTrue:
      *out = AttributeValue::Bool(tag == kTagTrue);
      return true;
    case kTagNull:
      *out = AttributeValue::Null();
      return true;
    case kTagM: {
      if (depth >= kMaxDepth) return false;
      AttributeMap m;
      if (!Map(depth + 1, &m)) return false;
      *out = AttributeValue::M(std::move(m));
      return true;
    }
    case kTagL: {
      if (depth >= kMaxDepth) return false;
      size_t n;
      if (!Count(&n)) return false;
      AttributeList l(n);
      for (size_t i = 0; i < n; ++i) {
        if (!Value(depth + 1, &l[i])) return false;
      }
      *out = AttributeValue::L(std::move(l));
      return true;
    }
    case kTagSS:
    case kTagBS: {
      size_t n;
      if (!Count(&n)) return false;
      std::vector<std::string> set(n);
      for (size_t i = 0; i < n; ++i) {
        if (!Bytes(&set[i])) return false;
      }
      *out = tag == kTagSS ? AttributeValue::SS(std::move(set))
                           : AttributeValue::BS(std::move(set));
      return true;
    }
    case kTagNS: {
      size_t n;
      if (!Count(&n)) return false;
      std::vector<Number> set(n);
      for (size_t i = 0; i < n; ++i) {
        if (!Num(&set[i])) return false;
      }
      *out = AttributeValue::NS(std::move(set));
      return true;
    }
    default:
      return false;
  }
}

bool Reader::Map(int depth, AttributeMap* out) {
  size_t n;
  if (!Count(&n)) return false;
  for (size_t i = 0; i < n; ++i) {
    std::string name;
    if (!Bytes(&name)) return false;
    // Names are stored in strictly increasing order: each must land last.
    const size_t before = out->size();
    auto it = out->emplace_hint(out->end(), std::move(name), AttributeValue());
    if (out->size() == before || std::next(it) != out->end()) return false;
    if (!Value(depth, &it->second)) return false;
  }
  return true;
}

}  // namespace

std::string SerializeItem(const Item& item) {
  std::string out;
  out.reserve(256);
  out.push_back(static_cast<char>(kFormat));
  PutMap(item, &out);
  return out;
}

Result<Item> DeserializeItem(std::string_view bytes) {
  Reader reader(bytes);
  uint8_t format;
  Item item;
  if (!reader.Byte(&format) || format != kFormat || !reader.Map(0, &item) ||
      !reader.at_end()) {
    return Error::Internal("corrupt stored item");
  }
  return item;
}

Result<Item> DeserializeAttributes(std::string_view bytes,
                                   std::span<const std::string_view> names) {
  Reader reader(bytes);
  uint8_t format;
  Item item;
  if (!reader.Byte(&format) || format != kFormat ||
      !reader.Some(names, &item)) {
    return Error::Internal("corrupt stored item");
  }
  return item;
}

Status ReadKeyAttributes(std::string_view bytes,
                         std::span<const std::string_view> names,
                         std::span<StoredKeyValue> out) {
  Reader reader(bytes);
  uint8_t format;
  for (StoredKeyValue& v : out) v = StoredKeyValue();
  if (out.size() != names.size() || !reader.Byte(&format) ||
      format != kFormat || !reader.Keys(names, out)) {
    return Error::Internal("corrupt stored item");
  }
  return OkStatus();
}

}  // namespace ddblab::value
