// bench/value_bench.cc: the value layer's hot paths — wire codec, storage
// codec, number parsing and key encoding — on a ~1 KB item.
#include <benchmark/benchmark.h>

#include <string>

#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "emulator/value/key_codec.h"

namespace {

using ddblab::value::AttributeValue;
using ddblab::value::Item;
using ddblab::value::Number;
using Json = nlohmann::json;

// A realistic ~1 KB item: keys, scalars, a nested map, a list and sets.
const std::string& SampleText() {
  static const std::string text = R"({
    "pk": {"S": "tenant#42#user#0000001234"},
    "sk": {"S": "order#2024-05-21T10:15:30.123Z#000017"},
    "amount": {"N": "1234.5678"},
    "quantity": {"N": "17"},
    "expires_at": {"N": "1716286530"},
    "status": {"S": "SHIPPED"},
    "active": {"BOOL": true},
    "deleted": {"NULL": true},
    "checksum": {"B": "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f"},
    "tags": {"SS": ["priority", "gift", "international", "fragile"]},
    "scores": {"NS": ["1.5", "-2", "3.25e10", "0.0001", "42"]},
    "address": {"M": {
      "street": {"S": "1600 Amphitheatre Parkway"},
      "city": {"S": "Mountain View"},
      "zip": {"S": "94043"},
      "geo": {"M": {"lat": {"N": "37.4220936"}, "lng": {"N": "-122.083922"}}}
    }},
    "lines": {"L": [
      {"M": {"sku": {"S": "SKU-000001"}, "qty": {"N": "2"}, "price": {"N": "19.99"}}},
      {"M": {"sku": {"S": "SKU-000002"}, "qty": {"N": "1"}, "price": {"N": "249.00"}}},
      {"M": {"sku": {"S": "SKU-000003"}, "qty": {"N": "5"}, "price": {"N": "3.5"}}},
      {"M": {"sku": {"S": "SKU-000004"}, "qty": {"N": "1"}, "price": {"N": "1200"}}}
    ]},
    "note": {"S": "Leave the parcel with the neighbour at number 12 if nobody answers the door; call ahead between 9 and 5."},
    "history": {"L": [{"S": "created"}, {"S": "paid"}, {"S": "packed"}, {"S": "shipped"}]},
    "description": {"S": "A sturdy, water-resistant travel backpack with a padded laptop sleeve, two side pockets for bottles, a hidden anti-theft pocket on the back panel, compression straps, a luggage pass-through and a lifetime warranty. Made from recycled polyester; colour: forest green; capacity: 30 litres; weight: 1.2 kg. Ships in recyclable packaging with a printed care guide and the receipt."},
    "counters": {"M": {"views": {"N": "123456"}, "likes": {"N": "789"}, "shares": {"N": "12"}, "ratio": {"N": "0.0064"}}},
    "audit": {"M": {"created_by": {"S": "svc-orders"}, "updated_by": {"S": "svc-fulfilment"}, "version": {"N": "7"}}}
  })";
  return text;
}

const Item& SampleItem() {
  static const Item item =
      *ddblab::value::DecodeItem(Json::parse(SampleText()));
  return item;
}

void BM_JsonParseOnly(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(Json::parse(SampleText()));
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(SampleText().size()));
}
BENCHMARK(BM_JsonParseOnly);

void BM_DecodeItem(benchmark::State& state) {
  const Json json = Json::parse(SampleText());
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::DecodeItem(json));
  }
}
BENCHMARK(BM_DecodeItem);

void BM_EncodeItem(benchmark::State& state) {
  const Item& item = SampleItem();
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::EncodeItem(item));
  }
}
BENCHMARK(BM_EncodeItem);

void BM_TextToItemToText(benchmark::State& state) {
  for (auto _ : state) {
    Json json = Json::parse(SampleText());
    auto item = ddblab::value::DecodeItem(json);
    benchmark::DoNotOptimize(ddblab::value::EncodeItem(*item).dump());
  }
}
BENCHMARK(BM_TextToItemToText);

void BM_SerializeItem(benchmark::State& state) {
  const Item& item = SampleItem();
  size_t bytes = 0;
  for (auto _ : state) {
    std::string s = ddblab::value::SerializeItem(item);
    bytes = s.size();
    benchmark::DoNotOptimize(s);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["item_size"] =
      static_cast<double>(ddblab::value::ItemSize(item));
}
BENCHMARK(BM_SerializeItem);

void BM_DeserializeItem(benchmark::State& state) {
  const std::string bytes = ddblab::value::SerializeItem(SampleItem());
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::DeserializeItem(bytes));
  }
}
BENCHMARK(BM_DeserializeItem);

void BM_ItemSize(benchmark::State& state) {
  const Item& item = SampleItem();
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::ItemSize(item));
  }
}
BENCHMARK(BM_ItemSize);

void BM_NumberParse(benchmark::State& state) {
  const char* texts[] = {"17", "-1234.5678", "3.25e10",
                         "12345678901234567890123456789012345678"};
  const char* text = texts[state.range(0)];
  state.SetLabel(text);
  for (auto _ : state) {
    benchmark::DoNotOptimize(Number::Parse(text));
  }
}
BENCHMARK(BM_NumberParse)->DenseRange(0, 3);

void BM_NumberToString(benchmark::State& state) {
  const Number n = *Number::Parse("-1234.5678");
  for (auto _ : state) {
    benchmark::DoNotOptimize(n.ToString());
  }
}
BENCHMARK(BM_NumberToString);

void BM_NumberAdd(benchmark::State& state) {
  const Number a = *Number::Parse("1234.5678");
  const Number b = *Number::Parse("-17");
  for (auto _ : state) {
    benchmark::DoNotOptimize(Number::Add(a, b));
  }
}
BENCHMARK(BM_NumberAdd);

void BM_EncodeNumberKey(benchmark::State& state) {
  const Number n = *Number::Parse("-1234.5678");
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::EncodeNumberKey(n));
  }
}
BENCHMARK(BM_EncodeNumberKey);

void BM_EncodeStringKey(benchmark::State& state) {
  const AttributeValue v = SampleItem().at("sk");
  for (auto _ : state) {
    benchmark::DoNotOptimize(ddblab::value::EncodeKey(v));
  }
}
BENCHMARK(BM_EncodeStringKey);

}  // namespace

BENCHMARK_MAIN();
