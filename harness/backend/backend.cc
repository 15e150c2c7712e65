// harness/backend/backend.cc: OpenBackend (the backend string) and the
// "no such control" answers every backend starts from.
#include "harness/backend/backend.h"

#include "harness/backend/http_backend.h"
#include "harness/backend/inprocess_backend.h"

namespace ddblab::harness {

std::string_view CapabilityName(Capability capability) {
  switch (capability) {
    case Capability::kClock:
      return "clock";
    case Capability::kFaultPlan:
      return "fault plan";
    case Capability::kStreamShards:
      return "stream shard";
    case Capability::kTtlSweep:
      return "TTL sweep";
    case Capability::kReset:
      return "reset";
    case Capability::kConsistency:
      return "consistency";
    case Capability::kFaultDraws:
      return "fault draw";
  }
  return "unknown";
}

Error Backend::NoControl(Capability capability) const {
  return Error::Of(ErrorType::kUnknownOperation,
                   "backend " + name() + " has no " +
                       std::string(CapabilityName(capability)) + " control");
}

bool Backend::Has(Capability) const { return false; }
Status Backend::AdvanceClock(Duration) { return NoControl(Capability::kClock); }
Status Backend::SetClock(TimePoint) { return NoControl(Capability::kClock); }
Status Backend::SetFaultPlan(const json&) {
  return NoControl(Capability::kFaultPlan);
}
Status Backend::SetFaultDrawHook(FaultDrawHook) {
  return NoControl(Capability::kFaultDraws);
}
Result<json> Backend::SplitStreamShards(std::string_view,
                                        const std::optional<std::string>&) {
  return NoControl(Capability::kStreamShards);
}
Result<int64_t> Backend::SweepTtl() { return NoControl(Capability::kTtlSweep); }
Status Backend::Reset(const ResetSpec&) {
  return NoControl(Capability::kReset);
}
Status Backend::SetConsistency(const json&) {
  return NoControl(Capability::kConsistency);
}
Result<int64_t> Backend::SettleConsistency() {
  return NoControl(Capability::kConsistency);
}

Result<std::unique_ptr<Backend>> OpenBackend(std::string_view spec,
                                             const BackendOptions& options) {
  if (spec == "emulator") return OpenInProcessBackend("");
  if (spec.starts_with("emulator?")) {
    return OpenInProcessBackend(spec.substr(9));
  }
  if (spec.starts_with("http://") || spec.starts_with("https://")) {
    std::string url(spec);
    while (url.ends_with("/")) url.pop_back();
    return HttpBackend::OpenEndpoint(url, options);
  }
  if (spec == "aws") return HttpBackend::OpenAws("", options);
  if (spec.starts_with("aws:") && spec.size() > 4) {
    return HttpBackend::OpenAws(std::string(spec.substr(4)), options);
  }
  return Error::Validation(
      "unknown backend '" + std::string(spec) +
      "': expected emulator[?options], http[s]://HOST:PORT, aws or "
      "aws:REGION");
}

}  // namespace ddblab::harness
