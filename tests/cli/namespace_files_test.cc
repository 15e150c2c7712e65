// tests/cli/namespace_files_test.cc: namespace modes, ?namespace= names,
// the file-name encoding of keys and the files of --db in a namespace mode
// (found again after a restart).
#include "cli/namespace_files.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ddblab::cli {
namespace {

TEST(NamespaceModeTest, ParsesTheThreeNames) {
  EXPECT_EQ(ParseNamespaceMode("shared"), NamespaceMode::kShared);
  EXPECT_EQ(ParseNamespaceMode("access-key"), NamespaceMode::kAccessKey);
  EXPECT_EQ(ParseNamespaceMode("access-key+region"),
            NamespaceMode::kAccessKeyRegion);
  EXPECT_EQ(ParseNamespaceMode("bogus"), std::nullopt);
}

TEST(NamespaceNameTest, FitsTheMode) {
  auto key = ParseNamespaceName(NamespaceMode::kAccessKey, "AKID");
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, (NamespaceKey{"AKID", ""}));
  key = ParseNamespaceName(NamespaceMode::kAccessKeyRegion,
                           "a:b:eu-west-1");  // split at the last ':'
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, (NamespaceKey{"a:b", "eu-west-1"}));
  EXPECT_EQ(NamespaceName(*key), "a:b:eu-west-1");

  auto bad = ParseNamespaceName(NamespaceMode::kAccessKey, "AKID:us-east-1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().type, ErrorType::kValidation);
  EXPECT_EQ(bad.error().message,
            "invalid ?namespace=AKID:us-east-1: this server keeps a namespace "
            "per access key (--namespace access-key): give the access key "
            "alone, e.g. ?namespace=AKID");
  bad = ParseNamespaceName(NamespaceMode::kAccessKeyRegion, "AKID");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "invalid ?namespace=AKID: this server keeps a namespace per "
            "access key and region (--namespace access-key+region): give "
            "KEY:REGION, e.g. ?namespace=AKID:us-east-1");
  EXPECT_FALSE(ParseNamespaceName(NamespaceMode::kAccessKey, "").ok());
  EXPECT_FALSE(ParseNamespaceName(NamespaceMode::kAccessKeyRegion, "A:").ok());
}

TEST(NamespaceFileNameTest, EncodesEveryUnsafeByteAndDecodesBack) {
  const std::string key = "a_b/../c d%\xff";
  const std::string encoded = FileNameEncode(key);
  EXPECT_EQ(encoded, "a%5Fb%2F%2E%2E%2Fc%20d%25%FF");
  EXPECT_EQ(FileNameDecode(encoded), key);
  EXPECT_EQ(FileNameDecode("AKID-1"), "AKID-1");
  EXPECT_EQ(FileNameDecode("%41"), std::nullopt);  // 'A' is never encoded
  EXPECT_EQ(FileNameDecode("%2"), std::nullopt);
  EXPECT_EQ(FileNameDecode("a_b"), std::nullopt);
}

TEST(NamespaceFileNameTest, LiesNextToTheDbFile) {
  EXPECT_EQ(NamespaceDbPath("/d/app.db", {"AKID", ""}), "/d/app.AKID.db");
  EXPECT_EQ(NamespaceDbPath("/d/app.db", {"AK/ID", "us-east-1"}),
            "/d/app.AK%2FID_us-east-1.db");
  EXPECT_EQ(NamespaceDbPath("/d/app", {"AKID", ""}), "/d/app.AKID.db");
  EXPECT_EQ(NamespaceDbPath(":memory:", {"AKID", ""}), ":memory:");
}

TEST(NamespaceFileNameTest, ARestartFindsTheFilesOfItsMode) {
  char dir_template[] = "/tmp/ddblab-ns-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir(dir_template);
  const std::string db = (dir / "app.db").string();
  for (const NamespaceKey& key : {NamespaceKey{"B", ""}, NamespaceKey{"A", ""},
                                  NamespaceKey{"A_x", "us-east-1"}}) {
    std::ofstream(NamespaceDbPath(db, key)) << "x";
  }
  for (const char* other :
       {"app.db", "app.A.db-wal", "other.C.db", "app..db", "app.%41.db"}) {
    std::ofstream(dir / other) << "x";
  }
  EXPECT_EQ(ListNamespaceFiles(db, NamespaceMode::kAccessKey),
            (std::vector<NamespaceKey>{{"A", ""}, {"B", ""}}));
  EXPECT_EQ(ListNamespaceFiles(db, NamespaceMode::kAccessKeyRegion),
            (std::vector<NamespaceKey>{{"A_x", "us-east-1"}}));
  EXPECT_TRUE(ListNamespaceFiles(db, NamespaceMode::kShared).empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ddblab::cli
