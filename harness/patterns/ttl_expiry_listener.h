// harness/patterns/ttl_expiry_listener.h: acting on items DynamoDB's TTL
// deleted (the abandoned-cart pattern).
//
// A carts table (pk S) with TTL on `ttl` and a NEW_AND_OLD_IMAGES stream. A
// cart that nobody checks out expires; when DynamoDB's TTL deletes it, the
// deletion's stream record carries the cart as its OldImage, and a consumer
// (an event source mapping, harness/consumer) hands that image to a sink (a
// reminder mail, an analytics event). Placing an order is the user's own
// DeleteItem of the cart: that one must not reach the sink.
//
// Variants (ListenerVariant):
//   correct      the filter users deploy: only the TTL service's deletions
//                of carts that have the needed attribute,
//                  {"userIdentity": {"type": ["Service"],
//                                    "principalId":
//                                    ["dynamodb.amazonaws.com"]},
//                   "dynamodb": {"OldImage": {"productids":
//                                             {"SS": [{"exists": true}]}}}}
//   remove_only  filters on {"eventName": ["REMOVE"]} only: every user
//                DeleteItem (an order placed) is handed to the sink as an
//                abandoned cart, and so is an expired cart without products.
//
// Both variants report a sink failure as a partial batch failure
// (ReportBatchItemFailures), so the failed cart and the ones after it come
// again and the ones before it do not: each cart reaches the sink once.
//
// Each PutCart writes a new version of its cart: the item holds
// `cart_version` (N, 1 for a cart id's first PutCart), so a stream image
// names the version it carries. A cart id may be reused: a shopper's new
// cart after the old one expired is a new version, and the old version's
// mail is still due. The listener remembers every version written and what
// became of it (PutCart and PlaceOrder ask for ReturnValues ALL_OLD: the
// version a write replaced was still in the table, the one before a write
// that replaced nothing was gone); Check compares them with the table and
// with what the sink accepted, version by version. Call Poll (which
// delivers everything due) before Check: a TTL deletion not yet delivered
// counts as lost.
//
// Thread-safety: not thread-safe (one thread drives a listener, as one
// event source mapping is stepped by one thread). Moving it is fine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/consumer/esm.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class ListenerVariant {
  kCorrect,
  kRemoveOnly,
};

// "correct", "remove_only".
std::string_view ListenerVariantName(ListenerVariant variant);
Result<ListenerVariant> ParseListenerVariant(std::string_view name);

struct ListenerConfig {
  std::string table = "ddblab_carts";
  ListenerVariant variant = ListenerVariant::kCorrect;
  // The string set an expired cart must hold to be acted on (the correct
  // variant's filter requires it in the OldImage).
  std::string required_attribute = "productids";
  // The mapping's FunctionName (shows in its ARN and on-failure records).
  std::string function_name = "abandoned-cart";
  // Extra CreateEventSourceMapping fields (BatchSize, MaximumRetryAttempts,
  // ...) over the pattern's own; TableName, StartingPosition (TRIM_HORIZON),
  // FilterCriteria and FunctionResponseTypes are the pattern's and refused.
  json mapping = json::object();
  // Seeds the mapping's UUID and request ids.
  uint64_t seed = 1;
};

// Receives each expired cart's OldImage; an error makes the listener report
// that record as failed (it is delivered again).
using CartSink = std::function<Status(const json& old_image)>;

class TtlExpiryListener {
 public:
  // Validates `config` (a ValidationException naming the bad field; the
  // mapping's own errors as the consumer gives them).
  static Result<TtlExpiryListener> Open(Backend& backend,
                                        ListenerConfig config);

  const ListenerConfig& config() const;

  // The variant's filter patterns (FilterCriteria.Filters[].Pattern).
  static std::vector<std::string> FilterPatterns(
      ListenerVariant variant, std::string_view required_attribute);

  // Creates the table (pk S, on demand, NEW_AND_OLD_IMAGES stream) and turns
  // DynamoDB's TTL on for `ttl`, unless already so.
  Status Setup();

  // Writes the next version of cart `cart` expiring at
  // `ttl_epoch_seconds`, holding `product_ids` as the required string set
  // (no products: the attribute is left out, as DynamoDB has no empty set),
  // its `cart_version` and `attributes` (an object of AttributeValues; pk,
  // ttl, cart_version and the required attribute are the pattern's).
  Status PutCart(std::string_view cart,
                 const std::vector<std::string>& product_ids,
                 int64_t ttl_epoch_seconds,
                 const json& attributes = json::object());

  // The user checks out: the cart is deleted (DeleteItem with
  // attribute_exists(pk)). A cart already gone (deleted by TTL, or ordered
  // before) is ConditionalCheckFailedException and no order is placed.
  Status PlaceOrder(std::string_view cart);

  // Replaces the sink (by default every image is accepted). Images the sink
  // accepts are kept in Delivered() either way.
  void SetSink(CartSink sink);

  // Delivers everything due now (the mapping's RunUntilIdle). Returns the
  // invocations made.
  Result<int64_t> Poll(int64_t max_rounds = 1000);

  // The function body: a DynamoDB stream event in, {"batchItemFailures":
  // [...]} out (what the mapping's function does).
  Result<json> Handle(const json& event);

  // Old images the sink accepted, in delivery order.
  const std::vector<json>& Delivered() const;

  const consumer::EventSourceMapping& mapping() const { return *esm_; }

  // The invariant (after Poll), by cart version: the sink got every version
  // DynamoDB's TTL deleted that holds the required attribute, exactly once,
  // and nothing else: no version the user deleted (an order), none still in
  // the table or replaced by a newer PutCart while there, no expired version
  // without products. A version whose fate a lost answer hid may reach the
  // sink once or not at all. Reads every cart with GetItem.
  Result<Problems> Check();

  struct State;

 private:
  TtlExpiryListener(std::shared_ptr<State> state,
                    std::unique_ptr<consumer::EventSourceMapping> esm)
      : state_(std::move(state)), esm_(std::move(esm)) {}

  std::shared_ptr<State> state_;
  std::unique_ptr<consumer::EventSourceMapping> esm_;
};

}  // namespace ddblab::harness::patterns
