// emulator/engine/table_arn.h: the one resolver of a TableName parameter that
// is a table ARN ("arn:aws:dynamodb:<region>:<account>:table/<name>"), which
// DynamoDB accepts wherever it takes an existing table's name (every data-
// and control-plane operation since 2024; not CreateTable).
//
// Three steps, each in one place:
//   1. Shape (RequestParser::CheckTableNameOrArn, no emulator needed):
//      TableArnShapeError gives the constraint DynamoDB reports for a
//      malformed ARN, in its "Value '<arn>' at 'tableName' failed to satisfy
//      constraint: ..." form.
//   2. Scope (EmulatorImpl's call entry, before the handler):
//      CheckRequestTableArns walks the request's table names (TableName,
//      BatchGetItem / BatchWriteItem RequestItems keys, TransactItems'
//      TableName) and refuses an ARN of another partition, account or
//      Region with DynamoDB's error, naming the operation.
//   3. Lookup (EmulatorImpl::FindTable): an ARN of this account and Region
//      names the table <name>.
// Output fields that name the table (ConsumedCapacity.TableName, the keys of
// Responses / UnprocessedKeys / UnprocessedItems) echo the request's string,
// so a caller that sent an ARN reads the ARN back, as on DynamoDB.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"

namespace ddblab::engine {

// The parts of "arn:<partition>:<service>:<region>:<account>:<type>/<name>".
struct TableArnParts {
  std::string partition;
  std::string service;
  std::string region;
  std::string account;
  std::string name;
};

// Whether a TableName parameter is an ARN (starts with "arn:").
bool LooksLikeArn(std::string_view table_name);

// The constraint a malformed table ARN fails (the text after "failed to
// satisfy constraint: "), or nullopt when `arn` is a well-formed table ARN.
std::optional<std::string> TableArnShapeError(std::string_view arn);

// The parts of a well-formed table ARN; nullopt when TableArnShapeError
// finds fault with it.
std::optional<TableArnParts> ParseTableArn(std::string_view arn);

// DynamoDB's error for a well-formed table ARN of another partition, account
// or Region than this emulator's (`operation` names the action in the
// AccessDeniedException); ok for one of this account and Region.
Status CheckTableArnScope(Operation operation, std::string_view arn,
                          std::string_view region, std::string_view account);

// CheckTableArnScope for every table name of `request` that is a
// well-formed ARN (malformed ones are the parser's to report). Not for
// CreateTable, whose TableName is a new name.
Status CheckRequestTableArns(Operation operation, const nlohmann::json& request,
                             std::string_view region, std::string_view account);

}  // namespace ddblab::engine
