// Reading every MeshNode descriptor of one mesh as one same-point-in-time list (spec §4, §6.2),
// then checking each publisher's owner lease directly by its OwnerId (§3.1: never by enumerating
// leases). The scan covers the key range "mesh-node\0{MeshName}\0" .. "mesh-node\0{MeshName}\1"
// page by page with the provider's opaque continuation; ScanExpired restarts the whole list from
// the first page, so every NodeView comes from one list. Rows that do not decode are counted and
// left out, never guessed.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/location/descriptor/node_view.h"
#include "impl/location/errors.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct DescriptorList {
  std::vector<NodeView> nodes;  // key byte order (the scan's order)
  std::size_t pages = 0;
  std::size_t undecodable = 0;
  store::StoreNowMs now_ms = 0;  // StoreNow of the first page
};

// Bounds: at most kDescriptorListPagesMax pages per list, kDescriptorListRestartsMax restarts
// after ScanExpired.
inline constexpr std::size_t kDescriptorListPagesMax = 4096;
inline constexpr std::size_t kDescriptorListRestartsMax = 3;

Result<DescriptorList> read_descriptor_list(store::LocationStore& store, platform::Platform& platform,
                                            const LocationConfig& config,
                                            std::string_view mesh_name);

}  // namespace spotcheck::location
