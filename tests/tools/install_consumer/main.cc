// Uses both installed surfaces: the Emulator facade (ddblab::emulator)
// creates a table, writes an item and prints it read back; the harness
// (ddblab::harness) opens an in-process backend from its backend string,
// creates a table with the patterns' EnsureTable and prints ListTables.
#include <cstdlib>
#include <iostream>

#include "emulator/api/emulator.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace {

[[noreturn]] void Fail(const char* what, const ddblab::Error& error) {
  std::cerr << what << ": " << error.message << "\n";
  std::exit(2);
}

}  // namespace

int main() {
  auto db = ddblab::Emulator::Open(ddblab::Options{});
  if (!db.ok()) return 1;
  auto call = [&](const char* op, const char* body) {
    auto r = (*db)->Call(op, nlohmann::json::parse(body));
    if (!r.ok()) Fail(op, r.error());
    return *r;
  };
  call("CreateTable",
       R"({"TableName": "things", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})");
  call(
      "PutItem",
      R"({"TableName": "things", "Item": {"id": {"S": "k1"}, "n": {"N": "42"}}})");
  auto got =
      call("GetItem", R"({"TableName": "things", "Key": {"id": {"S": "k1"}}})");
  std::cout << got["Item"].dump() << "\n";

  auto backend = ddblab::harness::OpenBackend("emulator?clock=manual");
  if (!backend.ok()) Fail("OpenBackend", backend.error());
  auto made = ddblab::harness::patterns::EnsureTable(
      **backend, nlohmann::json::parse(R"({"TableName": "claims",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]})"));
  if (!made.ok()) Fail("EnsureTable", made.error());
  auto tables = (*backend)->Call("ListTables", nlohmann::json::object());
  if (!tables.ok()) Fail("ListTables", tables.error());
  std::cout << (*backend)->name() << ": " << tables->dump() << "\n";
}
