// emulator/partiql/literal.h: PartiQL values -> DynamoDB AttributeValues.
//
// Turns literal expressions ('text', 12.5, true, null, [..], {'k': ..},
// <<..>>) and '?' parameters into value::AttributeValues, with DynamoDB's
// PartiQL errors: a value is assembled as AttributeValue JSON ({"S":
// "text"}, a parameter as the request gave it) and decoded once by the wire
// codec, whose checks are DynamoDB's (set duplicates, nesting, names). A number
// that breaks DynamoDB's number rules gets the ordinary number message with the
// place inside the value appended: "Number overflow. ... under root", "...
// under root.x",
// "... under root[1]" (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlGrammar.test.ts, pinned on AWS).
//
// Thread-safety: a ValueBuilder is used by one thread; it only reads the
// parameters it was given (which must outlive it).
#pragma once

#include <nlohmann/json.hpp>

#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::partiql {

// Checks a request's Parameters (a JSON array of AttributeValues) in order,
// as DynamoDB does before it runs the statement; the first bad one decides
// the error (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts).
Status ValidateParameters(const nlohmann::json& parameters);

// "Number of parameters in request and statement don't match." (moto and
// DynamoDB Local's message catalog; DynamoDB Local accepts extra parameters
// and fails only when a '?' has no value, which is what we do.)
Error ParameterCountMismatch();

class ValueBuilder {
 public:
  // `parameters` is the validated Parameters array (or null when absent).
  explicit ValueBuilder(const nlohmann::json& parameters)
      : parameters_(parameters) {}

  // True for the expressions Build() accepts as a whole value: literals
  // other than MISSING, parameters, and list/bag/tuple constructors.
  static bool IsValue(const Expr& e);

  // The AttributeValue of `e`, validated as DynamoDB validates attribute
  // values.
  Result<value::AttributeValue> Build(const Expr& e) const;

 private:
  Result<nlohmann::json> BuildAt(const Expr& e, const std::string& path) const;
  Result<nlohmann::json> BuildBag(const Expr& e, const std::string& path) const;

  const nlohmann::json& parameters_;
};

}  // namespace ddblab::partiql
