// emulator/expr/parser_projection.cc: ProjectionExpression grammar
// (DynamoDB's expression rules): path {',' path}.
#include <utility>

#include "emulator/expr/parser.h"
#include "emulator/expr/parser_internal.h"

namespace ddblab::expr {
namespace {

using internal::Note;
using internal::Slot;

class ProjectionParser final : public internal::ParserBase {
 public:
  ProjectionParser(std::string_view text, Placeholders& ph)
      : ParserBase(text, ExpressionKind::kProjection, ph) {}

  Result<ProjectionExpression> Run() {
    ProjectionExpression expr;
    while (true) {
      DocumentPath path;
      bool resolved = true;
      if (!ParsePath(&path, &resolved)) return *std::move(fatal_);
      if (resolved) expr.paths.push_back(std::move(path));
      if (cur().kind == TokenKind::kEof) break;
      if (!Expect(TokenKind::kComma)) return *std::move(fatal_);
    }
    Slot overlap, conflict;
    if (!reserved_ && !undefined_name_) {
      for (size_t i = 1; i < expr.paths.size() && !overlap; ++i) {
        for (size_t j = 0; j < i; ++j) {
          PathRelation rel = ComparePaths(expr.paths[j], expr.paths[i]);
          if (rel == PathRelation::kNone) continue;
          Slot& slot = rel == PathRelation::kOverlap ? overlap : conflict;
          Note(slot, PathRelationMessage(rel, expr.paths[j], expr.paths[i]));
          if (overlap) break;
        }
      }
    }
    for (const Slot* slot :
         {&reserved_, &undefined_name_, &overlap, &conflict}) {
      if (*slot) return internal::InvalidExpression(kind_, **slot);
    }
    return expr;
  }

 private:
  bool IsGrammarKeyword(const Token&) const override { return false; }
};

}  // namespace

Result<ProjectionExpression> ParseProjection(std::string_view text,
                                             Placeholders& ph) {
  if (auto e =
          internal::CheckExpressionText(text, ExpressionKind::kProjection)) {
    return *std::move(e);
  }
  ProjectionParser parser(text, ph);
  return parser.Run();
}

}  // namespace ddblab::expr
