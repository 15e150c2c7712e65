// emulator/value/number.h: DynamoDB's Number, an exact decimal.
//
// Up to 38 significant digits, magnitude 1E-130 .. 9.99..9E+125 (38 nines),
// both signs, and zero. Stored as sign + 128-bit coefficient + base-10
// exponent, normalised (no trailing zeros in the coefficient; zero is
// coefficient 0, exponent 0, non-negative), so equal values have equal
// representations and `==` is value equality ("1" == "1.0" == "1e0").
//
// Parsing and arithmetic report DynamoDB's exact ValidationException texts
// (DynamoDB's data model).
//
// Thread-safety: an immutable value type.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::value {

__extension__ using Uint128 = unsigned __int128;

class Number {
 public:
  static constexpr int kMaxDigits = 38;
  // The smallest and largest allowed exponents of the leading digit:
  // 1E-130 and 9.99..E+125.
  static constexpr int kMinMagnitudeExponent = -130;
  static constexpr int kMaxMagnitudeExponent = 125;

  Number() = default;  // zero

  // Parses DynamoDB's accepted syntax: optional sign, digits with an
  // optional point (".5", "5.", "0001.23"), optional exponent ("1e+5").
  // Errors (ValidationException):
  //   ""        -> "The parameter cannot be converted to a numeric value"
  //   "dog"     -> "The parameter cannot be converted to a numeric value: dog"
  //   39 digits -> "Attempting to store more than 38 significant digits in a
  //   Number" 1e126     -> "Number overflow. Attempting to store a number with
  //   magnitude larger than supported range" 1e-131    -> "Number underflow.
  //   Attempting to store a number with magnitude smaller than supported range"
  static Result<Number> Parse(std::string_view text);

  static Number FromInt64(int64_t v);

  // The number (negative ? -1 : 1) * coefficient * 10^exponent, normalised.
  // Any coefficient and exponent are accepted (trailing zeros are stripped);
  // a value out of range or with more than 38 significant digits gives the
  // same errors as Parse.
  static Result<Number> FromParts(bool negative, Uint128 coefficient,
                                  int64_t exponent);

  // Exact sum/difference; overflow, underflow and results needing more than
  // 38 digits are errors with DynamoDB's texts.
  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);

  // Canonical form DynamoDB returns: plain decimal notation, no exponent, no
  // leading zeros (but "0.5"), no trailing fractional zeros, no '+', and "0"
  // for zero.
  std::string ToString() const;

  bool is_zero() const { return coefficient_ == 0; }
  bool is_negative() const { return negative_; }
  // Number of significant digits of the coefficient (0 for zero).
  int significant_digits() const;
  Uint128 coefficient() const { return coefficient_; }
  int exponent() const { return exponent_; }

  // The value if it is an integer that fits in int64_t.
  std::optional<int64_t> ToInt64() const;
  // The value rounded toward negative infinity, saturated to int64_t.
  int64_t FloorToInt64() const;
  // Nearest double (for approximate uses only, never for storage).
  double ToDouble() const;

  friend bool operator==(const Number& a, const Number& b) = default;
  friend std::strong_ordering operator<=>(const Number& a, const Number& b);

 private:
  Number(bool negative, Uint128 coefficient, int exponent);

  bool negative_ = false;
  Uint128 coefficient_ = 0;
  int exponent_ = 0;  // value = (negative ? -1 : 1) * coefficient * 10^exponent
};

}  // namespace ddblab::value
