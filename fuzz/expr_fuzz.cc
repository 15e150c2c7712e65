// fuzz/expr_fuzz.cc: every expression kind on arbitrary bytes.
//
// The input is parsed as a condition (then evaluated on a fixed item and on
// a missing item), an update (then applied), a projection (then applied) and
// a key condition (then matched). Nothing may crash, hang or leak; every
// failure must be a clean Error.
//
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz-expr -DDDBLAB_FUZZ=ON
//   cmake --build build-fuzz-expr --target expr_fuzz
//   ./build-fuzz-expr/fuzz/expr_fuzz -max_total_time=30
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "emulator/expr/expr.h"
#include "emulator/value/codec.h"

namespace {

using namespace ddblab;        // NOLINT
using namespace ddblab::expr;  // NOLINT

const nlohmann::json& Names() {
  static const nlohmann::json names = {
      {"#a", "a"}, {"#b", "b.c"}, {"#c", "pk"}, {"#d", "l"}, {"#e", "m"}};
  return names;
}

const nlohmann::json& Values() {
  static const nlohmann::json values = nlohmann::json::parse(R"({
    ":a": {"S": "ab"}, ":b": {"N": "1"}, ":c": {"L": [{"N": "1"}, {"S": "x"}]},
    ":d": {"SS": ["x", "y"]}, ":e": {"M": {"k": {"N": "2"}}},
    ":f": {"NS": ["1", "9e125"]}, ":g": {"B": "YQ=="}, ":h": {"BOOL": true},
    ":i": {"NULL": true}, ":j": {"N": "9e125"}, ":k": {"BS": ["YQ=="]},
    ":l": {"S": "N"}})");
  return values;
}

const value::Item& FixedItem() {
  static const value::Item item =
      std::move(value::DecodeItem(nlohmann::json::parse(R"({
        "pk": {"S": "p"}, "sk": {"N": "5"}, "a": {"N": "3"},
        "b.c": {"S": "dotted"}, "s": {"S": "abc"},
        "l": {"L": [{"N": "1"}, {"L": [{"S": "x"}]}, {"M": {"q": {"N": "1"}}}]},
        "m": {"M": {"k": {"N": "2"}, "n": {"M": {"o": {"SS": ["x"]}}}}},
        "ss": {"SS": ["x", "y"]}, "ns": {"NS": ["1", "2"]},
        "bs": {"BS": ["YQ=="]}, "t": {"BOOL": false}, "z": {"NULL": true}})")))
          .value();
  return item;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ph = Placeholders::Create(&Names(), &Values());
  if (!ph.ok()) __builtin_trap();

  for (ExpressionKind kind :
       {ExpressionKind::kCondition, ExpressionKind::kFilter}) {
    auto c = ParseCondition(text, kind, *ph);
    if (c.ok()) {
      (void)EvaluateCondition(*c, FixedItem());
      (void)EvaluateCondition(*c, value::Item());
      (void)ReferencedPaths(c->root);
    } else if (c.error().message.empty()) {
      __builtin_trap();
    }
  }

  auto u = ParseUpdate(text, *ph);
  if (u.ok()) {
    auto applied = ApplyUpdate(*u, FixedItem());
    if (applied.ok()) (void)ApplyUpdate(*u, *applied);
    (void)ApplyUpdate(*u, value::Item());
    (void)UpdateTargets(*u);
    (void)CheckUpdateKeyTargets(*u, {"pk", "sk"});
  }

  auto p = ParseProjection(text, *ph);
  if (p.ok()) {
    (void)Project(*p, FixedItem());
    std::vector<const DocumentPath*> paths;
    for (const DocumentPath& path : p->paths) paths.push_back(&path);
    (void)CheckNestedKeyPaths(paths, {"pk"}, {"sk"});
  }

  KeySchemaInfo schema;
  schema.hash_name = "pk";
  schema.hash_type = value::AttributeValue::Type::kS;
  schema.range_name = "sk";
  schema.range_type = value::AttributeValue::Type::kN;
  auto k = ParseKeyCondition(text, *ph, schema);
  if (k.ok() && k->range) {
    (void)RangeMatches(*k->range, FixedItem().at("sk"));
  }
  (void)ph->CheckAllUsed();
  return 0;
}
