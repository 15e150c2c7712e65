// emulator/engine/vector/vector_store.h: the float32 copies of one vector
// index, held in memory, and the exact k-nearest-neighbour search over them.
//
// A VectorIndexData keeps, per indexed item, its vector as float32 in one
// contiguous array (row-major, `dims` floats a row), the sum of its squares
// (for COSINE), and a Row: the item's primary key (encoded, as the store
// keeps it), the encoded values of its SearchSchema attributes (for HASH and
// INLINE_FILTER equality), its entry size and a hash of its view (to tell an
// unchanged entry from a changed one). Removing a row moves the last row into
// its slot, so the array stays dense.
//
// Scores (the DynamoDB API reference, SearchVectors): products are taken in
// double from the float32 values, in 8 independent lanes (vectorizable
// without reassociation), then:
//   COSINE       1 - dot / sqrt(|q|^2 |s|^2), in [0, 2]; 1 when either
//                vector has zero magnitude; lower is nearer;
//   EUCLIDEAN    sqrt(sum (q - s)^2); lower is nearer;
//   DOT_PRODUCT  dot; higher is nearer.
// Every score is clamped to +-FLT_MAX (DynamoDB saturates instead of
// overflowing). Equal scores are ordered by primary key (DynamoDB's order of
// ties is not deterministic; this is one of its possible orders).
//
// Nothing here is persisted: the data are rebuilt from the items when a
// database is opened (vector_rebuild.h) and kept in step by the write path
// (item_writer.h), which applies a batch's changes after its commit.
//
// Ownership: a Catalog::Entry owns the VectorIndexSet of its table.
// Thread-safety: none; guarded by the engine lock like the catalog.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "emulator/engine/table.h"

namespace ddblab::engine {

// What an item contributes to one vector index (vector_entry.h computes it).
struct VectorEntry {
  std::vector<float> values;  // `dims` float32 copies
  // Per SearchSchema element (declaration order): value::EncodeKey of the
  // item's value, or nullopt when the item lacks it.
  std::vector<std::optional<std::string>> schema_keys;
  // 4 x dims + the vector attribute's name + the rest of the entry's view
  // (DynamoDB's item size), the figure VectorWriteRequestBytes and
  // IndexSizeBytes are made of.
  int64_t size = 0;
  uint64_t view_hash = 0;  // the whole view, vector included
};

// One equality of a search: the SearchSchema element (its position) must
// hold exactly this encoded value.
struct SchemaEquality {
  size_t element = 0;
  std::string key;  // value::EncodeKey
};

struct VectorHit {
  size_t slot = 0;
  double score = 0;
};

class VectorIndexData {
 public:
  struct Row {
    std::string pk;
    std::string sk;
    std::vector<std::optional<std::string>> schema_keys;
    int64_t size = 0;
    uint64_t view_hash = 0;
  };

  explicit VectorIndexData(size_t dims);

  size_t dims() const { return dims_; }
  size_t size() const { return rows_.size(); }
  // Sum of the rows' sizes (IndexSizeBytes).
  int64_t bytes() const { return bytes_; }

  // The row of an item, or null.
  const Row* Find(std::string_view pk, std::string_view sk) const;
  const Row& row(size_t slot) const { return rows_[slot]; }
  std::span<const float> values(size_t slot) const {
    return {values_.data() + slot * dims_, dims_};
  }

  // Inserts or replaces the item's row. `entry.values` must hold dims()
  // floats.
  void Upsert(std::string_view pk, std::string_view sk, VectorEntry entry);
  // Removes the item's row, if any.
  void Remove(std::string_view pk, std::string_view sk);

  // The `k` nearest rows to `query` (dims() floats) among those meeting
  // every equality, nearest first.
  std::vector<VectorHit> Search(std::span<const float> query,
                                DistanceFunction distance, size_t k,
                                const std::vector<SchemaEquality>& where) const;

 private:
  static std::string SlotKey(std::string_view pk, std::string_view sk);

  size_t dims_;
  std::vector<float> values_;   // size() * dims_
  std::vector<double> norms2_;  // per row: sum of squares
  std::vector<Row> rows_;
  std::unordered_map<std::string, size_t> slots_;  // SlotKey -> slot
  int64_t bytes_ = 0;
};

// The vector indexes of one table, by index name.
using VectorIndexSet = std::map<std::string, VectorIndexData, std::less<>>;

// The score of one stored vector against a query (see the header comment);
// `query_norm2` is the query's sum of squares, `stored_norm2` the row's.
double VectorScore(DistanceFunction distance, const float* query,
                   const float* stored, size_t dims, double query_norm2,
                   double stored_norm2);
// Sum of squares of `v`, in double.
double SumOfSquares(std::span<const float> v);

}  // namespace ddblab::engine
