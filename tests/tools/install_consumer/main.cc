// Creates a table in-process, writes an item and prints it read back.
#include <cstdlib>
#include <iostream>

#include "emulator/api/emulator.h"

int main() {
  auto db = ddblab::Emulator::Open(ddblab::Options{});
  if (!db.ok()) return 1;
  auto call = [&](const char* op, const char* body) {
    auto r = (*db)->Call(op, nlohmann::json::parse(body));
    if (!r.ok())
      std::exit((std::cerr << op << ": " << r.error().message << "\n", 2));
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
}
