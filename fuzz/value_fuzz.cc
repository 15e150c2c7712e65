// fuzz/value_fuzz.cc: libFuzzer target for the value layer.
//
// The input is tried as DynamoDB JSON (item and single value: decode, encode,
// decode again, must be equal and re-encode identically), as a Number text
// (parse, print, re-parse must be equal; key encoding must round-trip) and as
// stored item bytes (deserialize must fail cleanly or round-trip).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "emulator/value/key_codec.h"

namespace {

using ddblab::value::AttributeValue;
using ddblab::value::Item;
using ddblab::value::Number;

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckItemRoundTrip(const Item& item) {
  const nlohmann::json encoded = ddblab::value::EncodeItem(item);
  auto again = ddblab::value::DecodeItem(encoded);
  Check(again.ok());
  Check(*again == item);
  Check(ddblab::value::EncodeItem(*again) == encoded);
  const std::string bytes = ddblab::value::SerializeItem(item);
  auto stored = ddblab::value::DeserializeItem(bytes);
  Check(stored.ok());
  Check(*stored == item);
  Check(ddblab::value::SerializeItem(*stored) == bytes);
  (void)ddblab::value::ItemSize(item);
}

void FuzzJson(std::string_view data) {
  // Only the decoded values are copied or re-encoded, and they nest at most
  // 32 levels: deep input JSON is parsed and destroyed without recursion.
  const nlohmann::json json =
      nlohmann::json::parse(data.begin(), data.end(), nullptr, false);
  if (json.is_discarded()) return;
  auto item = ddblab::value::DecodeItem(json);
  if (item.ok()) CheckItemRoundTrip(*item);
  auto value = ddblab::value::DecodeAttributeValue(json);
  if (value.ok()) {
    const nlohmann::json encoded = ddblab::value::EncodeAttributeValue(*value);
    auto again = ddblab::value::DecodeAttributeValue(encoded);
    Check(again.ok());
    Check(*again == *value);
    CheckItemRoundTrip(Item{{"v", *value}});
    if (value->is_scalar()) {
      const std::string key = ddblab::value::EncodeKey(*value);
      auto back = ddblab::value::DecodeKey(value->type(), key);
      Check(back.ok());
      Check(*back == *value);
    }
  }
}

void FuzzNumber(std::string_view data) {
  auto n = Number::Parse(data);
  if (!n.ok()) return;
  const std::string text = n->ToString();
  auto again = Number::Parse(text);
  Check(again.ok());
  Check(*again == *n);
  Check(again->ToString() == text);
  const std::string key = ddblab::value::EncodeNumberKey(*n);
  auto back = ddblab::value::DecodeKey(AttributeValue::Type::kN, key);
  Check(back.ok());
  Check(back->n() == *n);
  // Arithmetic identities that always hold when the results are in range.
  auto doubled = Number::Add(*n, *n);
  if (doubled.ok()) {
    auto back_n = Number::Subtract(*doubled, *n);
    Check(back_n.ok() && *back_n == *n);
    Check(n->is_negative() ? *doubled < *n : *doubled >= *n);
  }
  auto zero = Number::Subtract(*n, *n);
  Check(zero.ok() && zero->is_zero());
  (void)n->ToInt64();
  (void)n->FloorToInt64();
  (void)n->ToDouble();
}

void FuzzStoredBytes(std::string_view data) {
  auto item = ddblab::value::DeserializeItem(data);
  if (!item.ok()) return;
  const std::string bytes = ddblab::value::SerializeItem(*item);
  auto again = ddblab::value::DeserializeItem(bytes);
  Check(again.ok());
  Check(*again == *item);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  FuzzJson(input);
  FuzzNumber(input);
  FuzzStoredBytes(input);
  return 0;
}
