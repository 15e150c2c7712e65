// emulator/value/attribute_name.cc: see attribute_name.h.
#include "emulator/value/attribute_name.h"

#include "emulator/value/codec.h"

namespace ddblab::value {

Status CheckAttributeName(std::string_view name) {
  if (name.empty()) return Error::Validation(kEmptyAttributeNameText);
  if (name.size() > kMaxAttributeNameBytes) {
    return Error::Validation(kAttributeNameTooLargeText);
  }
  return OkStatus();
}

}  // namespace ddblab::value
