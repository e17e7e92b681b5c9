// Timing and bounds of Actor / User Spot creation (spec §7). Not spec values except the 5-minute
// final-result retention.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "impl/planted/planted_bugs.h"
#include "impl/platform/time.h"

namespace spotcheck::location::creation {

struct CreationConfig {
  // The object-role Meshes this host takes part in (§7 InMesh: a creation names one, or omits it
  // when there is exactly one); empty: only the Mesh of its own MeshNode descriptor.
  std::vector<std::string> object_meshes;
  // The source resends its command (same request id, same OperationId, same target) this often
  // while no reply came, after re-reading the stored final result and the Creating row (§10).
  platform::TimeUs resend_interval_us = platform::millis(500);
  // GetOrCreate re-reads a Creating row of another request this often while it waits (§7).
  platform::TimeUs poll_interval_us = platform::millis(200);
  // Back-off after a store error before the next attempt.
  platform::TimeUs store_retry_backoff_us = platform::millis(100);
  // No new store request is started with less than this left before the call's deadline, so a
  // call ends by its deadline (the request itself is bounded by the store timeout).
  platform::TimeUs deadline_guard_us = platform::millis(20);
  // A stored final result stays readable this long after the original deadline, by store time
  // (§7: 5 minutes).
  std::int64_t result_retention_ms = 5 * 60 * 1000;
  // A Creating row whose request deadline passed this long ago (store time) is abandoned: a
  // reader cancels it (Abort conditioned on its StoreVersion) so the ID can be created again.
  std::int64_t abandoned_after_ms = 5'000;
  // Bound on the attempts of one Manager call (re-reads, reserves, resends).
  std::uint32_t attempts_max = 256;
  // Operations a target remembers (in-flight and answered) to deduplicate resent commands.
  std::size_t remembered_operations_max = 4096;
  // Stored sizes (§7): the creation request and the final result, each at most 1 MiB.
  std::size_t request_bytes_max = 1'048'576;
  std::size_t result_bytes_max = 1'048'576;

  // §2: how many Relocation Stores the Framework configuration registered for this host (the
  // simulator hosts one for every node; 0 models a configuration that registered none).
  std::size_t relocation_stores = 1;

  // Deliberate protocol bugs a test plants (impl/planted/planted_bugs.h; here only
  // kFactoryBeforeVerify, kNeverCancelAbandoned and kIgnoreInMesh are read); empty in production.
  planted::PlantedBugs planted_bugs;
};

}  // namespace spotcheck::location::creation
