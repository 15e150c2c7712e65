// emulator/server/crc32.h: CRC-32 (zlib / IEEE 802.3 polynomial) of bytes.
//
// DynamoDB puts the CRC-32 of the exact response body bytes in the
// x-amz-crc32 header as an unsigned decimal; botocore retries a response
// whose CRC does not match. Table-driven (slicing-by-8), no dependencies.
//
// Thread-safety: pure functions over constant tables.
#pragma once

#include <cstdint>
#include <string_view>

namespace ddblab::server {

// CRC-32 of `data`, continuing from `crc` (0 to start), as zlib's crc32().
uint32_t Crc32(std::string_view data, uint32_t crc = 0);

}  // namespace ddblab::server
