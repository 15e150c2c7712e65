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

// `first` then `more`: a plain encoding when `more` is empty, else the
// composite of all of them. No allocation beyond the result. `find(name)`
// gives the attribute's value or null when absent.
template <class Find>
std::optional<std::string> EncodePart(const KeyElement& first,
                                      const std::vector<KeyElement>& more,
                                      const Find& find, size_t max_bytes) {
  auto value_of = [&](const KeyElement& k) -> const value::AttributeValue* {
    const value::AttributeValue* v = find(k.name);
    if (v == nullptr || v->type() != k.type) return nullptr;
    size_t bytes = max_bytes;  // numbers have no byte limit
    if (v->type() == AttrType::kS) bytes = v->s().size();
    if (v->type() == AttrType::kB) bytes = v->b().size();
    if (bytes == 0 || bytes > max_bytes) return nullptr;
    return v;
  };
  const value::AttributeValue* v = value_of(first);
  if (v == nullptr) return std::nullopt;
  if (more.empty()) return value::EncodeKey(*v);
  std::string out;
  AppendKeyComponent(value::EncodeKey(*v), &out);
  for (const KeyElement& k : more) {
    v = value_of(k);
    if (v == nullptr) return std::nullopt;
    AppendKeyComponent(value::EncodeKey(*v), &out);
  }
  return out;
}

struct ItemFind {
  const value::Item& item;
  const value::AttributeValue* operator()(const std::string& name) const {
    auto it = item.find(name);
    return it == item.end() ? nullptr : &it->second;
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

const value::AttributeValue* NamedValues::Find(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return values[i] ? &*values[i] : nullptr;
  }
  return nullptr;
}

std::optional<std::string> EncodeHashPart(const KeySchema& key,
                                          const NamedValues& values) {
  auto find = [&](const std::string& name) { return values.Find(name); };
  return EncodePart(key.hash, key.more_hash, find, kMaxIndexHashBytes);
}

std::optional<std::string> EncodeRangePart(const KeySchema& key,
                                           const NamedValues& values) {
  if (!key.range) return std::string();
  auto find = [&](const std::string& name) { return values.Find(name); };
  return EncodePart(*key.range, key.more_range, find, kMaxIndexRangeBytes);
}

}  // namespace ddblab::engine
