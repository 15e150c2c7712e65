// Scan (the DynamoDB API reference). Shared page logic: read_common.h.
//
// Check order, as DynamoDB (modelled by dynalite's AWS-verified tests):
// without the lock — JSON types and constraints, the Select rules (no
// "1 validation error detected: " prefix on Scan), mixing styles, legacy
// conversions (ScanFilter, AttributesToGet), ExclusiveStartKey values,
// Segment / TotalSegments, the expressions and unused placeholders; with
// the lock — the table, the index, the ExclusiveStartKey shape (its size,
// then the index key elements), ALL_ATTRIBUTES on a GSI, the start key's
// table keys, its segment, nested key paths in the projection and the
// filter, attributes a GSI does not project.
//
// Rows come in key order: (pk, sk) for the table, (ipk, isk, pk, sk) for an
// index; a segment keeps the rows whose partition key hashes into it
// (read_common.h), skipping the others without counting them.
#include <optional>
#include <string>
#include <utility>

#include "emulator/engine/call_context.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/multi_key.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/ops_read.h"
#include "emulator/engine/ops/read_common.h"

namespace ddblab::engine {
namespace {

using value::Item;

Status CheckSegments(const std::optional<int64_t>& segment,
                     const std::optional<int64_t>& total) {
  if (segment && !total) {
    return Error::Validation(
        "The TotalSegments parameter is required but was not present in the "
        "request when Segment parameter is present");
  }
  if (total && !segment) {
    return Error::Validation(
        "The Segment parameter is required but was not present in the "
        "request when parameter TotalSegments is present");
  }
  if (segment && *segment >= *total) {
    // us-east-1's text (DynamoDB's default Region) names both values; some
    // Regions now leave them out (docs/spec-notes/fidelity.md).
    return Error::Validation(
        "The Segment parameter is zero-based and must be less than parameter "
        "TotalSegments: Segment: " +
        std::to_string(*segment) +
        " is not less than TotalSegments: " + std::to_string(*total));
  }
  return OkStatus();
}

}  // namespace

Result<ScanRequest> ParseScan(const Json& request, ExpressionCache* cache) {
  RequestParser p(request);
  ScanRequest r;
  r.select = p.String(request, "Select");
  const bool select_valid =
      r.select && (*r.select == "SPECIFIC_ATTRIBUTES" || *r.select == "COUNT" ||
                   *r.select == "ALL_ATTRIBUTES" ||
                   *r.select == "ALL_PROJECTED_ATTRIBUTES");
  if (r.select) {
    p.Enum(*r.select, "select",
           {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
            "ALL_PROJECTED_ATTRIBUTES"});
  }
  r.index_name = p.String(request, "IndexName");
  if (r.index_name) p.CheckIndexName(r.index_name, "indexName");
  std::optional<int64_t> total = p.Integer(request, "TotalSegments");
  if (total) p.Range(*total, "totalSegments", 1, 1000000);
  ReadCapacityMode(p, request, &r.capacity);
  std::optional<std::string> name = p.TableNameOrArn(request);
  ExpressionInput in = ReadExpressionInput(p, request, kScanSpec);
  std::optional<int64_t> segment = p.Integer(request, "Segment");
  CheckSegment(p, segment);
  r.limit = p.Integer(request, "Limit");
  // us-east-1 words Scan's Limit below 1 the older way, with the value and
  // the member's wire name ("Value '0' at 'limit' ..."); Query's is "Value
  // at 'Limit' ..." (CheckLimit).
  if (r.limit) p.Range(*r.limit, "limit", 1, std::nullopt);
  r.consistent = p.Bool(request, "ConsistentRead").value_or(false);
  std::optional<Error> start_key_error;
  r.start_key =
      ReadAttributeMap(p, request, "ExclusiveStartKey", &start_key_error);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (select_valid) {
    if (std::optional<std::string> conflict = SelectConflict(
            r.select, in.attributes_to_get != nullptr,
            in.projection_text.has_value(), r.index_name.has_value())) {
      return Error::Validation(*conflict);
    }
  }
  DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));

  const bool legacy = in.legacy_filter != nullptr ||
                      in.attributes_to_get != nullptr ||
                      in.conditional_operator != nullptr;
  auto early_checks = [&]() -> Status {
    if (start_key_error) return StartKeyValueError(*start_key_error);
    return CheckSegments(segment, total);
  };
  if (!legacy) DDBLAB_RETURN_IF_ERROR(early_checks());
  DDBLAB_ASSIGN_OR_RETURN(r.expr, ParseExpressions(std::move(in), cache));
  if (legacy) DDBLAB_RETURN_IF_ERROR(early_checks());
  if (segment) r.segment = ScanSegment{*segment, *total};
  r.table_name = std::move(*name);
  return r;
}

namespace {

// The start key's shape (under the lock).
Status CheckScanStartKey(const Table& table, const IndexDef* index,
                         const Item& esk) {
  if (esk.size() != StartKeyNames(table, index).size()) {
    return Error::Validation(
        index != nullptr ? "The provided starting key is invalid"
                         : "The provided starting key is invalid: The "
                           "provided key element does not match the schema");
  }
  if (index == nullptr) return OkStatus();
  auto check = [&esk](const KeyElement& k, bool hash) -> Status {
    if (esk.find(k.name) == esk.end()) {
      return Error::Validation("The provided starting key is invalid");
    }
    return CheckStartKeyPiece(esk, k, hash);
  };
  for (const KeyElement* k : index->key.HashElements()) {
    DDBLAB_RETURN_IF_ERROR(check(*k, true));
  }
  for (const KeyElement* k : index->key.RangeElements()) {
    DDBLAB_RETURN_IF_ERROR(check(*k, false));
  }
  return OkStatus();
}

}  // namespace

Result<ReadResult> ExecuteScan(EmulatorImpl& impl, CallContext& call,
                               const ScanRequest& r) {
  ReadResult result;
  std::shared_ptr<const Table>& table = result.table;
  const IndexDef*& index = result.index;
  SelectMode& select = result.select;
  RawPage& page = result.page;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(index,
                            FindReadIndex(*table, r.index_name, r.consistent,
                                          ReadOperation::kScan));
    if (r.start_key) {
      DDBLAB_RETURN_IF_ERROR(CheckScanStartKey(*table, index, *r.start_key));
    }
    select = ResolveSelect(r.select, r.expr.projection.has_value(),
                           index != nullptr);
    DDBLAB_RETURN_IF_ERROR(CheckGsiSelect(index, select));
    if (r.start_key) {
      DDBLAB_RETURN_IF_ERROR(CheckStartTableKey(*table, *r.start_key));
      if (r.segment) {
        const std::string encoded =
            EncodeHashPart(ReadKeySchema(*table, index), *r.start_key)
                .value_or(std::string());
        if (SegmentOf(encoded, r.segment->total) != r.segment->segment) {
          return Error::Validation(
              "The provided starting key is invalid: Invalid "
              "ExclusiveStartKey. Please use ExclusiveStartKey with correct "
              "Segment. TotalSegments: " +
              std::to_string(r.segment->total) +
              " Segment: " + std::to_string(r.segment->segment));
        }
      }
    }
    DDBLAB_RETURN_IF_ERROR(
        CheckNestedKeyPaths(*table, ProjectionPaths(r.expr.projection)));
    if (r.expr.filter) {
      DDBLAB_RETURN_IF_ERROR(CheckNestedKeyPaths(
          *table, expr::ReferencedPaths(r.expr.filter->root)));
    }
    DDBLAB_RETURN_IF_ERROR(
        CheckGsiProjection(*table, index, r.expr.projection));

    PageSpec spec;
    spec.scan.table_id = table->id;
    spec.scan.index_id = index != nullptr ? index->id : storage::kBaseTable;
    if (r.start_key) {
      spec.scan.start = StartPosition(*table, index, *r.start_key);
    }
    spec.limit = r.limit;
    spec.segment = r.segment;
    spec.fetch_from_table = NeedsTableFetch(*table, index, select,
                                            r.expr.projection, r.expr.filter);
    spec.track_partitions = call.capacity.enforced();
    const ReadView view = impl.consistency().View(
        impl.store(), *table, index, r.consistent, impl.Now(), call.faults);
    DDBLAB_ASSIGN_OR_RETURN(page, ReadPage(view, *table, spec));
    DDBLAB_RETURN_IF_ERROR(AdmitPage(call.capacity, *table, index, page,
                                     r.consistent, ScanMinimumUnits(r.segment),
                                     ""));
  }
  return result;
}

Result<Json> RenderScan(const ScanRequest& r, ReadResult& result) {
  RenderSpec render;
  render.table = result.table.get();
  render.index = result.index;
  render.select = result.select;
  render.filter = r.expr.filter ? &*r.expr.filter : nullptr;
  render.projection = r.expr.projection ? &*r.expr.projection : nullptr;
  render.consistent = r.consistent;
  render.capacity = r.capacity;
  render.table_name = r.table_name;
  render.min_units = ScanMinimumUnits(r.segment);
  return RenderPage(result.page, render);
}

}  // namespace ddblab::engine
