// CRC-32C (Castagnoli: polynomial 0x1EDC6F41, reflected, initial and final XOR 0xFFFFFFFF), the
// checksum a Restore request declares for its whole payload (spec §9.1). Boost.CRC computes it.
#pragma once

#include <cstdint>
#include <string_view>

namespace spotcheck::location::relocation {

std::uint32_t crc32c(std::string_view bytes);

}  // namespace spotcheck::location::relocation
