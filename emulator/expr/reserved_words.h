// emulator/expr/reserved_words.h: DynamoDB's reserved words.
//
// A reserved word used as a bare attribute name in any expression is an
// error ("Attribute name is a reserved keyword; reserved keyword: <word>").
// The list is the 573-word table DynamoDB publishes ("Reserved words in
// DynamoDB").
//
// Thread-safety: stateless functions over constant data.
#pragma once

#include <cstddef>
#include <string_view>

namespace ddblab::expr {

// Case-insensitive: "status", "Status" and "STATUS" are all reserved.
bool IsReservedWord(std::string_view name);

// Number of words in the table (573).
size_t ReservedWordCount();

}  // namespace ddblab::expr
