// One MeshNode as a same-point-in-time descriptor list read saw it (spec §4): the decoded
// descriptor, its StoreVersion, and the owner lease of the host run that published it, read
// directly by OwnerId. Placement chooses among NodeViews; Reserve and NewOwner condition their
// write on both versions, so a node whose descriptor or lease changed since the read is not used.
#pragma once

#include <cstdint>
#include <optional>

#include "impl/location/lease/owner_lease.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/store/spi/types.h"

namespace spotcheck::location {

struct NodeView {
  records::MeshNodeDescriptorRecord descriptor;
  store::StoreVersion descriptor_version;
  // The publisher's owner lease as read by OwnerId; version 0 when the record is missing.
  store::StoreVersion lease_version;
  std::int64_t lease_expires_at_ms = 0;
  store::StoreNowMs lease_read_now_ms = 0;
  // The lease record exists, carries the descriptor's (OwnerId, LeaseGeneration), and its
  // ExpiresAt lies after the StoreNow of the read.
  bool lease_valid = false;

  HostRun host_run() const { return HostRun{descriptor.owner_id, descriptor.lease_generation}; }
};

}  // namespace spotcheck::location
