// emulator/partiql/translate_internal.h: helpers shared by translate.cc
// (SELECT) and translate_write.cc (INSERT, UPDATE, DELETE, EXISTS). Internal
// to emulator/partiql.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/literal.h"
#include "emulator/partiql/table_info.h"
#include "emulator/partiql/translate.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::partiql::internal {

// The top-level AND operands of `where` (nothing for a null where).
std::vector<const Expr*> Conjuncts(const Expr* where);

// If `e` is `<attribute> = <value>` (either way round), the value.
const Expr* EqualityValue(const Expr& e, const std::string& attribute);

// Checks a key value against the table's declared type.
Status CheckKeyValue(const TableInfo& table, const std::string& attribute,
                     const value::AttributeValue& value);

// Splits a write's WHERE into the item key and the other conditions.
struct KeyAndRest {
  value::Item key;
  std::vector<const Expr*> rest;
};
Result<KeyAndRest> KeyFromWhere(const Expr* where, const TableInfo& table,
                                const ValueBuilder& values);

// "Where clause does not contain a mandatory equality on all key
// attributes" (pinned on AWS: paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlGrammar.test.ts).
Error IncompleteKey();

Result<Plan> TranslateSelect(const SelectStmt& select, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options);
Result<Plan> TranslateInsert(const InsertStmt& insert, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options);
Result<Plan> TranslateUpdate(const UpdateStmt& update, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options);
Result<Plan> TranslateDelete(const DeleteStmt& del, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options);
Result<Plan> TranslateExists(const SelectStmt& select, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options);

}  // namespace ddblab::partiql::internal
