// harness/scenario/footprint.h: what a step touched, for the partial-order
// reduction of `--strategy exhaustive` (exhaustive.h).
//
// A footprint lists the step's accesses: an item (table and key), a
// table's items as a whole (a Query, a Scan, a write whose key is unknown),
// a table's stream, or the catalog (ListTables, DescribeTable), each read
// or written. Two steps are dependent when one writes what the other reads
// or writes, when either is `everything` (an unknown operation, a step
// without calls, a step that moved the clock), or when both matched a fault
// rule (the plan's draws and nth counts follow call order). Every write to
// a table with a stream (or whose stream is unknown) writes that table's
// stream: one table's stream writes are never reordered, whatever their
// shards.
//
// Thread-safety: values and pure functions; TableShapes is not thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/backend/backend.h"

namespace ddblab::harness::scenario {

struct Access {
  enum class Kind { kItem, kStream, kCatalog };
  Kind kind = Kind::kItem;
  std::string table;  // "": every table
  std::string item;   // the key, canonical JSON; "": every item (kItem)
  bool write = false;
  bool operator==(const Access&) const = default;
};

struct Footprint {
  std::vector<Access> accesses;
  bool everything = false;  // dependent on every step
  bool fault = false;       // matched a fault rule
  void Add(const Footprint& other);
  bool operator==(const Footprint&) const = default;
};

// True when the order of steps `a` and `b` may matter (see above).
bool Dependent(const Footprint& a, const Footprint& b);

// The key attributes and stream of each table, from the CreateTable
// requests seen (Note). A table not noted has an unknown key and stream.
class TableShapes {
 public:
  void Note(const json& create_table);
  // The footprint of one call (DynamoDB or DynamoDB Streams operation).
  Footprint OfCall(std::string_view operation, const json& request) const;

 private:
  struct Shape {
    std::vector<std::string> key;
    bool stream = false;
  };
  // The item access of `table` for `key_or_item` (a Key, or an Item whose
  // key attributes are picked out), whole-table when the key is unknown,
  // and the stream write of a write.
  void AddItem(const std::string& table, const json& key_or_item, bool is_item,
               bool write, Footprint* out) const;
  std::map<std::string, Shape> shapes_;
};

}  // namespace ddblab::harness::scenario
