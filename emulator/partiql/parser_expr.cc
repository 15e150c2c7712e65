// Expression half of the PartiQL parser (see parser_internal.h).
#include <cctype>
#include <string>
#include <utility>

#include "emulator/partiql/parser_internal.h"

namespace ddblab::partiql::internal {
namespace {

ExprPtr NewExpr(ExprKind kind, Position pos) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = pos;
  return e;
}

ExprPtr Binary(BinaryOp op, Position pos, ExprPtr left, ExprPtr right) {
  ExprPtr e = NewExpr(ExprKind::kBinary, pos);
  e->op = op;
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  return e;
}

std::string Lower(std::string s) {
  for (char& c : s) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

std::string Upper(std::string s) {
  for (char& c : s) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return s;
}

bool IsOperatorToken(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
    case TokenKind::kStar:
    case TokenKind::kSlash:
    case TokenKind::kPercent:
    case TokenKind::kConcat:
      return true;
    default:
      return false;
  }
}

// Keywords that are infix operators: a term can't start with them.
bool IsOperatorKeyword(const std::string& word) {
  return word == "AND" || word == "OR" || word == "IS" || word == "IN" ||
         word == "LIKE" || word == "BETWEEN";
}

// PartiQL's type names after IS (single-word ones).
bool IsTypeWord(const std::string& upper) {
  static const char* const kTypes[] = {
      "MISSING",  "NULL",      "BOOL",  "BOOLEAN",   "SMALLINT", "INT2",
      "INTEGER2", "INT",       "INT4",  "INTEGER4",  "INTEGER",  "INT8",
      "INTEGER8", "BIGINT",    "FLOAT", "REAL",      "DECIMAL",  "DEC",
      "NUMERIC",  "TIMESTAMP", "CHAR",  "CHARACTER", "VARCHAR",  "STRING",
      "SYMBOL",   "CLOB",      "BLOB",  "STRUCT",    "TUPLE",    "LIST",
      "SEXP",     "BAG",       "DATE",  "TIME",      "ANY"};
  for (const char* t : kTypes) {
    if (upper == t) return true;
  }
  return false;
}

}  // namespace

Error Parser::UnexpectedHere() const {
  const Token& t = Peek();
  if (t.kind == TokenKind::kKeyword) {
    if (IsOperatorKeyword(t.text)) return NotWellFormed("Unexpected operator");
    return NotWellFormed("Unexpected keyword");
  }
  if (IsOperatorToken(t.kind)) return NotWellFormed("Unexpected operator");
  return NotWellFormed("Unexpected term");
}

Status Parser::NeedRightHandSide() const {
  if (AtEnd()) {
    return NotWellFormed(
        "Missing right-hand side expression of infix operator");
  }
  return OkStatus();
}

Status Parser::Enter() {
  if (depth_ >= kMaxDepth) {
    // DynamoDB's nesting-limit text for PartiQL (literal.cc); no AWS capture
    // exists for an over-deep statement, so the closest known message.
    return Error::Validation(
        "Nesting Levels have exceeded supported limits: Attributes in the "
        "item have nested levels beyond supported limit");
  }
  ++depth_;
  return OkStatus();
}

Result<ExprPtr> Parser::ParseExpr() {
  DDBLAB_RETURN_IF_ERROR(Enter());
  Result<ExprPtr> e = ParseOr();
  Leave();
  return e;
}

Result<ExprPtr> Parser::ParseOr() {
  DDBLAB_ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
  while (IsKeyword("OR")) {
    Position pos = Take().pos;
    DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
    left = Binary(BinaryOp::kOr, pos, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseAnd() {
  DDBLAB_ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
  while (IsKeyword("AND")) {
    Position pos = Take().pos;
    DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
    left = Binary(BinaryOp::kAnd, pos, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseNot() {
  if (IsKeyword("NOT")) {
    Position pos = Take().pos;
    DDBLAB_RETURN_IF_ERROR(Enter());
    Result<ExprPtr> parsed = ParseNot();
    Leave();
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr operand, std::move(parsed));
    ExprPtr e = NewExpr(ExprKind::kNot, pos);
    e->args.push_back(std::move(operand));
    return e;
  }
  return ParsePredicate();
}

Result<ExprPtr> Parser::ParsePredicate() {
  DDBLAB_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  while (true) {
    const Token& t = Peek();
    BinaryOp op;
    bool comparison = true;
    switch (t.kind) {
      case TokenKind::kEq:
        op = BinaryOp::kEq;
        break;
      case TokenKind::kNe:
        op = BinaryOp::kNe;
        break;
      case TokenKind::kLt:
        op = BinaryOp::kLt;
        break;
      case TokenKind::kLe:
        op = BinaryOp::kLe;
        break;
      case TokenKind::kGt:
        op = BinaryOp::kGt;
        break;
      case TokenKind::kGe:
        op = BinaryOp::kGe;
        break;
      default:
        comparison = false;
        op = BinaryOp::kEq;
    }
    if (comparison) {
      Position pos = Take().pos;
      DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
      left = Binary(op, pos, std::move(left), std::move(right));
      continue;
    }
    if (IsKeyword("IS")) {
      Token is_token = Take();
      DDBLAB_ASSIGN_OR_RETURN(left, ParseIs(std::move(left), is_token));
      continue;
    }
    bool negated = false;
    if (IsKeyword("NOT") && (IsKeyword("IN", 1) || IsKeyword("BETWEEN", 1) ||
                             IsKeyword("LIKE", 1))) {
      Take();
      negated = true;
    }
    if (IsKeyword("IN")) {
      Token op_token = Take();
      DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
      DDBLAB_ASSIGN_OR_RETURN(left,
                              ParseInRight(std::move(left), negated, op_token));
      continue;
    }
    if (IsKeyword("BETWEEN")) {
      Position pos = Take().pos;
      DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr low, ParseAdditive());
      if (!TakeKeyword("AND")) return UnexpectedHere();
      DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr high, ParseAdditive());
      ExprPtr e = NewExpr(ExprKind::kBetween, pos);
      e->negated = negated;
      e->args.push_back(std::move(left));
      e->args.push_back(std::move(low));
      e->args.push_back(std::move(high));
      left = std::move(e);
      continue;
    }
    if (IsKeyword("LIKE")) {
      Position pos = Take().pos;
      DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
      left = Binary(BinaryOp::kLike, pos, std::move(left), std::move(right));
      if (negated) {
        ExprPtr e = NewExpr(ExprKind::kNot, pos);
        e->args.push_back(std::move(left));
        left = std::move(e);
      }
      continue;
    }
    return left;
  }
}

Result<ExprPtr> Parser::ParseIs(ExprPtr value, const Token& is_token) {
  bool negated = TakeKeyword("NOT");
  const Token& t = Peek();
  std::string type;
  if (t.kind == TokenKind::kKeyword || t.kind == TokenKind::kIdentifier) {
    std::string upper = Upper(t.text);
    if (upper == "DOUBLE" && Upper(Peek(1).text) == "PRECISION") {
      Take();
      type = "DOUBLE PRECISION";
    } else if (upper == "CHARACTER" && Upper(Peek(1).text) == "VARYING") {
      Take();
      type = "CHARACTER VARYING";
    } else if (IsTypeWord(upper)) {
      type = upper;
    }
  }
  if (type.empty()) return NotWellFormed("Expected type name");
  Take();
  ExprPtr e = NewExpr(ExprKind::kIs, is_token.pos);
  e->negated = negated;
  e->type_name = type;
  e->args.push_back(std::move(value));
  return e;
}

Result<ExprPtr> Parser::ParseInRight(ExprPtr value, bool negated,
                                     const Token& op) {
  ExprPtr operands;
  if (Peek().kind == TokenKind::kLeftParen) {
    Take();
    DDBLAB_ASSIGN_OR_RETURN(
        operands, ParseSequence(ExprKind::kList, TokenKind::kRightParen));
  } else {
    DDBLAB_ASSIGN_OR_RETURN(operands, ParseAdditive());
  }
  ExprPtr e = NewExpr(ExprKind::kIn, op.pos);
  e->negated = negated;
  e->args.push_back(std::move(value));
  e->args.push_back(std::move(operands));
  return e;
}

Result<ExprPtr> Parser::ParseAdditive() {
  DDBLAB_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (true) {
    BinaryOp op;
    TokenKind kind = Peek().kind;
    if (kind == TokenKind::kPlus) {
      op = BinaryOp::kAdd;
    } else if (kind == TokenKind::kMinus) {
      op = BinaryOp::kSub;
    } else if (kind == TokenKind::kConcat) {
      op = BinaryOp::kConcat;
    } else {
      return left;
    }
    Position pos = Take().pos;
    DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    left = Binary(op, pos, std::move(left), std::move(right));
  }
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  DDBLAB_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (true) {
    BinaryOp op;
    TokenKind kind = Peek().kind;
    if (kind == TokenKind::kStar) {
      op = BinaryOp::kMul;
    } else if (kind == TokenKind::kSlash) {
      op = BinaryOp::kDiv;
    } else if (kind == TokenKind::kPercent) {
      op = BinaryOp::kMod;
    } else {
      return left;
    }
    Position pos = Take().pos;
    DDBLAB_RETURN_IF_ERROR(NeedRightHandSide());
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    left = Binary(op, pos, std::move(left), std::move(right));
  }
}

Result<ExprPtr> Parser::ParseUnary() {
  if (Peek().kind == TokenKind::kMinus || Peek().kind == TokenKind::kPlus) {
    Token sign = Take();
    bool minus = sign.kind == TokenKind::kMinus;
    if (Peek().kind == TokenKind::kNumber) {
      // A signed number literal: "-.73e1".
      Token number = Take();
      ExprPtr e = NewExpr(ExprKind::kLiteral, sign.pos);
      e->literal = LiteralKind::kNumber;
      e->text = (minus ? "-" : "") + number.text;
      e->pos.length = number.pos.column + number.pos.length - sign.pos.column;
      return e;
    }
    DDBLAB_RETURN_IF_ERROR(Enter());
    Result<ExprPtr> parsed = ParseUnary();
    Leave();
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr operand, std::move(parsed));
    if (!minus) return operand;
    ExprPtr e = NewExpr(ExprKind::kNegate, sign.pos);
    e->args.push_back(std::move(operand));
    return e;
  }
  return ParsePrimary();
}

Result<ExprPtr> Parser::ParseSequence(ExprKind kind, TokenKind close) {
  ExprPtr e = NewExpr(kind, Peek().pos);
  if (TakeKind(close)) return e;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr element, ParseExpr());
    e->args.push_back(std::move(element));
    if (TakeKind(TokenKind::kComma)) continue;
    if (TakeKind(close)) return e;
    return UnexpectedHere();
  }
}

Result<ExprPtr> Parser::ParseTuple() {
  ExprPtr e = NewExpr(ExprKind::kTuple, Peek().pos);
  if (TakeKind(TokenKind::kRightBrace)) return e;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
    if (!TakeKind(TokenKind::kColon)) return UnexpectedHere();
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
    e->args.push_back(std::move(key));
    e->args.push_back(std::move(value));
    if (TakeKind(TokenKind::kComma)) continue;
    if (TakeKind(TokenKind::kRightBrace)) return e;
    return UnexpectedHere();
  }
}

Result<ExprPtr> Parser::ParseCall(const Token& name) {
  Take();  // '('
  ExprPtr e = NewExpr(ExprKind::kCall, name.pos);
  e->text = Lower(name.text);
  if (TakeKind(TokenKind::kRightParen)) return e;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
    e->args.push_back(std::move(arg));
    if (TakeKind(TokenKind::kComma)) continue;
    if (TakeKind(TokenKind::kRightParen)) return e;
    return UnexpectedHere();
  }
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& t = Peek();
  switch (t.kind) {
    case TokenKind::kString:
    case TokenKind::kNumber: {
      Token token = Take();
      ExprPtr e = NewExpr(ExprKind::kLiteral, token.pos);
      e->literal = token.kind == TokenKind::kString ? LiteralKind::kString
                                                    : LiteralKind::kNumber;
      e->text = token.text;
      return e;
    }
    case TokenKind::kParameter: {
      ExprPtr e = NewExpr(ExprKind::kParameter, Take().pos);
      e->param_index = parameters_++;
      return e;
    }
    case TokenKind::kLeftParen: {
      Take();
      DDBLAB_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
      if (!TakeKind(TokenKind::kRightParen)) return UnexpectedHere();
      return inner;
    }
    case TokenKind::kLeftBracket:
      Take();
      return ParseSequence(ExprKind::kList, TokenKind::kRightBracket);
    case TokenKind::kLeftBag:
      Take();
      return ParseSequence(ExprKind::kBag, TokenKind::kRightBag);
    case TokenKind::kLeftBrace:
      Take();
      return ParseTuple();
    case TokenKind::kIdentifier:
    case TokenKind::kQuotedIdentifier: {
      if (t.kind == TokenKind::kIdentifier &&
          Peek(1).kind == TokenKind::kLeftParen) {
        Token name = Take();
        return ParseCall(name);
      }
      Token root = Take();
      ExprPtr e = NewExpr(ExprKind::kPath, root.pos);
      e->text = root.text;
      e->quoted = root.kind == TokenKind::kQuotedIdentifier;
      return ParsePathAfterRoot(std::move(e));
    }
    case TokenKind::kKeyword: {
      if (t.text == "TRUE" || t.text == "FALSE" || t.text == "NULL" ||
          t.text == "MISSING") {
        Token token = Take();
        ExprPtr e = NewExpr(ExprKind::kLiteral, token.pos);
        e->literal = token.text == "TRUE"    ? LiteralKind::kTrue
                     : token.text == "FALSE" ? LiteralKind::kFalse
                     : token.text == "NULL"  ? LiteralKind::kNull
                                             : LiteralKind::kMissing;
        return e;
      }
      if (!IsOperatorKeyword(t.text) && Peek(1).kind == TokenKind::kLeftParen) {
        Token name = Take();
        return ParseCall(name);
      }
      return UnexpectedHere();
    }
    default:
      return UnexpectedHere();
  }
}

Result<ExprPtr> Parser::ParsePathAfterRoot(ExprPtr root) {
  while (true) {
    if (Peek().kind == TokenKind::kDot) {
      Take();
      const Token& t = Peek();
      if (t.kind == TokenKind::kStar) {
        // DynamoDB Local's message catalog (ValidationExceptionMessages).
        return Error::Validation(
            "Unpivot path component like a.*.b are not supported");
      }
      if (t.kind != TokenKind::kIdentifier &&
          t.kind != TokenKind::kQuotedIdentifier) {
        return NotWellFormed("Invalid path dot component");
      }
      Token name = Take();
      PathStep step;
      step.kind = PathStep::Kind::kMember;
      step.name = name.text;
      step.pos = name.pos;
      root->steps.push_back(std::move(step));
      continue;
    }
    if (Peek().kind == TokenKind::kLeftBracket) {
      Position open = Take().pos;
      PathStep step;
      step.pos = open;
      const Token& t = Peek();
      if (t.kind == TokenKind::kStar) {
        return Error::Validation(
            "Wildcard path component like a[*].b are not supported");
      }
      if (t.kind == TokenKind::kString) {
        step.kind = PathStep::Kind::kMember;
        step.name = Take().text;
      } else {
        bool minus = TakeKind(TokenKind::kMinus);
        if (Peek().kind != TokenKind::kNumber) return UnexpectedHere();
        std::string digits = Take().text;
        bool integer = !digits.empty() && digits.size() <= 10;
        for (char c : digits) integer = integer && std::isdigit(c);
        if (minus || !integer || std::stoll(digits) > 2147483647) {
          // DynamoDB Local's message catalog (ValidationExceptionMessages).
          return Error::Validation(
              "List index is not within the allowable range; index: [" +
              std::string(minus ? "-" : "") + digits + "]");
        }
        step.kind = PathStep::Kind::kIndex;
        step.index = std::stoll(digits);
      }
      if (!TakeKind(TokenKind::kRightBracket)) return UnexpectedHere();
      root->steps.push_back(std::move(step));
      continue;
    }
    return root;
  }
}

}  // namespace ddblab::partiql::internal
