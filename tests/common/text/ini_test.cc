// tests/common/text/ini_test.cc: ParseIni (common/text/ini.h) on AWS
// credentials and config text: sections in order, trimming, comments,
// nested blocks, repeated keys and sections, and each error naming its line.
#include "common/text/ini.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ddblab::text {
namespace {

using Values = std::map<std::string, std::string, std::less<>>;

TEST(ParseIniTest, SectionsKeysAndComments) {
  IniDocument ini = ParseIni(
      "# comment\n"
      "[default]\n"
      "aws_access_key_id = AKID1\n"
      "aws_secret_access_key=secret1\r\n"
      "\n"
      "; another comment\n"
      "[ profile dev ]\n"
      "  region = eu-west-1  \n"
      "region=us-east-2\n"
      "[empty]");
  ASSERT_EQ(ini.error, "");
  ASSERT_EQ(ini.sections.size(), 3u);
  EXPECT_EQ(ini.sections[0].name, "default");
  EXPECT_EQ(ini.sections[0].values,
            (Values{{"aws_access_key_id", "AKID1"},
                    {"aws_secret_access_key", "secret1"}}));
  EXPECT_EQ(ini.sections[1].name, "profile dev");
  // An indented line outside a nested block is an ordinary line; the
  // later key wins.
  EXPECT_EQ(ini.sections[1].values, (Values{{"region", "us-east-2"}}));
  EXPECT_EQ(ini.sections[2].name, "empty");
  EXPECT_TRUE(ini.sections[2].values.empty());
}

TEST(ParseIniTest, NestedBlocksAreSkipped) {
  IniDocument ini = ParseIni(
      "[default]\n"
      "s3 =\n"
      "  max_concurrent_requests = 20\n"
      "\tnot even a setting\n"
      "region = eu-west-1\n"
      "  output = json\n");
  ASSERT_EQ(ini.error, "");
  ASSERT_EQ(ini.sections.size(), 1u);
  EXPECT_EQ(ini.sections[0].values,
            (Values{{"output", "json"}, {"region", "eu-west-1"}, {"s3", ""}}));
}

TEST(ParseIniTest, ARepeatedSectionIsANewEntry) {
  IniDocument ini = ParseIni("[p]\na = 1\n[q]\n[p]\na = 2\n");
  ASSERT_EQ(ini.error, "");
  ASSERT_EQ(ini.sections.size(), 3u);
  EXPECT_EQ(ini.sections[0].values, (Values{{"a", "1"}}));
  EXPECT_EQ(ini.sections[2].name, "p");
  EXPECT_EQ(ini.sections[2].values, (Values{{"a", "2"}}));
}

TEST(ParseIniTest, ErrorsNameTheLine) {
  EXPECT_EQ(ParseIni("[p\n").error, "line 1: unterminated section header");
  EXPECT_EQ(ParseIni("# c\naws_access_key_id=A\n").error,
            "line 2: key = value before any [section]");
  EXPECT_EQ(ParseIni("[p]\n\nnot a setting\n").error,
            "line 3: expected [section] or key = value");
  IniDocument bad = ParseIni("[p]\na = 1\noops\n");
  EXPECT_TRUE(bad.sections.empty());
  EXPECT_EQ(ParseIni("").error, "");
  EXPECT_TRUE(ParseIni("").sections.empty());
}

}  // namespace
}  // namespace ddblab::text
