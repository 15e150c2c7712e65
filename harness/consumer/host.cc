// harness/consumer/host.cc: the hosted mapping API and its delivery loop (see
// host.h).
#include "harness/consumer/host.h"

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace ddblab::harness::consumer {
namespace {

constexpr std::string_view kPrefix = "/_ddblab/event-source-mappings";

EsmHost::Response ErrorResponse(const Error& e) {
  std::string name = LambdaErrorName(e);
  int status = e.type == ErrorType::kResourceNotFound ? 404 : 400;
  return {status, json{{"__type", name}, {"message", e.message}}};
}

Error NotFound() {
  // Lambda's ResourceNotFoundException text for an unknown mapping UUID
  // (chosen, not verified byte for byte).
  return Error::ResourceNotFound("The resource you requested does not exist.");
}

}  // namespace

EsmHost::EsmHost(Backend& backend, uint64_t seed)
    : backend_(backend), rng_(seed) {}

EsmHost::~EsmHost() { Stop(); }

json EsmHost::DescribeLocked(const Hosted& h) const {
  json out = h.esm->Describe();
  out["Function"] = h.function;
  // ddblab's own: where the checkpoint of every shard read so far stands
  // (no SequenceNumber: nothing of the shard is processed yet).
  json shards = json::array();
  for (const std::string& shard : h.esm->Shards()) {
    json entry{{"ShardId", shard}};
    if (auto c = h.esm->Checkpoint(shard)) entry["SequenceNumber"] = *c;
    shards.push_back(std::move(entry));
  }
  out["ShardCheckpoints"] = std::move(shards);
  if (!h.last_error.empty()) out["StateTransitionReason"] = h.last_error;
  return out;
}

namespace {

// What a create body holds, checked.
struct CreateRequest {
  json function_spec;
  std::unique_ptr<Function> function;
  EsmConfig config;
};

Result<CreateRequest> ParseCreate(const json& request) {
  if (!request.is_object()) {
    return Error::Serialization("the body must be a JSON object");
  }
  auto fn = request.find("Function");
  if (fn == request.end()) {
    return InvalidParameter(
        "Function is required: {\"Command\": [...]} or {\"Url\": \"...\"}");
  }
  CreateRequest out;
  out.function_spec = *fn;
  DDBLAB_ASSIGN_OR_RETURN(out.function, FunctionFromJson(*fn));
  json fields = request;
  fields.erase("Function");
  DDBLAB_ASSIGN_OR_RETURN(out.config, ParseEsmConfig(fields));
  return out;
}

Error NameEntry(Error e, std::string_view source, size_t index) {
  e.message = std::string(source) + ": mapping " + std::to_string(index) +
              ": " + e.message;
  return e;
}

}  // namespace

Result<std::vector<json>> ReadMappingsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error::Validation("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Error::Validation(path + ": not valid JSON");
  if (doc.is_object() && doc.contains("EventSourceMappings")) {
    doc = doc["EventSourceMappings"];
  }
  if (!doc.is_array()) {
    return Error::Validation(path +
                             ": expected a JSON list of event source "
                             "mappings");
  }
  std::vector<json> bodies;
  for (size_t i = 0; i < doc.size(); ++i) {
    if (auto parsed = ParseCreate(doc[i]); !parsed.ok()) {
      return NameEntry(parsed.error(), path, i);
    }
    bodies.push_back(doc[i]);
  }
  return bodies;
}

Result<json> EsmHost::CreateLocked(const json& request) {
  DDBLAB_ASSIGN_OR_RETURN(CreateRequest parsed, ParseCreate(request));
  Hosted h;
  h.function = std::move(parsed.function_spec);
  h.esm = std::make_unique<EventSourceMapping>(
      backend_, std::move(parsed.config), std::move(parsed.function),
      rng_.Next());
  std::string uuid = h.esm->uuid();
  json out = DescribeLocked(h);
  mappings_.emplace(uuid, std::move(h));
  return out;
}

Result<json> EsmHost::Create(const json& request) {
  MutexLock lock(mu_);
  return CreateLocked(request);
}

Status EsmHost::LoadFile(const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<json> bodies, ReadMappingsFile(path));
  return LoadMappings(bodies, path);
}

Status EsmHost::LoadMappings(const std::vector<json>& bodies,
                             std::string_view source) {
  MutexLock lock(mu_);
  std::vector<std::string> added;
  for (size_t i = 0; i < bodies.size(); ++i) {
    auto made = CreateLocked(bodies[i]);
    if (!made.ok()) {
      for (const auto& uuid : added) mappings_.erase(uuid);
      return NameEntry(made.error(), source, i);
    }
    added.push_back((*made)["UUID"]);
  }
  return OkStatus();
}

EsmHost::Response EsmHost::Handle(std::string_view method,
                                  std::string_view path,
                                  std::string_view body) {
  if (!path.starts_with(kPrefix)) return ErrorResponse(NotFound());
  std::string_view rest = path.substr(kPrefix.size());
  json parsed = json::object();
  if (method == "POST" && (rest.empty() || rest == "/") &&
      !allow_api_functions_) {
    // Every function runs a command or calls a URL: only the operator
    // decides that (a mappings file at start, or --allow-functions).
    return {403,
            json{{"__type", "AccessDeniedException"},
                 {"message",
                  "creating a mapping through this API would run a command "
                  "or call a URL, which this host does not allow: start "
                  "ddblab serve with --allow-functions, or give the mapping "
                  "in --event-source-mappings FILE"}}};
  }
  if ((method == "POST" || method == "PUT") && !body.empty()) {
    // An empty body is an empty object (POST .../run takes none).
    parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      return ErrorResponse(
          Error::Serialization("the body must be a JSON object"));
    }
  }
  MutexLock lock(mu_);
  if (rest.empty() || rest == "/") {
    if (method == "POST") {
      auto made = CreateLocked(parsed);
      if (!made.ok()) return ErrorResponse(made.error());
      return {202, *made};
    }
    if (method == "GET") {
      json list = json::array();
      for (const auto& [uuid, h] : mappings_) list.push_back(DescribeLocked(h));
      return {200, json{{"EventSourceMappings", list}}};
    }
    return {405,
            json{{"__type", "MethodNotAllowed"},
                 {"message", "use GET or POST on " + std::string(kPrefix)}}};
  }
  rest.remove_prefix(1);  // '/'
  if (rest == "run") {
    if (method != "POST") {
      return {405, json{{"__type", "MethodNotAllowed"},
                        {"message", "use POST on .../run"}}};
    }
    return {200, json{{"Invocations", RunDueLocked()}}};
  }
  bool failures = false;
  if (rest.ends_with("/failures")) {
    failures = true;
    rest.remove_suffix(std::string_view("/failures").size());
  }
  auto it = mappings_.find(std::string(rest));
  if (it == mappings_.end()) return ErrorResponse(NotFound());
  Hosted& h = it->second;
  if (failures) {
    if (method != "GET") {
      return {405, json{{"__type", "MethodNotAllowed"},
                        {"message", "use GET on .../failures"}}};
    }
    return {200, json{{"Failures", h.esm->failures()}}};
  }
  if (method == "GET") return {200, DescribeLocked(h)};
  if (method == "PUT") {
    Status s = h.esm->Update(parsed);
    if (!s.ok()) return ErrorResponse(s.error());
    return {202, DescribeLocked(h)};
  }
  if (method == "DELETE") {
    json out = DescribeLocked(h);
    out["State"] = "Deleting";
    mappings_.erase(it);
    return {202, out};
  }
  return {405, json{{"__type", "MethodNotAllowed"},
                    {"message", "use GET, PUT or DELETE on a mapping"}}};
}

namespace {

// What a round can move: the checkpoint of every shard (discovering a shard
// moves nothing), and the records filtered or discarded.
struct Progress {
  std::vector<std::pair<std::string, std::string>> checkpoints;  // set ones
  int64_t filtered = 0;
  int64_t discarded = 0;
  bool operator==(const Progress&) const = default;
};

Progress ProgressOf(const EventSourceMapping& esm) {
  Progress p;
  for (const std::string& shard : esm.Shards()) {
    if (auto c = esm.Checkpoint(shard)) p.checkpoints.emplace_back(shard, *c);
  }
  p.filtered = esm.metrics().records_filtered;
  p.discarded = esm.metrics().records_discarded;
  return p;
}

// One delivery pass of one mapping: rounds until nothing is due. A batch
// that fails again and again is always due again at once (ddblab has no
// retry backoff), so the pass also ends after kMaxStuckRounds rounds in a
// row that invoked the function and moved nothing; those retries continue
// at the next pass (the next clock move). Lambda spaces such retries out
// in time; this keeps one clock move from running thousands of them.
Result<int64_t> DeliveryPass(EventSourceMapping& esm) {
  int64_t total = 0;
  int64_t stuck = 0;
  int64_t idle = 0;
  for (int64_t round = 0; round < kMaxRoundsPerPass; ++round) {
    Progress before = ProgressOf(esm);
    DDBLAB_ASSIGN_OR_RETURN(int64_t n, esm.RunOnce());
    if (n == 0) {
      // A round can finish a parent shard without invoking; its children
      // are read in the next one.
      if (++idle == 2) break;
      continue;
    }
    idle = 0;
    total += n;
    stuck = ProgressOf(esm) == before ? stuck + 1 : 0;
    if (stuck == kMaxStuckRounds) break;
  }
  return total;
}

}  // namespace

int64_t EsmHost::RunDueLocked() {
  int64_t total = 0;
  for (auto& [uuid, h] : mappings_) {
    auto n = DeliveryPass(*h.esm);
    if (n.ok()) {
      total += *n;
      h.last_error.clear();
    } else {
      h.last_error = ToString(n.error());
    }
  }
  return total;
}

void EsmHost::Clear(uint64_t seed) {
  MutexLock lock(mu_);
  mappings_.clear();
  rng_ = Rng(seed);
}

int64_t EsmHost::RunDue() {
  MutexLock lock(mu_);
  return RunDueLocked();
}

void EsmHost::Start() {
  if (runner_.joinable()) return;
  runner_ = std::jthread([this](std::stop_token stop) {
    Clock& clock = backend_.clock();
    while (!stop.stop_requested()) {
      RunDue();
      // Lambda polls a shard about 4 times a second.
      clock.SleepUntil(clock.Now() + std::chrono::milliseconds(250), stop);
    }
  });
}

void EsmHost::Stop() {
  if (!runner_.joinable()) return;
  runner_.request_stop();
  runner_.join();
}

}  // namespace ddblab::harness::consumer
