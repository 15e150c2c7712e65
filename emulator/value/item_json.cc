// emulator/value/item_json.cc: stored item bytes -> wire JSON in one pass.
//
// Reads the layout described in item_codec.cc with the same checks as
// DeserializeItem (bounds, counts no larger than the bytes left, varint
// widths, number ranges, strictly increasing names, nesting depth, nothing
// trailing) and builds the JSON EncodeItem would build.
#include "emulator/value/item_json.h"

#include <iterator>
#include <span>
#include <string>
#include <utility>

#include "emulator/value/codec.h"
#include "emulator/value/item_codec_format.h"
#include "emulator/value/number.h"

namespace ddblab::value {

namespace {

using Json = nlohmann::json;
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

// Bytes -> JSON; every failure is "corrupt".
class JsonReader : public item_format::ByteReader {
 public:
  using ByteReader::ByteReader;
  using ByteReader::Num;

  // A map (an item, or the payload of an M) into `out`, in name order.
  bool Map(int depth, Json::object_t* out);
  // Only the named top-level attributes of a map.
  bool Some(std::span<const std::string_view> names, Json::object_t* out);
  // The AttributeValue object {"<type>": ...}.
  bool Value(int depth, Json* out);

 private:
  // A number in DynamoDB's canonical text.
  bool Num(std::string* text) {
    Number n;
    if (!Num(&n)) return false;
    *text = n.ToString();
    return true;
  }

  // The JSON payload of a tag (the part after "<type>":).
  bool Payload(uint8_t tag, int depth, Json* out);
};

const char* TypeName(uint8_t tag) {
  switch (tag) {
    case kTagS:
      return "S";
    case kTagN:
      return "N";
    case kTagB:
      return "B";
    case kTagFalse:
    case kTagTrue:
      return "BOOL";
    case kTagNull:
      return "NULL";
    case kTagM:
      return "M";
    case kTagL:
      return "L";
    case kTagSS:
      return "SS";
    case kTagNS:
      return "NS";
    case kTagBS:
      return "BS";
    default:
      return nullptr;
  }
}

bool JsonReader::Value(int depth, Json* out) {
  uint8_t tag;
  if (!Byte(&tag)) return false;
  const char* type = TypeName(tag);
  if (type == nullptr) return false;
  *out = Json(Json::value_t::object);
  auto& obj = out->get_ref<Json::object_t&>();
  auto it = obj.emplace_hint(obj.end(), type, Json());
  return Payload(tag, depth, &it->second);
}

bool JsonReader::Payload(uint8_t tag, int depth, Json* out) {
  switch (tag) {
    case kTagS: {
      std::string_view s;
      if (!Bytes(&s)) return false;
      *out = std::string(s);
      return true;
    }
    case kTagB: {
      std::string_view s;
      if (!Bytes(&s)) return false;
      *out = Base64Encode(s);
      return true;
    }
    case kTagN: {
      std::string text;
      if (!Num(&text)) return false;
      *out = std::move(text);
      return true;
    }
    case kTagFalse:
    case kTagTrue:
      *out = tag == kTagTrue;
      return true;
    case kTagNull:
      *out = true;
      return true;
    case kTagM: {
      if (depth >= kMaxDepth) return false;
      *out = Json(Json::value_t::object);
      return Map(depth + 1, &out->get_ref<Json::object_t&>());
    }
    case kTagL: {
      if (depth >= kMaxDepth) return false;
      size_t n;
      if (!Count(&n)) return false;
      *out = Json(Json::value_t::array);
      auto& list = out->get_ref<Json::array_t&>();
      list.resize(n);
      for (size_t i = 0; i < n; ++i) {
        if (!Value(depth + 1, &list[i])) return false;
      }
      return true;
    }
    case kTagSS:
    case kTagBS: {
      size_t n;
      if (!Count(&n)) return false;
      *out = Json(Json::value_t::array);
      auto& list = out->get_ref<Json::array_t&>();
      list.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        std::string_view s;
        if (!Bytes(&s)) return false;
        list.emplace_back(tag == kTagSS ? std::string(s) : Base64Encode(s));
      }
      return true;
    }
    case kTagNS: {
      size_t n;
      if (!Count(&n)) return false;
      *out = Json(Json::value_t::array);
      auto& list = out->get_ref<Json::array_t&>();
      list.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        std::string text;
        if (!Num(&text)) return false;
        list.emplace_back(std::move(text));
      }
      return true;
    }
    default:
      return false;
  }
}

bool JsonReader::Map(int depth, Json::object_t* out) {
  size_t n;
  if (!Count(&n)) return false;
  for (size_t i = 0; i < n; ++i) {
    std::string_view name;
    if (!Bytes(&name)) return false;
    // Names are stored in strictly increasing order: each must land last.
    const size_t before = out->size();
    auto it = out->emplace_hint(out->end(), std::string(name), Json());
    if (out->size() == before || std::next(it) != out->end()) return false;
    if (!Value(depth, &it->second)) return false;
  }
  return true;
}

bool JsonReader::Some(std::span<const std::string_view> names,
                      Json::object_t* out) {
  return item_format::ReadNamedAttributes(*this, names, out);
}

}  // namespace

Result<nlohmann::json> StoredAttributesToJson(
    std::string_view bytes, std::span<const std::string_view> names) {
  JsonReader reader(bytes);
  uint8_t format;
  Json out(Json::value_t::object);
  if (!reader.Byte(&format) || format != kFormat ||
      !reader.Some(names, &out.get_ref<Json::object_t&>())) {
    return Error::Internal("corrupt stored item");
  }
  return out;
}

Result<nlohmann::json> StoredItemToJson(std::string_view bytes) {
  JsonReader reader(bytes);
  uint8_t format;
  Json out(Json::value_t::object);
  if (!reader.Byte(&format) || format != kFormat ||
      !reader.Map(0, &out.get_ref<Json::object_t&>()) || !reader.at_end()) {
    return Error::Internal("corrupt stored item");
  }
  return out;
}

}  // namespace ddblab::value
