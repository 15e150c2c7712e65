// harness/scenario/traced_backend.cc: recording the calls of a step.
#include "harness/scenario/traced_backend.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "harness/scenario/unmatched_rules.h"

namespace ddblab::harness::scenario {
namespace {

constexpr size_t kMaxInlineStrings = 512;

struct Hasher {
  uint64_t h = 14695981039346656037ULL;
  size_t strings = 0;
  void Byte(unsigned char c) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  void Bytes(const std::string& text) {
    strings += text.size();
    for (unsigned char c : text) Byte(c);
    Byte(0xff);
  }
  void Walk(const json& value) {
    // A positive integer is unsigned when parsed from HTTP and may be signed
    // when built in process: the same number either way.
    const json::value_t type = value.type() == json::value_t::number_unsigned
                                   ? json::value_t::number_integer
                                   : value.type();
    Byte(static_cast<unsigned char>(type));
    switch (value.type()) {
      case json::value_t::object:
        for (const auto& [key, member] : value.items()) {
          Bytes(key);
          Walk(member);
        }
        break;
      case json::value_t::array:
        for (const json& element : value) Walk(element);
        break;
      case json::value_t::string:
        Bytes(value.get_ref<const std::string&>());
        break;
      default:
        Bytes(value.dump());
        break;
    }
  }
};

}  // namespace

json SummarizeResponse(const json& response) {
  Hasher hasher;
  hasher.Walk(response);
  if (hasher.strings <= kMaxInlineStrings) return response;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(hasher.h));
  return json{{"digest", hex}, {"string_bytes", hasher.strings}};
}

Result<json> TracedBackend::Record(std::string_view operation,
                                   const json& request, TimePoint before,
                                   Result<json> out) {
  if (operation == "CreateTable") shapes_.Note(request);
  if (!recording_) return out;
  CallRecord record;
  record.operation = std::string(operation);
  if (footprints_) record.footprint = shapes_.OfCall(operation, request);
  record.waited = std::max(Duration::zero(), clock().Now() - before);
  record.tables = TablesOfRequest(request);
  if (out.ok()) {
    if (summaries_) record.response = SummarizeResponse(*out);
    for (const char* member : {"UnprocessedItems", "UnprocessedKeys"}) {
      auto it = out->find(member);
      if (it != out->end() && it->is_object() && !it->empty()) {
        record.unprocessed = true;
      }
    }
  } else {
    record.error = out.error();
  }
  calls_.push_back(std::move(record));
  return out;
}

Result<json> TracedBackend::Call(std::string_view operation,
                                 const json& request) {
  TimePoint before = clock().Now();
  return Record(operation, request, before,
                ForwardingBackend::Call(operation, request));
}

Result<json> TracedBackend::CallStreams(std::string_view operation,
                                        const json& request) {
  TimePoint before = clock().Now();
  return Record(operation, request, before,
                ForwardingBackend::CallStreams(operation, request));
}

Status TracedBackend::AdvanceClock(Duration d) {
  DDBLAB_RETURN_IF_ERROR(ForwardingBackend::AdvanceClock(d));
  if (mirror_) mirror_->Advance(d);
  return OkStatus();
}

Status TracedBackend::SetClock(TimePoint t) {
  DDBLAB_RETURN_IF_ERROR(ForwardingBackend::SetClock(t));
  if (mirror_) mirror_->Set(t);
  return OkStatus();
}

std::vector<CallRecord> TracedBackend::TakeCalls() {
  std::vector<CallRecord> out;
  out.swap(calls_);
  return out;
}

}  // namespace ddblab::harness::scenario
