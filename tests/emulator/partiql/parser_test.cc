#include "emulator/partiql/parser.h"

#include <gtest/gtest.h>

#include <string>

namespace ddblab::partiql {
namespace {

constexpr char kNotWellFormed[] =
    "Statement wasn't well formed, can't be processed: ";

std::string P(std::string_view text) {
  Result<Statement> s = Parse(text);
  if (!s.ok()) return "error: " + s.error().message;
  return s->DebugString();
}

std::string Err(std::string_view text) {
  Result<Statement> s = Parse(text);
  if (s.ok()) return "parsed: " + s->DebugString();
  EXPECT_EQ(s.error().type, ErrorType::kValidation) << text;
  return s.error().message;
}

std::string Malformed(std::string_view detail) {
  return kNotWellFormed + std::string(detail);
}

TEST(ParserTest, SelectStarWithKeyCondition) {
  EXPECT_EQ(P(R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND sk > 5)"),
            "(select * from Music where (and (= (path Artist) 'Acme') "
            "(> (path sk) 5)))");
}

TEST(ParserTest, ProjectionOfNestedPathsAndIndex) {
  EXPECT_EQ(P(R"(select a.b[1].c, "x y", m['k'] from t."idx")"),
            "(select ((path a b [1] c) (path \"x y\") (path m k)) from t.idx)");
}

TEST(ParserTest, PrecedenceOrAndNot) {
  EXPECT_EQ(P("SELECT * FROM t WHERE a = 1 OR NOT b = 2 AND c <> 3"),
            "(select * from t where (or (= (path a) 1) (and (not (= (path b) "
            "2)) (<> (path c) 3))))");
  EXPECT_EQ(P("SELECT * FROM t WHERE (a = 1 OR b = 2) AND c != 3"),
            "(select * from t where (and (or (= (path a) 1) (= (path b) 2)) "
            "(<> (path c) 3)))");
}

TEST(ParserTest, BetweenInIsAndFunctions) {
  EXPECT_EQ(
      P("SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b IN ['x', 'y'] AND "
        "c NOT IN (1, 2) AND d IS NOT MISSING AND e IS NULL AND "
        "begins_with(f, 'p') AND size(g) >= 2 AND ATTRIBUTE_TYPE(h, 'N')"),
      "(select * from t where (and (and (and (and (and (and (and (between "
      "(path a) 1 5) (in (path b) (list 'x' 'y'))) (not-in (path c) (list 1 "
      "2))) (is-not (path d) MISSING)) (is (path e) NULL)) (call begins_with "
      "(path f) 'p')) (>= (call size (path g)) 2)) (call attribute_type "
      "(path h) 'N')))");
}

TEST(ParserTest, IsTypeNames) {
  EXPECT_EQ(P("SELECT * FROM t WHERE a IS BOOL AND b IS double precision"),
            "(select * from t where (and (is (path a) BOOL) (is (path b) "
            "DOUBLE PRECISION)))");
}

TEST(ParserTest, ParametersAreNumberedInTextOrder) {
  Result<Statement> s =
      Parse("UPDATE t SET a = ?, b = [?, {'k': ?}] WHERE pk = ?");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->parameter_count, 4);
  EXPECT_EQ(s->DebugString(),
            "(update t (set (path a) ?0) (set (path b) (list ?1 (tuple 'k' "
            "?2))) where (= (path pk) ?3))");
}

TEST(ParserTest, SignedNumbersFoldIntoLiterals) {
  EXPECT_EQ(P("SELECT * FROM t WHERE pk = -.73e1 AND a = - b"),
            "(select * from t where (and (= (path pk) -.73e1) (= (path a) "
            "(neg (path b)))))");
}

TEST(ParserTest, InsertWithNestedLiterals) {
  EXPECT_EQ(
      P(R"(INSERT INTO "Music" value {'Artist': 'A', 'n': 1, 'ok': true,
            'l': [null, <<'x', 'y'>>], 'm': {'in': 2}};)"),
      "(insert Music (tuple 'Artist' 'A' 'n' 1 'ok' true 'l' (list null (bag "
      "'x' 'y')) 'm' (tuple 'in' 2)))");
}

TEST(ParserTest, UpdateSetRemoveAndReturning) {
  EXPECT_EQ(P("UPDATE t SET a = a + 1 SET b = list_append(b, [1]) REMOVE c, "
              "d[0] WHERE pk = 'x' RETURNING ALL NEW *"),
            "(update t (set (path a) (+ (path a) 1)) (set (path b) (call "
            "list_append (path b) (list 1))) (remove (path c)) (remove (path "
            "d [0])) where (= (path pk) 'x') returning ALL NEW *)");
}

TEST(ParserTest, FromFirstUpdate) {
  EXPECT_EQ(P(R"(from "T" where pk = 'x' set e = 4 remove a)"),
            "(update T (set (path e) 4) (remove (path a)) where (= (path pk) "
            "'x'))");
}

TEST(ParserTest, DeleteAndExists) {
  EXPECT_EQ(P("DELETE FROM t WHERE pk = 1 RETURNING ALL OLD *"),
            "(delete t where (= (path pk) 1) returning ALL OLD *)");
  EXPECT_EQ(P("EXISTS(SELECT * FROM t WHERE pk = 1 AND a > 2)"),
            "(exists (select * from t where (and (= (path pk) 1) (> (path a) "
            "2))))");
}

TEST(ParserTest, OrderBy) {
  EXPECT_EQ(P("SELECT * FROM t WHERE pk = 'a' ORDER BY sk DESC, pk"),
            "(select * from t where (= (path pk) 'a') order-by (path sk) desc "
            "order-by (path pk) asc)");
}

// The refusals below are pinned against AWS in paritysuite/
// dynamodb-conformance tests/tier3/error-messages/partiqlGrammar.test.ts,
// grammar.test.ts and partiqlFunctions.test.ts.
TEST(ParserTest, LeftoverTokens) {
  for (const char* text : {"SELECT * FROM \"N\" WHERE pk = 1 foo",
                           "SELECT * FROM \"N\" WHERE pk = 1 e5",
                           "INSERT INTO \"N\" VALUE {'pk': 970001} foo",
                           "UPDATE \"N\" SET a = 9 WHERE pk = 970002 foo",
                           "DELETE FROM \"N\" WHERE pk = 970003 foo",
                           "SELECT * FROM \"N\" WHERE pk = 1)",
                           "DELETE FROM \"N\" WHERE pk = 970004 ORDER BY pk",
                           "SELECT * FROM \"N\" ORDER BY pk WHERE pk = 1",
                           "INSERT INTO \"S\" t VALUE {'pk': 'x'}",
                           "FROM \"S\" SET c = 1 WHERE pk = 'x'",
                           "FROM \"S\" SET c = 1 WHERE pk = 'x' SET d = 2"}) {
    EXPECT_EQ(Err(text), Malformed("Unexpected token after expression"))
        << text;
  }
}

TEST(ParserTest, Aliases) {
  for (const char* text : {"SELECT * FROM \"S\" t WHERE pk = 'x'",
                           "SELECT * FROM \"S\" AS t WHERE pk = 'x'",
                           "UPDATE \"S\" t SET a = 3 WHERE pk = 'x'",
                           "DELETE FROM \"S\" t WHERE pk = 'x'"}) {
    EXPECT_EQ(Err(text), "Aliasing is not supported") << text;
  }
}

TEST(ParserTest, NothingWhereATermMustStart) {
  for (const char* text :
       {"SELECT * FROM \"S\" WHERE", "SELECT * FROM \"S\" WHERE;",
        "SELECT * FROM \"S\" WHERE   ", "SELECT pk FROM \"S\" WHERE",
        "UPDATE \"S\" SET a = 1 WHERE", "DELETE FROM \"S\" WHERE",
        "SELECT * FROM \"S\" WHERE NOT", "SELECT * FROM \"S\" WHERE (",
        "SELECT * FROM"}) {
    EXPECT_EQ(Err(text), Malformed("Unexpected term")) << text;
  }
}

TEST(ParserTest, MissingRightHandSide) {
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE pk = 'p1' AND"),
            Malformed("Missing right-hand side expression of infix operator"));
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE pk = 'p1' OR"),
            Malformed("Missing right-hand side expression of infix operator"));
}

TEST(ParserTest, KeywordsAndOperatorsWhereATermMustStart) {
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE ORDER BY pk"),
            Malformed("Unexpected keyword"));
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE IS NULL"),
            Malformed("Unexpected operator"));
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE pk = LIKE"),
            Malformed("Unexpected operator"));
  // A reserved word is no bare attribute name; quoted, it is.
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE pad = 'none'"),
            Malformed("Unexpected keyword"));
  EXPECT_EQ(P("SELECT * FROM \"S\" WHERE \"pad\" = 'none'"),
            "(select * from S where (= (path \"pad\") 'none'))");
}

TEST(ParserTest, TypeNameAfterIs) {
  EXPECT_EQ(Err("SELECT * FROM \"S\" WHERE pk = 'a' AND x IS FOO"),
            Malformed("Expected type name"));
}

TEST(ParserTest, DmlWithoutTable) {
  for (const char* text : {"DELETE FROM", "DELETE FROM   ", "DELETE FROM;",
                           "DELETE FROM WHERE pk = 'a'"}) {
    EXPECT_EQ(Err(text), Malformed("Expected identifier for simple path"))
        << text;
  }
}

TEST(ParserTest, KeywordAfterDotInPath) {
  EXPECT_EQ(Err("SELECT * FROM t WHERE attribute_exists(m.inner)"),
            Malformed("Invalid path dot component"));
}

TEST(ParserTest, NoDataManipulation) {
  EXPECT_EQ(Err("SLECT * FROM \"Users\""),
            Malformed("Expected data manipulation"));
  EXPECT_EQ(Err(""), Malformed("Unexpected term"));
}

TEST(ParserTest, ProjectionRefusals) {
  EXPECT_EQ(Err("SELECT *, a FROM t"),
            "Other attributes should not be present in the projection when "
            "'*' is used.");
  EXPECT_EQ(Err("SELECT VALUE a FROM t"),
            "Select projection doesn't support value or pivot keywords");
  EXPECT_EQ(Err("SELECT a FROM t.i.j"),
            "A path may contain at most 2 components in the FROM clause");
}

TEST(ParserTest, InsertRefusals) {
  EXPECT_EQ(Err("INSERT INTO t VALUES ({'a': 1})"),
            "Unsupported operation: Inserting multiple items in a single "
            "statement is not supported, use \"INSERT INTO tableName VALUE "
            "item\" instead");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'a': 1} RETURNING ALL OLD *"),
            "RETURNING is not supported in INSERT");
}

TEST(ParserTest, ReturningRefusals) {
  EXPECT_EQ(Err("UPDATE t SET a = 1 WHERE pk = 1 RETURNING ALL NEW"),
            "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING "
            "clause");
  EXPECT_EQ(Err("UPDATE t SET a = 1 WHERE pk = 1 RETURNING ALL NEW *, a"),
            "Invalid syntax with multiple returning elements in RETURNING "
            "clause");
}

TEST(ParserTest, PathComponentRefusals) {
  EXPECT_EQ(Err("SELECT a.*.b FROM t"),
            "Unpivot path component like a.*.b are not supported");
  EXPECT_EQ(Err("SELECT a[*].b FROM t"),
            "Wildcard path component like a[*].b are not supported");
  EXPECT_EQ(Err("SELECT a[-1] FROM t"),
            "List index is not within the allowable range; index: [-1]");
}

TEST(ParserTest, LexerRefusalsPassThrough) {
  EXPECT_EQ(Err("SELECT * FROM \"N\" WHERE pk = 1 # note"), kNotWellFormed);
}

// Found by fuzz/engine_fuzz: 4,000 nested brackets overflowed the stack.
TEST(ParserTest, NestingDeeperThanTheLimitIsRefused) {
  constexpr char kNesting[] =
      "Nesting Levels have exceeded supported limits: Attributes in the item "
      "have nested levels beyond supported limit";
  EXPECT_EQ(Err("SELECT pk, " + std::string(4000, '[') + "1 FROM t"), kNesting);
  EXPECT_EQ(Err("SELECT pk, " + std::string(2000, '{') + " FROM t"), kNesting);
  EXPECT_EQ(Err("SELECT * FROM t WHERE " + std::string(3000, '(') + "a"),
            kNesting);
  std::string nots;
  for (int i = 0; i < 1000; ++i) nots += "NOT ";
  EXPECT_EQ(Err("SELECT * FROM t WHERE " + nots + "a"), kNesting);
  std::string signs;
  for (int i = 0; i < 2000; ++i) signs += "- ";
  EXPECT_EQ(Err("SELECT * FROM t WHERE a = " + signs + "b"), kNesting);
  // 99 levels of brackets around a number still parse.
  const std::string ok = "SELECT * FROM t WHERE a = " + std::string(99, '[') +
                         "1" + std::string(99, ']');
  EXPECT_EQ(Parse(ok).ok(), true) << Err(ok);
}

}  // namespace
}  // namespace ddblab::partiql
