// emulator/engine/expression_cache.h: a bounded cache of parsed expressions,
// one per EmulatorImpl, for ConditionExpression, UpdateExpression,
// KeyConditionExpression, FilterExpression and ProjectionExpression.
//
// The parsers (emulator/expr/parser.h) resolve #names and substitute
// :values while they parse, and some of their checks read the values (an
// operand's type, BETWEEN's bounds, attribute_type's type name). So an
// entry is keyed by everything a successful parse depends on:
//   - the kind and the text;
//   - the request's whole ExpressionAttributeNames map (keys and names);
//   - the keys of its ExpressionAttributeValues map and each value's TYPE
//     (not the value: requests that differ only in their values share it).
// An entry holds the tree of a successful parse, the names the text uses
// and, for each constant in the tree (in tree order), which value it came
// from. A hit copies the tree, puts this request's values in, and marks
// the names and values used (for the unused-names/values check that
// follows), exactly as a parse would. The only checks that read a value's
// contents rather than its type are redone on a hit, or the entry is never
// made:
//   - BETWEEN with two constant bounds (same type, lower <= upper): checked
//     again on every hit; if they fail, the expression is parsed afresh,
//     which gives the error;
//   - attribute_type (its type-name constant is read into the tree): such
//     an expression is not cached.
// Errors are not cached: an expression that fails is parsed (and fails)
// on every call, so every message, including those about undefined
// names/values and operand types, comes from the parser itself.
//
// A miss parses, then checks that the tree's constants and the text's
// :value tokens pair up one to one (same count, equal values); if not,
// nothing is cached (a safety net: the parsers keep constants in text
// order).
//
// Bounded: at most `capacity` entries, least recently used evicted first;
// a key (text plus the maps' shape) over 16 KB is never cached.
//
// Thread-safety: safe from many threads. One internal mutex guards the map
// for a lookup or an insert; parsing, copying and binding run outside it.
// Independent of the engine lock (take either without the other).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/placeholders.h"

namespace ddblab::engine {

class ExpressionCache {
 public:
  static constexpr size_t kDefaultCapacity = 1024;

  // capacity 0 caches nothing (every call parses).
  explicit ExpressionCache(size_t capacity = kDefaultCapacity);
  ~ExpressionCache();

  ExpressionCache(const ExpressionCache&) = delete;
  ExpressionCache& operator=(const ExpressionCache&) = delete;

  // As expr::ParseCondition / ParseUpdate / ParseProjection, same results
  // and errors, `ph` marked the same.
  Result<expr::ConditionExpression> ParseCondition(std::string_view text,
                                                   expr::ExpressionKind kind,
                                                   expr::Placeholders& ph)
      DDBLAB_EXCLUDES(mu_);
  Result<expr::UpdateExpression> ParseUpdate(std::string_view text,
                                             expr::Placeholders& ph)
      DDBLAB_EXCLUDES(mu_);
  Result<expr::ProjectionExpression> ParseProjection(std::string_view text,
                                                     expr::Placeholders& ph)
      DDBLAB_EXCLUDES(mu_);

  struct Stats {
    size_t size = 0;    // entries now
    uint64_t hits = 0;  // lookups answered from an entry
    uint64_t misses = 0;
  };
  Stats stats() const DDBLAB_EXCLUDES(mu_);
  size_t capacity() const { return capacity_; }

  struct Entry;  // expression_cache.cc

 private:
  template <class Tree, class Parse>
  Result<Tree> Lookup(expr::ExpressionKind kind, std::string_view text,
                      expr::Placeholders& ph, const Parse& parse)
      DDBLAB_EXCLUDES(mu_);
  std::shared_ptr<const Entry> Find(std::string_view key) DDBLAB_EXCLUDES(mu_);
  void Insert(std::string key, std::shared_ptr<const Entry> entry)
      DDBLAB_EXCLUDES(mu_);

  using Lru = std::list<std::pair<std::string, std::shared_ptr<const Entry>>>;

  const size_t capacity_;
  mutable Mutex mu_;
  Lru lru_ DDBLAB_GUARDED_BY(mu_);  // most recently used first
  // Keys view the strings held in lru_.
  std::unordered_map<std::string_view, Lru::iterator> index_
      DDBLAB_GUARDED_BY(mu_);
  uint64_t hits_ DDBLAB_GUARDED_BY(mu_) = 0;
  uint64_t misses_ DDBLAB_GUARDED_BY(mu_) = 0;
};

// With a cache, its Parse*; with nullptr, the plain parser.
Result<expr::ConditionExpression> ParseCondition(ExpressionCache* cache,
                                                 std::string_view text,
                                                 expr::ExpressionKind kind,
                                                 expr::Placeholders& ph);
Result<expr::UpdateExpression> ParseUpdate(ExpressionCache* cache,
                                           std::string_view text,
                                           expr::Placeholders& ph);
Result<expr::ProjectionExpression> ParseProjection(ExpressionCache* cache,
                                                   std::string_view text,
                                                   expr::Placeholders& ph);

}  // namespace ddblab::engine
