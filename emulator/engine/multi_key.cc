// emulator/engine/multi_key.cc: composite index key encoding (see header).
#include "emulator/engine/multi_key.h"

#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

constexpr char kZero = '\x00';
constexpr char kEscapedZero = '\xFF';
constexpr char kTerminator = '\x01';
constexpr size_t kMaxIndexHashBytes = 2048;
constexpr size_t kMaxIndexRangeBytes = 1024;

// A key value wherever it lives (an Item's AttributeValue, stored bytes).
struct KeyRef {
  AttrType type;
  std::string_view bytes;                 // S, B
  const value::Number* number = nullptr;  // N
};

std::string EncodeRef(const KeyRef& v) {
  return v.type == AttrType::kN ? value::EncodeNumberKey(*v.number)
                                : std::string(v.bytes);
}

// `first` then `more`: a plain encoding when `more` is empty, else the
// composite of all of them. No allocation beyond the result. `find(name)`
// gives the attribute's value, nullopt when absent.
template <class Find>
std::optional<std::string> EncodePart(const KeyElement& first,
                                      const std::vector<KeyElement>& more,
                                      const Find& find, size_t max_bytes) {
  auto value_of = [&](const KeyElement& k) -> std::optional<KeyRef> {
    std::optional<KeyRef> v = find(k.name);
    if (!v || v->type != k.type) return std::nullopt;
    size_t bytes = max_bytes;  // numbers have no byte limit
    if (v->type == AttrType::kS || v->type == AttrType::kB) {
      bytes = v->bytes.size();
    }
    if (bytes == 0 || bytes > max_bytes) return std::nullopt;
    return v;
  };
  std::optional<KeyRef> v = value_of(first);
  if (!v) return std::nullopt;
  if (more.empty()) return EncodeRef(*v);
  std::string out;
  AppendKeyComponent(EncodeRef(*v), &out);
  for (const KeyElement& k : more) {
    v = value_of(k);
    if (!v) return std::nullopt;
    AppendKeyComponent(EncodeRef(*v), &out);
  }
  return out;
}

struct ItemFind {
  const value::Item& item;
  std::optional<KeyRef> operator()(const std::string& name) const {
    auto it = item.find(name);
    if (it == item.end()) return std::nullopt;
    const value::AttributeValue& v = it->second;
    switch (v.type()) {
      case AttrType::kS:
        return KeyRef{AttrType::kS, v.s()};
      case AttrType::kB:
        return KeyRef{AttrType::kB, v.b()};
      case AttrType::kN:
        return KeyRef{AttrType::kN, {}, &v.n()};
      default:
        return KeyRef{v.type(), {}};  // never a key type: no match
    }
  }
};

struct StoredFind {
  const StoredKeyValues& values;
  std::optional<KeyRef> operator()(const std::string& name) const {
    const value::StoredKeyValue* v = values.Find(name);
    if (v == nullptr) return std::nullopt;
    return KeyRef{v->type, v->bytes, &v->number};
  }
};

}  // namespace

void AppendKeyComponent(std::string_view encoded, std::string* out) {
  out->reserve(out->size() + encoded.size() + 2);
  for (char c : encoded) {
    out->push_back(c);
    if (c == kZero) out->push_back(kEscapedZero);
  }
  out->push_back(kZero);
  out->push_back(kTerminator);
}

std::string EscapeKeyComponent(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size() + 2);
  for (char c : encoded) {
    out.push_back(c);
    if (c == kZero) out.push_back(kEscapedZero);
  }
  return out;
}

std::optional<std::string> EncodeHashPart(const KeySchema& key,
                                          const value::Item& item) {
  return EncodePart(key.hash, key.more_hash, ItemFind{item},
                    kMaxIndexHashBytes);
}

std::optional<std::string> EncodeRangePart(const KeySchema& key,
                                           const value::Item& item) {
  if (!key.range) return std::string();
  return EncodePart(*key.range, key.more_range, ItemFind{item},
                    kMaxIndexRangeBytes);
}

const value::StoredKeyValue* StoredKeyValues::Find(
    std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return values[i].present ? &values[i] : nullptr;
  }
  return nullptr;
}

std::optional<std::string> EncodeHashPart(const KeySchema& key,
                                          const StoredKeyValues& values) {
  return EncodePart(key.hash, key.more_hash, StoredFind{values},
                    kMaxIndexHashBytes);
}

std::optional<std::string> EncodeRangePart(const KeySchema& key,
                                           const StoredKeyValues& values) {
  if (!key.range) return std::string();
  return EncodePart(*key.range, key.more_range, StoredFind{values},
                    kMaxIndexRangeBytes);
}

}  // namespace ddblab::engine
