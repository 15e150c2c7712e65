// harness/patterns/ttl_expiry_listener.cc: the abandoned-cart listener's
// table, mapping, handler and invariant.
#include "harness/patterns/ttl_expiry_listener.h"

#include <map>
#include <utility>

#include "harness/consumer/config.h"

namespace ddblab::harness::patterns {

struct TtlExpiryListener::State {
  // What became of one version of a cart (one PutCart).
  enum class Fate {
    kLatest,    // the last version written: the table says
    kReplaced,  // a later PutCart overwrote it while it was in the table
    kPlaced,    // the user ordered it (PlaceOrder deleted it)
    kGone,      // gone before the next PutCart, not by an order: TTL
    kUnknown,   // a lost answer hides whether it was replaced or gone
  };
  struct Cart {
    bool has_products = false;
    Fate fate = Fate::kLatest;
  };

  Backend* backend = nullptr;
  ListenerConfig config;
  CartSink sink;
  std::vector<json> delivered;
  // Every version of every cart, by id then version (1, 2, ...).
  std::map<std::string, std::map<int64_t, Cart>> carts;
};

namespace {

constexpr const char* kVariantNames[] = {"correct", "remove_only"};
// Attempts of an idempotent write whose answer was lost.
constexpr int kAttempts = 3;
// The attribute numbering the versions of a cart (1 for its first PutCart).
constexpr const char* kVersion = "cart_version";

// The cart version an item or image holds (0 when none).
int64_t VersionOf(const json& item) {
  if (!item.is_object() || !item.contains(kVersion)) return 0;
  return AsInt(item[kVersion]).value_or(0);
}

// The mapping's function: hands each record's OldImage to the sink, in
// order; the first refusal is reported as the batch's failed item (Lambda
// retries from it).
Result<json> HandleEvent(TtlExpiryListener::State& state, const json& event) {
  json failures = json::array();
  for (const json& record : event.value("Records", json::array())) {
    const json& dynamodb = record.value("dynamodb", json::object());
    json image = dynamodb.value("OldImage", json::object());
    Status accepted = state.sink ? state.sink(image) : Status();
    if (!accepted.ok()) {
      failures.push_back(
          {{"itemIdentifier", dynamodb.value("SequenceNumber", "")}});
      break;
    }
    state.delivered.push_back(std::move(image));
  }
  return json{{"batchItemFailures", failures}};
}

// Calls `operation`, again while the outcome is unknown (the request is
// idempotent).
Result<json> CallIdempotent(Backend& backend, std::string_view operation,
                            const json& request) {
  for (int attempt = 1;; ++attempt) {
    auto out = backend.Call(operation, request);
    if (out.ok() || out.error().type != ErrorType::kOutcomeUnknown ||
        attempt >= kAttempts) {
      return out;
    }
  }
}

}  // namespace

std::string_view ListenerVariantName(ListenerVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<ListenerVariant> ParseListenerVariant(std::string_view name) {
  for (int i = 0; i < 2; ++i) {
    if (name == kVariantNames[i]) return static_cast<ListenerVariant>(i);
  }
  return Error::Validation("unknown TTL expiry listener variant \"" +
                           std::string(name) + "\" (correct, remove_only)");
}

std::vector<std::string> TtlExpiryListener::FilterPatterns(
    ListenerVariant variant, std::string_view required_attribute) {
  if (variant == ListenerVariant::kRemoveOnly) {
    return {R"({"eventName":["REMOVE"]})"};
  }
  json pattern = {
      {"userIdentity",
       {{"type", {"Service"}}, {"principalId", {"dynamodb.amazonaws.com"}}}},
      {"dynamodb",
       {{"OldImage",
         {{std::string(required_attribute),
           {{"SS", json::array({{{"exists", true}}})}}}}}}}};
  return {pattern.dump()};
}

Result<TtlExpiryListener> TtlExpiryListener::Open(Backend& backend,
                                                  ListenerConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckTableName("TTL expiry listener", config.table));
  if (config.required_attribute.empty() || config.required_attribute == "pk" ||
      config.required_attribute == "ttl") {
    return Error::Validation(
        "TTL expiry listener: required_attribute must be a non-key attribute "
        "other than ttl (default productids), got \"" +
        config.required_attribute + "\"");
  }
  if (!config.mapping.is_object()) {
    return Error::Validation(
        "TTL expiry listener: mapping must be an object of "
        "CreateEventSourceMapping fields, got " +
        config.mapping.dump());
  }
  for (const char* own :
       {"TableName", "EventSourceArn", "FunctionName", "StartingPosition",
        "FilterCriteria", "FunctionResponseTypes"}) {
    if (config.mapping.contains(own)) {
      return Error::Validation(std::string("TTL expiry listener: mapping ") +
                               own + " is set by the pattern");
    }
  }
  json request = config.mapping;
  request["TableName"] = config.table;
  request["FunctionName"] = config.function_name;
  request["StartingPosition"] = "TRIM_HORIZON";
  request["FunctionResponseTypes"] = {"ReportBatchItemFailures"};
  json filters = json::array();
  for (const std::string& pattern :
       FilterPatterns(config.variant, config.required_attribute)) {
    filters.push_back({{"Pattern", pattern}});
  }
  request["FilterCriteria"] = {{"Filters", filters}};
  auto esm_config = consumer::ParseEsmConfig(request);
  if (!esm_config.ok()) return esm_config.error();

  auto state = std::make_shared<State>();
  state->backend = &backend;
  state->config = std::move(config);
  State* raw = state.get();
  auto esm = std::make_unique<consumer::EventSourceMapping>(
      backend, *esm_config,
      std::make_unique<consumer::CallableFunction>(
          [raw](const json& event) { return HandleEvent(*raw, event); }),
      state->config.seed);
  return TtlExpiryListener(std::move(state), std::move(esm));
}

Status TtlExpiryListener::Setup() {
  Backend& backend = *state_->backend;
  const std::string& table = state_->config.table;
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      backend,
      {{"TableName", table},
       {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
       {"BillingMode", "PAY_PER_REQUEST"},
       {"StreamSpecification",
        {{"StreamEnabled", true}, {"StreamViewType", "NEW_AND_OLD_IMAGES"}}}}));
  DDBLAB_RETURN_IF_ERROR(EnsureStream(backend, table, "NEW_AND_OLD_IMAGES"));
  return EnsureTtl(backend, table, "ttl");
}

Status TtlExpiryListener::PutCart(std::string_view cart,
                                  const std::vector<std::string>& product_ids,
                                  int64_t ttl_epoch_seconds,
                                  const json& attributes) {
  const ListenerConfig& config = state_->config;
  if (cart.empty()) {
    return Error::Validation("TTL expiry listener: cart must not be empty");
  }
  if (!attributes.is_object()) {
    return Error::Validation(
        "TTL expiry listener: attributes must be an object of "
        "AttributeValues");
  }
  json item = attributes;
  for (const std::string& own :
       {std::string("pk"), std::string("ttl"), std::string(kVersion),
        config.required_attribute}) {
    if (item.contains(own)) {
      return Error::Validation("TTL expiry listener: attribute " + own +
                               " is the pattern's own");
    }
  }
  auto& versions = state_->carts[std::string(cart)];
  const int64_t version = versions.empty() ? 1 : versions.rbegin()->first + 1;
  item["pk"] = S(cart);
  item["ttl"] = N(ttl_epoch_seconds);
  item[kVersion] = N(version);
  if (!product_ids.empty()) {
    item[config.required_attribute] = {{"SS", product_ids}};
  }
  auto out = CallIdempotent(*state_->backend, "PutItem",
                            {{"TableName", config.table},
                             {"Item", item},
                             {"ReturnValues", "ALL_OLD"}});
  if (!out.ok()) {
    if (versions.empty()) state_->carts.erase(std::string(cart));
    return out.error();
  }
  // The version this write replaced says what became of the one before:
  // still there (replaced), or already gone (TTL deleted it).
  if (!versions.empty()) {
    State::Cart& previous = versions.rbegin()->second;
    if (previous.fate == State::Fate::kLatest) {
      const int64_t old = VersionOf(out->value("Attributes", json()));
      if (old == version) {
        previous.fate = State::Fate::kUnknown;  // our lost attempt wrote it
      } else {
        previous.fate = out->contains("Attributes") ? State::Fate::kReplaced
                                                    : State::Fate::kGone;
      }
    }
  }
  versions[version] = State::Cart{!product_ids.empty(), State::Fate::kLatest};
  return Status();
}

Status TtlExpiryListener::PlaceOrder(std::string_view cart) {
  const json request = {{"TableName", state_->config.table},
                        {"Key", {{"pk", S(cart)}}},
                        {"ConditionExpression", "attribute_exists(pk)"},
                        {"ReturnValues", "ALL_OLD"}};
  // The version ordered: the one the delete returns, else (a lost answer's
  // attempt deleted it) the last one written.
  int64_t ordered = 0;
  for (int attempt = 1;; ++attempt) {
    auto out = state_->backend->Call("DeleteItem", request);
    // After a lost answer, a failed condition means that attempt deleted it.
    const bool gone_by_us =
        attempt > 1 && !out.ok() &&
        out.error().type == ErrorType::kConditionalCheckFailed;
    if (out.ok()) ordered = VersionOf(out->value("Attributes", json()));
    if (out.ok() || gone_by_us) break;
    if (out.error().type != ErrorType::kOutcomeUnknown ||
        attempt >= kAttempts) {
      return out.error();
    }
  }
  auto& versions = state_->carts[std::string(cart)];
  if (ordered == 0 && !versions.empty()) ordered = versions.rbegin()->first;
  auto it = versions.find(ordered);
  if (it != versions.end()) it->second.fate = State::Fate::kPlaced;
  return Status();
}

Result<json> TtlExpiryListener::Handle(const json& event) {
  return HandleEvent(*state_, event);
}

const ListenerConfig& TtlExpiryListener::config() const {
  return state_->config;
}

const std::vector<json>& TtlExpiryListener::Delivered() const {
  return state_->delivered;
}

void TtlExpiryListener::SetSink(CartSink sink) {
  state_->sink = std::move(sink);
}

Result<int64_t> TtlExpiryListener::Poll(int64_t max_rounds) {
  return esm_->RunUntilIdle(max_rounds);
}

Result<Problems> TtlExpiryListener::Check() {
  // Deliveries by cart, then by the version their image holds.
  std::map<std::string, std::map<int64_t, int>> sunk;
  for (const json& image : state_->delivered) {
    std::string cart = image.contains("pk") ? image["pk"].value("S", "") : "";
    ++sunk[cart][VersionOf(image)];
  }
  using Fate = State::Fate;
  Problems problems;
  for (const auto& [cart, versions] : state_->carts) {
    auto out =
        state_->backend->Call("GetItem", {{"TableName", state_->config.table},
                                          {"Key", {{"pk", S(cart)}}},
                                          {"ConsistentRead", true}});
    if (!out.ok()) return out.error();
    const int64_t present =
        out->contains("Item") ? VersionOf((*out)["Item"]) : -1;
    for (const auto& [version, facts] : versions) {
      // A cart written once is named by its id alone.
      const std::string name =
          "cart " + cart +
          (versions.size() == 1 ? "" : " version " + std::to_string(version));
      const auto& counts = sunk[cart];
      const int count = counts.count(version) ? counts.at(version) : 0;
      const std::string times =
          count == 1 ? "once" : std::to_string(count) + " times";
      Fate fate = facts.fate;
      if (fate == Fate::kLatest) {
        // Absent: deleted (by TTL); another writer's item: replaced.
        fate = present == version ? Fate::kLatest
               : present >= 0     ? Fate::kReplaced
                                  : Fate::kGone;
      }
      if (count == 0 && (fate != Fate::kGone || !facts.has_products)) {
        continue;
      }
      switch (fate) {
        case Fate::kLatest:
          problems.push_back(
              name + " is still in the table but reached the sink " + times);
          break;
        case Fate::kReplaced:
          problems.push_back(name +
                             " was replaced by a newer cart while in the "
                             "table but reached the sink " +
                             times);
          break;
        case Fate::kPlaced:
          problems.push_back(name +
                             " was deleted by the user (an order placed) but "
                             "reached the sink " +
                             times + " as expired");
          break;
        case Fate::kGone:
        case Fate::kUnknown:
          if (!facts.has_products) {
            problems.push_back(name + " expired without " +
                               state_->config.required_attribute +
                               " but reached the sink " + times);
          } else if (count == 0 && fate == Fate::kGone) {
            problems.push_back(
                name + " was deleted by TTL but never reached the sink");
          } else if (count > 1) {
            problems.push_back(name + " reached the sink " + times);
          }
          break;
      }
    }
  }
  for (const auto& [cart, counts] : sunk) {
    for (const auto& [version, count] : counts) {
      auto it = state_->carts.find(cart);
      if (it == state_->carts.end() || !it->second.count(version)) {
        problems.push_back("the sink got cart \"" + cart + "\"" +
                           (version == 0
                                ? std::string()
                                : " version " + std::to_string(version)) +
                           ", which this listener never wrote");
      }
    }
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
