// emulator/engine/vector/vector_entry.h: what an item means to a vector
// index — the write-time checks with DynamoDB's messages, the entry it
// contributes (float32 copies, SearchSchema values, size), the index's view
// of the item, and the float32 number texts.
//
// Write checks (CheckVectorAttributes), for every vector index not being
// deleted, in declaration order, on the attributes the item carries (absent
// ones are fine: the item is then left out of that index, "sparse"):
//   the vector attribute: not a list ->
//     "One or more parameter values were invalid. Invalid type for parameter
//      <a>, Expected: 32-bit floating point number list IndexName: <i>";
//   an element that is not a number (position 0-based) ->
//     "... Invalid type for parameter <a>[1], Expected: 32-bit floating point
//      number, Actual: S. IndexName: <i>";
//   a number beyond the float32 range ->
//     "... Invalid value for parameter <a>[0], Value: <n> is outside valid
//      range [-3.4028235E38, 3.4028235E38]. IndexName: <i>" (<n> in
//      DynamoDB's canonical number form);
//   then the element count -> "... Invalid size for parameter <a>, Expected:
//      3, Actual: 2 IndexName: <i>";
//   a SearchSchema attribute of another type than its definition ->
//     "... Attribute '<a>' type mismatch. Expected: S, Actual: N.
//      IndexName: <i>";
//   an empty string/binary HASH value -> the secondary-index-key text of a
//     put ("... IndexName: <i>, IndexKey: <a>"), or of an update expression
//     (no suffix).
// The texts are DynamoDB's (docs: the vector search spec note's captures); the
// element-before-count order and the index order are our choice. An update
// checks only the attributes it changed, so an item the backfill skipped can
// still be updated otherwise.
//
// An item belongs to an index (ComputeVectorEntry) when its vector is valid
// and, if the index has a HASH element, it carries a valid HASH value; an
// INLINE_FILTER value of the wrong type also keeps it out (what the backfill
// of an existing table skips, since a live write would be refused).
//
// The view: what the index holds of an item — the vector, the table keys,
// the SearchSchema attributes, and the other attributes its projection names
// (ALL: every one).
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/engine/vector/vector_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

enum class VectorWriteForm { kPut, kUpdate };

// `before` (update form only) is the stored item, or null if there was none:
// attributes equal to their old value are not checked again.
Status CheckVectorAttributes(const Table& table, const value::Item& item,
                             const value::Item* before, VectorWriteForm form);

// The nearest float32 to `n`; nullopt beyond +-3.4028235E38 (smaller
// magnitudes round to zero).
std::optional<float> ToFloat32(const value::Number& n);

// The entry of `item` in `index`, or nullopt if it does not belong there.
// `item_bytes` / `item_size` are the item's stored form and size (reused for
// an ALL projection).
std::optional<VectorEntry> ComputeVectorEntry(const Table& table,
                                              const VectorIndexDef& index,
                                              const value::Item& item,
                                              std::string_view item_bytes,
                                              int64_t item_size);

// The index's view of `item`, without the vector attribute.
value::Item VectorView(const Table& table, const VectorIndexDef& index,
                       const value::Item& item);

// VectorWriteRequestBytes of writing an entry of this size: at least 1 KB.
double VectorWriteBytes(int64_t entry_size);

// A float32 as DynamoDB returns the index's copy: the shortest decimal that
// reads back as the same float32, with ".0" on whole numbers ("1.0",
// "0.1", "16777216.0"), exponent form below 1e-4 or from 1e16 ("1e-7",
// "3.4028235e38").
std::string Float32Text(float f);
// The copy as a list of numbers (each the value of Float32Text).
value::AttributeValue Float32List(std::span<const float> values);

}  // namespace ddblab::engine
