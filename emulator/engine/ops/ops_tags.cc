// TagResource / UntagResource / ListTagsOfResource (the DynamoDB API
// reference).
#include <algorithm>
#include <set>
#include <utility>

#include "emulator/engine/operations.h"
#include "emulator/engine/ops/ops_table_internal.h"

namespace ddblab::engine {
namespace {

constexpr size_t kMaxTags = 50;

// Letters, digits, white space and _ . : / = + - @ (non-ASCII bytes are
// taken as letters).
bool ValidTagText(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) continue;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9')) {
      continue;
    }
    if (std::string_view(" \t\n\r_.:/=+-@").find(static_cast<char>(c)) !=
        std::string_view::npos) {
      continue;
    }
    return false;
  }
  return true;
}

// Resolves a ResourceArn to a table entry, with the tag APIs' errors.
Result<Catalog::Entry*> FindTaggedTable(EmulatorImpl& impl,
                                        const std::string& arn)
    DDBLAB_REQUIRES(impl.mu()) {
  if (arn.rfind("arn:", 0) != 0) {
    return Error::Validation(std::string(kInvalidParams) +
                             "ARNs must start with 'arn:': " + arn);
  }
  // arn:<partition>:dynamodb:<region>:<account>:table/<name>[/...]
  std::vector<std::string> parts;
  size_t pos = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = arn.find(':', pos);
    if (colon == std::string::npos) {
      return Error::Validation(
          "Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
    parts.push_back(arn.substr(pos, colon - pos));
    pos = colon + 1;
  }
  std::string resource = arn.substr(pos);
  if (parts[2] != "dynamodb" || resource.rfind("table/", 0) != 0 ||
      resource.size() <= 6) {
    return Error::Validation(
        "Invalid TableArn: Invalid ResourceArn provided as input " + arn);
  }
  std::string rest = resource.substr(6);
  size_t slash = rest.find('/');
  const Error not_found = Error::ResourceNotFound(
      "Requested resource not found: ResourceArn: " + arn + " not found");
  if (slash != std::string::npos) {
    std::string kind = rest.substr(slash + 1);
    if (kind.rfind("index/", 0) == 0) {
      return Error::Validation(
          std::string(kInvalidParams) +
          "Invalid resource arn provided, only table or stream is accepted. "
          "Provided resource arn: " +
          arn);
    }
    return not_found;  // streams carry no tags here
  }
  if (parts[3] != impl.options().region ||
      parts[4] != impl.options().account_id) {
    return not_found;
  }
  Result<Catalog::Entry*> entry =
      impl.FindTable(rest.substr(0, slash), TableLookup::kControl);
  if (!entry.ok()) return not_found;
  return entry;
}

std::optional<std::string> ReadArn(RequestParser& p, const Json& request) {
  std::optional<std::string> arn = p.String(request, "ResourceArn");
  p.NotNull(arn.has_value(), "resourceArn");
  if (arn) p.Length(*arn, "resourceArn", 1, 1283);
  return arn;
}

Status SaveTags(EmulatorImpl& impl, Catalog::Entry* entry,
                std::vector<Tag> tags) DDBLAB_REQUIRES(impl.mu()) {
  Table next = *entry->table;
  next.tags = std::move(tags);
  return CommitTableChange(impl, entry, std::move(next));
}

Result<Json> TagResource(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn = ReadArn(p, request);
  bool present = false;
  std::vector<Tag> tags = ParseTags(p, request, "tags", &present);
  p.NotNull(present, "tags");
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (tags.empty()) {
    return Error::Validation("Atleast one Tag needs to be provided as Input.");
  }
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry, FindTaggedTable(impl, *arn));
  if (entry->table->status == TableStatus::kCreating) {
    return *TableBusyError(*entry->table);
  }
  DDBLAB_RETURN_IF_ERROR(CheckTags(tags, entry->table->tags));
  std::vector<Tag> merged = entry->table->tags;
  MergeTags(&merged, tags);
  DDBLAB_RETURN_IF_ERROR(SaveTags(impl, entry, std::move(merged)));
  return Json::object();
}

Result<Json> UntagResource(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn = ReadArn(p, request);
  const Json* keys = p.List(request, "TagKeys");
  p.NotNull(keys != nullptr, "tagKeys");
  std::vector<std::string> names;
  if (keys != nullptr) {
    for (size_t i = 0; i < keys->size(); ++i) {
      std::optional<std::string> k = p.StringValue((*keys)[i]);
      if (!k) continue;
      p.Length(*k, ElementPath("tagKeys", i), 1, 128);
      names.push_back(*k);
    }
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (names.empty()) {
    return Error::Validation(
        "Atleast one Tag Key needs to be provided as Input.");
  }
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry, FindTaggedTable(impl, *arn));
  if (entry->table->status == TableStatus::kCreating) {
    return *TableBusyError(*entry->table);
  }
  std::vector<Tag> kept;
  for (const Tag& t : entry->table->tags) {
    if (std::find(names.begin(), names.end(), t.first) == names.end()) {
      kept.push_back(t);
    }
  }
  DDBLAB_RETURN_IF_ERROR(SaveTags(impl, entry, std::move(kept)));
  return Json::object();
}

Result<Json> ListTagsOfResource(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn = ReadArn(p, request);
  (void)p.String(request, "NextToken");
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  // DynamoDB answers ListTagsOfResource on a table that does not exist (in
  // this account and region) with AccessDeniedException, naming the caller.
  // The caller's ARN here is the account's root (ddblab has no IAM users).
  const Error denied = Error::Of(
      ErrorType::kAccessDenied,
      "User: arn:aws:iam::" + impl.options().account_id +
          ":root is not authorized to perform: dynamodb:ListTagsOfResource on "
          "resource: " +
          *arn);
  Result<Catalog::Entry*> found = FindTaggedTable(impl, *arn);
  if (!found.ok()) {
    if (found.error().type == ErrorType::kResourceNotFound) return denied;
    return found.error();
  }
  Catalog::Entry* entry = *found;
  if (entry->table->status == TableStatus::kCreating) return denied;
  Json tags = Json::array();
  for (const auto& [k, v] : entry->table->tags) {
    tags.push_back(Json{{"Key", k}, {"Value", v}});
  }
  return Json{{"Tags", std::move(tags)}};
}

}  // namespace

std::vector<Tag> ParseTags(RequestParser& p, const Json& obj,
                           std::string_view path, bool* present) {
  std::vector<Tag> tags;
  const Json* list = p.List(obj, "Tags");
  *present = list != nullptr;
  if (list == nullptr) return tags;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string epath = ElementPath(path, i);
    const Json* s = p.StructValue((*list)[i], "Tag");
    if (s == nullptr) {
      p.NotNull(false, epath);
      continue;
    }
    std::optional<std::string> key = p.String(*s, "Key");
    std::optional<std::string> value = p.String(*s, "Value");
    p.NotNull(key.has_value(), MemberPath(epath, "key"));
    if (key) p.Length(*key, MemberPath(epath, "key"), 1, 128);
    p.NotNull(value.has_value(), MemberPath(epath, "value"));
    if (value) p.Length(*value, MemberPath(epath, "value"), 0, 256);
    tags.emplace_back(key.value_or(""), value.value_or(""));
  }
  return tags;
}

Status CheckTags(const std::vector<Tag>& tags,
                 const std::vector<Tag>& existing) {
  std::set<std::string> seen;
  for (const auto& [key, value] : tags) {
    if (!ValidTagText(key)) {
      return Error::Validation("The Tag Key provided is invalid, Key: " + key);
    }
    if (key.rfind("aws:", 0) == 0) {
      return Error::Validation("Tag Key cannot be prefixed with aws:, Key: " +
                               key);
    }
    if (!ValidTagText(value)) {
      return Error::Validation("The Tag Value provided is invalid, Value: " +
                               value);
    }
    if (!seen.insert(key).second) {
      return Error::Validation(
          "Duplicate Tag Keys provided as input: Duplicate Tag Key found " +
          key);
    }
  }
  std::vector<Tag> merged = existing;
  MergeTags(&merged, tags);
  if (merged.size() > kMaxTags) {
    return Error::Validation(
        "Number of Tags exceed the current limit for the provided ResourceArn");
  }
  return OkStatus();
}

void MergeTags(std::vector<Tag>* into, const std::vector<Tag>& tags) {
  for (const Tag& t : tags) {
    auto it = std::find_if(into->begin(), into->end(),
                           [&](const Tag& x) { return x.first == t.first; });
    if (it != into->end()) {
      it->second = t.second;
    } else {
      into->push_back(t);
    }
  }
}

Result<Json> HandleTagResource(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return TagResource(impl, request);
}

Result<Json> HandleUntagResource(EmulatorImpl& impl, CallContext& /*call*/,
                                 const Json& request) {
  return UntagResource(impl, request);
}

Result<Json> HandleListTagsOfResource(EmulatorImpl& impl, CallContext& /*call*/,
                                      const Json& request) {
  return ListTagsOfResource(impl, request);
}

}  // namespace ddblab::engine
