// Statement half of the PartiQL parser (see parser.h, parser_internal.h).
#include "emulator/partiql/parser.h"

#include <utility>

#include "emulator/partiql/parser_internal.h"

namespace ddblab::partiql {
namespace internal {
namespace {

// Source: paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlGrammar.test.ts (pinned on AWS).
constexpr char kAliasing[] = "Aliasing is not supported";
constexpr char kLeftover[] = "Unexpected token after expression";

}  // namespace

Result<Statement> Parser::ParseStatement() {
  Statement statement;
  const Token& first = Peek();
  if (first.kind == TokenKind::kEnd) return NotWellFormed("Unexpected term");
  if (IsKeyword("SELECT")) {
    DDBLAB_ASSIGN_OR_RETURN(statement.select, ParseSelect());
    statement.kind = Statement::Kind::kSelect;
  } else if (IsKeyword("INSERT")) {
    DDBLAB_ASSIGN_OR_RETURN(statement, ParseInsert());
  } else if (IsKeyword("UPDATE")) {
    DDBLAB_ASSIGN_OR_RETURN(statement, ParseUpdate());
  } else if (IsKeyword("DELETE")) {
    DDBLAB_ASSIGN_OR_RETURN(statement, ParseDelete());
  } else if (IsKeyword("FROM")) {
    DDBLAB_ASSIGN_OR_RETURN(statement, ParseFromFirstUpdate());
  } else if (IsKeyword("EXISTS")) {
    DDBLAB_ASSIGN_OR_RETURN(statement, ParseExistsStatement());
  } else {
    // UNVERIFIED on AWS: the text an emulator (dynoxide) pins for a
    // statement that is no data manipulation ("SLECT * FROM t").
    return NotWellFormed("Expected data manipulation");
  }
  if (!AtEnd()) return NotWellFormed(kLeftover);
  statement.parameter_count = parameters_;
  return statement;
}

Status Parser::RejectAlias() {
  if (IsKeyword("AS") || Peek().kind == TokenKind::kIdentifier ||
      Peek().kind == TokenKind::kQuotedIdentifier) {
    return Error::Validation(kAliasing);
  }
  return OkStatus();
}

Status Parser::ParseSource(SelectStmt* select) {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdentifier &&
      t.kind != TokenKind::kQuotedIdentifier) {
    return UnexpectedHere();
  }
  select->table = Take().text;
  if (TakeKind(TokenKind::kDot)) {
    const Token& index = Peek();
    if (index.kind != TokenKind::kIdentifier &&
        index.kind != TokenKind::kQuotedIdentifier) {
      return NotWellFormed("Invalid path dot component");
    }
    select->index = Take().text;
    if (Peek().kind == TokenKind::kDot) {
      // DynamoDB Local's message catalog (ValidationExceptionMessages).
      return Error::Validation(
          "A path may contain at most 2 components in the FROM clause");
    }
  }
  return RejectAlias();
}

Status Parser::ParseWhere(ExprPtr* where) {
  if (!TakeKeyword("WHERE")) return OkStatus();
  DDBLAB_ASSIGN_OR_RETURN(*where, ParseExpr());
  return OkStatus();
}

Result<SelectStmt> Parser::ParseSelect() {
  Take();  // SELECT
  SelectStmt select;
  if (IsKeyword("VALUE") || IsKeyword("PIVOT")) {
    // DynamoDB Local's message catalog (ValidationExceptionMessages).
    return Error::Validation(
        "Select projection doesn't support value or pivot keywords");
  }
  if (TakeKind(TokenKind::kStar)) {
    select.star = true;
    if (Peek().kind == TokenKind::kComma) {
      // DynamoDB Local's message catalog (ValidationExceptionMessages).
      return Error::Validation(
          "Other attributes should not be present in the projection when "
          "'*' is used.");
    }
  } else {
    while (true) {
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
      select.projection.push_back(std::move(item));
      if (IsKeyword("AS") || Peek().kind == TokenKind::kIdentifier ||
          Peek().kind == TokenKind::kQuotedIdentifier) {
        return Error::Validation(kAliasing);
      }
      if (!TakeKind(TokenKind::kComma)) break;
      if (Peek().kind == TokenKind::kStar) {
        return Error::Validation(
            "Other attributes should not be present in the projection when "
            "'*' is used.");
      }
    }
  }
  if (!TakeKeyword("FROM")) return UnexpectedHere();
  DDBLAB_RETURN_IF_ERROR(ParseSource(&select));
  DDBLAB_RETURN_IF_ERROR(ParseWhere(&select.where));
  if (IsKeyword("ORDER") && IsKeyword("BY", 1)) {
    Take();
    Take();
    while (true) {
      OrderBy order;
      DDBLAB_ASSIGN_OR_RETURN(order.key, ParseExpr());
      if (TakeKeyword("DESC")) {
        order.descending = true;
      } else {
        TakeKeyword("ASC");
      }
      select.order_by.push_back(std::move(order));
      if (!TakeKind(TokenKind::kComma)) break;
    }
  }
  return select;
}

Result<std::string> Parser::ParseDmlTarget() {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdentifier &&
      t.kind != TokenKind::kQuotedIdentifier) {
    return NotWellFormed("Expected identifier for simple path");
  }
  std::string table = Take().text;
  if (Peek().kind == TokenKind::kDot) {
    // DynamoDB Local's message catalog (ValidationExceptionMessages);
    // UNVERIFIED which of its texts AWS uses for a DML on "table"."index".
    return Error::Validation("This operation is not supported on an index");
  }
  return table;
}

Result<Returning> Parser::ParseReturning() {
  if (!TakeKeyword("RETURNING")) return Returning::kNone;
  bool all;
  if (TakeKeyword("ALL")) {
    all = true;
  } else if (TakeKeyword("MODIFIED")) {
    all = false;
  } else {
    return UnexpectedHere();
  }
  bool old_values;
  if (TakeKeyword("OLD")) {
    old_values = true;
  } else if (TakeKeyword("NEW")) {
    old_values = false;
  } else {
    return UnexpectedHere();
  }
  // Both texts: DynamoDB Local's message catalog.
  if (!TakeKind(TokenKind::kStar)) {
    return Error::Validation(
        "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING "
        "clause");
  }
  if (Peek().kind == TokenKind::kComma) {
    return Error::Validation(
        "Invalid syntax with multiple returning elements in RETURNING clause");
  }
  if (all) return old_values ? Returning::kAllOld : Returning::kAllNew;
  return old_values ? Returning::kModifiedOld : Returning::kModifiedNew;
}

Status Parser::ParseUpdateActions(std::vector<UpdateAction>* actions) {
  while (true) {
    if (TakeKeyword("SET")) {
      while (true) {
        DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
        UpdateAction action;
        action.kind = UpdateAction::Kind::kSet;
        DDBLAB_ASSIGN_OR_RETURN(action.target, ParseAdditive());
        if (!TakeKind(TokenKind::kEq)) return UnexpectedHere();
        DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
        DDBLAB_ASSIGN_OR_RETURN(action.value, ParseExpr());
        actions->push_back(std::move(action));
        if (!TakeKind(TokenKind::kComma)) break;
      }
      continue;
    }
    if (TakeKeyword("REMOVE")) {
      while (true) {
        DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
        UpdateAction action;
        action.kind = UpdateAction::Kind::kRemove;
        DDBLAB_ASSIGN_OR_RETURN(action.target, ParseAdditive());
        actions->push_back(std::move(action));
        if (!TakeKind(TokenKind::kComma)) break;
      }
      continue;
    }
    return OkStatus();
  }
}

Result<Statement> Parser::ParseInsert() {
  Take();  // INSERT
  if (!TakeKeyword("INTO")) return UnexpectedHere();
  Statement statement;
  statement.kind = Statement::Kind::kInsert;
  DDBLAB_ASSIGN_OR_RETURN(statement.insert.table, ParseDmlTarget());
  if (IsKeyword("VALUES")) {
    // DynamoDB Local's message catalog (ValidationExceptionMessages).
    return Error::Validation(
        "Unsupported operation: Inserting multiple items in a single "
        "statement is not supported, use \"INSERT INTO tableName VALUE item\" "
        "instead");
  }
  if (!TakeKeyword("VALUE")) return NotWellFormed(kLeftover);
  DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
  DDBLAB_ASSIGN_OR_RETURN(statement.insert.value, ParseExpr());
  if (IsKeyword("RETURNING")) {
    // DynamoDB Local's message catalog (ValidationExceptionMessages).
    return Error::Validation("RETURNING is not supported in INSERT");
  }
  return statement;
}

Result<Statement> Parser::ParseUpdate() {
  Take();  // UPDATE
  Statement statement;
  statement.kind = Statement::Kind::kUpdate;
  DDBLAB_ASSIGN_OR_RETURN(statement.update.table, ParseDmlTarget());
  DDBLAB_RETURN_IF_ERROR(RejectAlias());
  DDBLAB_RETURN_IF_ERROR(ParseUpdateActions(&statement.update.actions));
  if (statement.update.actions.empty()) return UnexpectedHere();
  DDBLAB_RETURN_IF_ERROR(ParseWhere(&statement.update.where));
  DDBLAB_ASSIGN_OR_RETURN(statement.update.returning, ParseReturning());
  return statement;
}

Result<Statement> Parser::ParseFromFirstUpdate() {
  Take();  // FROM
  Statement statement;
  statement.kind = Statement::Kind::kUpdate;
  SelectStmt source;
  DDBLAB_RETURN_IF_ERROR(ParseSource(&source));
  if (source.index) {
    return Error::Validation("This operation is not supported on an index");
  }
  statement.update.table = source.table;
  DDBLAB_RETURN_IF_ERROR(ParseWhere(&statement.update.where));
  DDBLAB_RETURN_IF_ERROR(ParseUpdateActions(&statement.update.actions));
  if (statement.update.actions.empty()) return UnexpectedHere();
  DDBLAB_ASSIGN_OR_RETURN(statement.update.returning, ParseReturning());
  return statement;
}

Result<Statement> Parser::ParseDelete() {
  Take();  // DELETE
  if (!TakeKeyword("FROM")) return UnexpectedHere();
  Statement statement;
  statement.kind = Statement::Kind::kDelete;
  DDBLAB_ASSIGN_OR_RETURN(statement.del.table, ParseDmlTarget());
  DDBLAB_RETURN_IF_ERROR(RejectAlias());
  DDBLAB_RETURN_IF_ERROR(ParseWhere(&statement.del.where));
  DDBLAB_ASSIGN_OR_RETURN(statement.del.returning, ParseReturning());
  return statement;
}

Result<Statement> Parser::ParseExistsStatement() {
  Take();  // EXISTS
  if (!TakeKind(TokenKind::kLeftParen)) return UnexpectedHere();
  if (!IsKeyword("SELECT")) return UnexpectedHere();
  Statement statement;
  statement.kind = Statement::Kind::kExists;
  DDBLAB_ASSIGN_OR_RETURN(statement.select, ParseSelect());
  if (!TakeKind(TokenKind::kRightParen)) return UnexpectedHere();
  return statement;
}

}  // namespace internal

Result<Statement> Parse(std::string_view text) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  // One trailing semicolon ends the statement (recorded on DynamoDB Local:
  // "a statement that ends with a semicolon").
  if (tokens.size() >= 2 &&
      tokens[tokens.size() - 2].kind == TokenKind::kSemicolon) {
    tokens.erase(tokens.end() - 2);
  }
  internal::Parser parser(std::move(tokens));
  return parser.ParseStatement();
}

}  // namespace ddblab::partiql
