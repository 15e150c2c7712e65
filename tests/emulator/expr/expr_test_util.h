// tests/emulator/expr/expr_test_util.h: helpers shared by the expression
// tests: values and items from DynamoDB JSON, placeholders, and exact error
// assertions.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/expr/expr.h"
#include "emulator/value/codec.h"

namespace ddblab::expr::testing {

inline value::AttributeValue V(std::string_view json) {
  auto r = value::DecodeAttributeValue(nlohmann::json::parse(json));
  EXPECT_TRUE(r.ok()) << json;
  return r.ok() ? *r : value::AttributeValue();
}

inline value::AttributeValue S(std::string s) {
  return value::AttributeValue::S(std::move(s));
}

inline value::AttributeValue N(std::string_view text) {
  auto n = value::Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return value::AttributeValue::N(n.ok() ? *n : value::Number());
}

inline value::Item ItemOf(std::string_view json) {
  auto r = value::DecodeItem(nlohmann::json::parse(json));
  EXPECT_TRUE(r.ok()) << json << (r.ok() ? "" : ToString(r.error()));
  return r.ok() ? *r : value::Item();
}

inline std::string Json(const value::Item& item) {
  return value::EncodeItem(item).dump();
}

// Placeholders from JSON texts ("" = absent).
inline Placeholders Ph(std::string_view names, std::string_view values = "") {
  nlohmann::json n, v;
  if (!names.empty()) n = nlohmann::json::parse(names);
  if (!values.empty()) v = nlohmann::json::parse(values);
  auto r = Placeholders::Create(names.empty() ? nullptr : &n,
                                values.empty() ? nullptr : &v);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : ToString(r.error()));
  return r.ok() ? std::move(r).value() : Placeholders();
}

template <class T>
::testing::AssertionResult IsError(const Result<T>& r, ErrorType type,
                                   std::string_view message) {
  if (r.ok()) return ::testing::AssertionFailure() << "succeeded";
  if (r.error().type != type || r.error().message != message) {
    return ::testing::AssertionFailure()
           << "got " << ToString(r.error()) << "\nwant " << ErrorTypeName(type)
           << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

template <class T>
::testing::AssertionResult IsValidation(const Result<T>& r,
                                        std::string_view message) {
  return IsError(r, ErrorType::kValidation, message);
}

}  // namespace ddblab::expr::testing
