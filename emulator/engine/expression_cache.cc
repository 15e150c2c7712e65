// emulator/engine/expression_cache.cc
#include "emulator/engine/expression_cache.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <variant>
#include <vector>

#include "emulator/expr/eval_condition.h"
#include "emulator/expr/lexer.h"
#include "emulator/expr/parser.h"

namespace ddblab::engine {

using expr::Condition;
using expr::ConditionExpression;
using expr::ExpressionKind;
using expr::Operand;
using expr::Placeholders;
using expr::ProjectionExpression;
using expr::UpdateAction;
using expr::UpdateExpression;
using expr::UpdateValue;
using value::AttributeValue;

struct ExpressionCache::Entry {
  // The tree of a successful parse, its constants reset to NULL (the cache
  // keeps no request's values alive).
  std::variant<ConditionExpression, UpdateExpression, ProjectionExpression>
      tree;
  // Positions (in the Placeholders) of the names the text uses, once each.
  std::vector<uint32_t> names;
  // For each constant of the tree, in tree order: its value's position.
  std::vector<uint32_t> values;
  // A BETWEEN with two constant bounds: check them on every hit.
  bool recheck_between = false;
};

namespace {

// ---- Constants of a tree, in tree order (= the order of the :value tokens
// in the text: the parsers build operands, children, actions and function
// arguments in the order written).

template <class F>
void ForEachConstantInCondition(Condition& c, const F& f) {
  for (Operand& o : c.operands) {
    if (o.kind == Operand::Kind::kValue ||
        (o.kind == Operand::Kind::kSize && o.path.empty())) {
      f(o.value);
    }
  }
  for (Condition& child : c.children) ForEachConstantInCondition(child, f);
}

template <class F>
void ForEachConstantInValue(UpdateValue& v, const F& f) {
  if (v.kind == UpdateValue::Kind::kValue) f(v.value);
  for (UpdateValue& a : v.args) ForEachConstantInValue(a, f);
}

template <class F>
void ForEachConstant(ConditionExpression& e, const F& f) {
  ForEachConstantInCondition(e.root, f);
}
template <class F>
void ForEachConstant(UpdateExpression& e, const F& f) {
  for (UpdateAction& a : e.actions) {
    switch (a.kind) {
      case UpdateAction::Kind::kSet:
        ForEachConstantInValue(a.value, f);
        break;
      case UpdateAction::Kind::kAdd:
      case UpdateAction::Kind::kDelete:
        f(a.operand);
        break;
      case UpdateAction::Kind::kRemove:
        break;
    }
  }
}
template <class F>
void ForEachConstant(ProjectionExpression&, const F&) {}

// ---- The checks that read a constant's contents, not just its type.

bool HasAttributeType(const Condition& c) {
  if (c.kind == Condition::Kind::kAttributeType) return true;
  return std::any_of(c.children.begin(), c.children.end(), HasAttributeType);
}

bool IsConstantBetween(const Condition& c) {
  return c.kind == Condition::Kind::kBetween && c.operands.size() == 3 &&
         c.operands[1].kind == Operand::Kind::kValue &&
         c.operands[2].kind == Operand::Kind::kValue;
}

bool HasConstantBetween(const Condition& c) {
  if (IsConstantBetween(c)) return true;
  return std::any_of(c.children.begin(), c.children.end(), HasConstantBetween);
}

// The parser's BETWEEN bounds rule (parser_condition_checks.cc): same type,
// lower <= upper. False if any constant BETWEEN breaks it.
bool BetweenBoundsHold(const Condition& c) {
  if (IsConstantBetween(c)) {
    const AttributeValue& lo = c.operands[1].value;
    const AttributeValue& hi = c.operands[2].value;
    if (lo.type() != hi.type()) return false;
    if (expr::CompareScalars(lo, hi).value_or(0) > 0) return false;
  }
  return std::all_of(c.children.begin(), c.children.end(), BetweenBoundsHold);
}

// ---- The key.

// Bounds the memory of an entry's key (the text is at most 4 KB; the rest
// is the names and values maps' shape).
constexpr size_t kMaxKeyBytes = 16 * 1024;

// The kind, the text, then the maps' shape (Placeholders::AppendShape).
std::string MakeKey(ExpressionKind kind, std::string_view text,
                    const Placeholders& ph) {
  std::string key;
  key.reserve(text.size() + 128);  // one allocation for most requests
  key.resize(1 + sizeof(uint32_t) + text.size());
  key[0] = static_cast<char>(kind);
  const uint32_t n = static_cast<uint32_t>(text.size());
  std::memcpy(key.data() + 1, &n, sizeof n);
  std::memcpy(key.data() + 1 + sizeof n, text.data(), text.size());
  ph.AppendShape(&key);
  return key;
}

// ---- Making an entry from a successful parse; nullptr if it may not be
// cached.

template <class Tree>
std::shared_ptr<const ExpressionCache::Entry> MakeEntry(
    const Tree& parsed, std::string_view text, const Placeholders& ph) {
  if constexpr (std::is_same_v<Tree, ConditionExpression>) {
    if (HasAttributeType(parsed.root)) return nullptr;
  }
  auto entry = std::make_shared<ExpressionCache::Entry>();
  expr::Lexer lexer(text);
  for (expr::Token t = lexer.Next(); t.kind != expr::TokenKind::kEof;
       t = lexer.Next()) {
    if (t.kind == expr::TokenKind::kNamePlaceholder) {
      const int i = ph.NameIndex(t.text);
      if (i < 0) return nullptr;
      entry->names.push_back(static_cast<uint32_t>(i));
    } else if (t.kind == expr::TokenKind::kValuePlaceholder) {
      const int i = ph.ValueIndex(t.text);
      if (i < 0) return nullptr;
      entry->values.push_back(static_cast<uint32_t>(i));
    }
  }
  std::sort(entry->names.begin(), entry->names.end());
  entry->names.erase(std::unique(entry->names.begin(), entry->names.end()),
                     entry->names.end());
  Tree tree = parsed;
  // The tree's constants must be the text's :values, one to one, in order.
  size_t n = 0;
  bool paired = true;
  ForEachConstant(tree, [&](AttributeValue& v) {
    if (n >= entry->values.size() || !(v == ph.ValueAt(entry->values[n]))) {
      paired = false;
    }
    ++n;
    v = AttributeValue();
  });
  if (!paired || n != entry->values.size()) return nullptr;
  if constexpr (std::is_same_v<Tree, ConditionExpression>) {
    entry->recheck_between = HasConstantBetween(tree.root);
  }
  entry->tree = std::move(tree);
  return entry;
}

}  // namespace

ExpressionCache::ExpressionCache(size_t capacity) : capacity_(capacity) {}

ExpressionCache::~ExpressionCache() = default;

template <class Tree, class Parse>
Result<Tree> ExpressionCache::Lookup(ExpressionKind kind, std::string_view text,
                                     Placeholders& ph, const Parse& parse) {
  // Empty and oversized texts fail at once: nothing to save.
  if (capacity_ == 0 || text.empty() || text.size() > expr::kMaxExpressionSize)
    return parse(text, ph);
  std::string key = MakeKey(kind, text, ph);
  // Huge names/values maps would make huge keys: parse those each time.
  if (key.size() > kMaxKeyBytes) return parse(text, ph);
  if (std::shared_ptr<const Entry> entry = Find(key)) {
    Tree tree = std::get<Tree>(entry->tree);
    size_t n = 0;
    ForEachConstant(tree, [&](AttributeValue& v) {
      v = ph.UseValueAt(entry->values[n++]);
    });
    for (uint32_t i : entry->names) ph.UseNameAt(i);
    if constexpr (std::is_same_v<Tree, ConditionExpression>) {
      // The bounds are this request's: the parser words any error.
      if (entry->recheck_between && !BetweenBoundsHold(tree.root)) {
        return parse(text, ph);
      }
    }
    return tree;
  }
  Result<Tree> parsed = parse(text, ph);
  if (!parsed.ok()) return parsed;
  if (std::shared_ptr<const Entry> entry = MakeEntry(*parsed, text, ph)) {
    Insert(std::move(key), std::move(entry));
  }
  return parsed;
}

std::shared_ptr<const ExpressionCache::Entry> ExpressionCache::Find(
    std::string_view key) {
  MutexLock lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void ExpressionCache::Insert(std::string key,
                             std::shared_ptr<const Entry> entry) {
  MutexLock lock(mu_);
  if (index_.contains(key)) return;  // another call made it meanwhile
  lru_.emplace_front(std::move(key), std::move(entry));
  index_.emplace(lru_.front().first, lru_.begin());
  if (lru_.size() > capacity_) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

ExpressionCache::Stats ExpressionCache::stats() const {
  MutexLock lock(mu_);
  return Stats{lru_.size(), hits_, misses_};
}

Result<ConditionExpression> ExpressionCache::ParseCondition(
    std::string_view text, ExpressionKind kind, Placeholders& ph) {
  return Lookup<ConditionExpression>(
      kind, text, ph, [kind](std::string_view t, Placeholders& p) {
        return expr::ParseCondition(t, kind, p);
      });
}

Result<UpdateExpression> ExpressionCache::ParseUpdate(std::string_view text,
                                                      Placeholders& ph) {
  return Lookup<UpdateExpression>(ExpressionKind::kUpdate, text, ph,
                                  [](std::string_view t, Placeholders& p) {
                                    return expr::ParseUpdate(t, p);
                                  });
}

Result<ProjectionExpression> ExpressionCache::ParseProjection(
    std::string_view text, Placeholders& ph) {
  return Lookup<ProjectionExpression>(ExpressionKind::kProjection, text, ph,
                                      [](std::string_view t, Placeholders& p) {
                                        return expr::ParseProjection(t, p);
                                      });
}

Result<ConditionExpression> ParseCondition(ExpressionCache* cache,
                                           std::string_view text,
                                           ExpressionKind kind,
                                           Placeholders& ph) {
  if (cache == nullptr) return expr::ParseCondition(text, kind, ph);
  return cache->ParseCondition(text, kind, ph);
}

Result<UpdateExpression> ParseUpdate(ExpressionCache* cache,
                                     std::string_view text, Placeholders& ph) {
  if (cache == nullptr) return expr::ParseUpdate(text, ph);
  return cache->ParseUpdate(text, ph);
}

Result<ProjectionExpression> ParseProjection(ExpressionCache* cache,
                                             std::string_view text,
                                             Placeholders& ph) {
  if (cache == nullptr) return expr::ParseProjection(text, ph);
  return cache->ParseProjection(text, ph);
}

}  // namespace ddblab::engine
