// emulator/storage/stream_store.cc: the wire names of the stream enums.
#include "emulator/storage/stream_store.h"

namespace ddblab::storage {

std::string_view ViewTypeName(ViewType type) {
  switch (type) {
    case ViewType::kKeysOnly:
      return "KEYS_ONLY";
    case ViewType::kNewImage:
      return "NEW_IMAGE";
    case ViewType::kOldImage:
      return "OLD_IMAGE";
    case ViewType::kNewAndOldImages:
      return "NEW_AND_OLD_IMAGES";
  }
  return "KEYS_ONLY";
}

std::optional<ViewType> ParseViewType(std::string_view name) {
  for (ViewType t : {ViewType::kKeysOnly, ViewType::kNewImage,
                     ViewType::kOldImage, ViewType::kNewAndOldImages}) {
    if (ViewTypeName(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view EventNameText(EventName name) {
  switch (name) {
    case EventName::kInsert:
      return "INSERT";
    case EventName::kModify:
      return "MODIFY";
    case EventName::kRemove:
      return "REMOVE";
  }
  return "INSERT";
}

}  // namespace ddblab::storage
