// Publishing this host's MeshNode descriptor (spec §4, §5).
//
// prepare() builds the WHOLE descriptor at startup — this host run's OwnerId and
// LeaseGeneration stamped in, Revision 1 — and checks it against the record limits (one descriptor
// at most 1 MiB, at most 1,024 object capabilities). A descriptor over a limit fails startup and
// nothing is published: never a truncated or split version.
//
// publish() writes the descriptor at the current Revision, conditioned on the descriptor row as
// read and on this host's owner lease record. A row that already holds our Revision (or a later
// one of ours) is a harmless no-op reported as kIgnoredStale: never re-stored, never an error,
// however often it is replayed. A row of another host run whose owner lease is still valid is
// Conflict{kOwnedByOtherHost}; one whose lease is missing or expired is taken over (TAKEOVER),
// conditioned on that lease record as read. update() changes content under the next Revision; a
// Revision that would pass 2^63-1 switches the publisher to Error and stops publishing.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/location/errors.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

enum class PublishOutcome {
  kPublished,     // stored (first publish or a new Revision of ours)
  kIgnoredStale,  // the store already holds this Revision (or a later one): nothing written
  kTakenOver,     // replaced a descriptor whose host run's owner lease had ended
};

std::string_view to_string(PublishOutcome outcome);

class DescriptorPublisher {
 public:
  DescriptorPublisher(const LocationConfig& config, platform::Platform& platform,
                      store::LocationStore& store, OwnerLease& lease);

  // Startup. `descriptor`'s owner fields and Revision are filled in here (Revision starts at 1
  // unless one is given). kInvalidArgument: over a limit or invalid; nothing was published.
  Result<Done> prepare(records::MeshNodeDescriptorRecord descriptor);

  // Publishes (or, at an unchanged Revision, harmlessly renews) the prepared descriptor.
  Result<PublishOutcome> publish();

  // New content under Revision + 1, then publish(). Over a limit: kInvalidArgument, the previous
  // descriptor stays. Revision exhausted: the publisher switches to Error and stops publishing.
  Result<PublishOutcome> update(records::MeshNodeDescriptorRecord descriptor);

  bool prepared() const { return _prepared; }
  bool stopped() const { return _stopped; }
  std::uint64_t revision() const { return _descriptor.descriptor_revision; }
  const records::MeshNodeDescriptorRecord& descriptor() const { return _descriptor; }

 private:
  Result<Done> check_limits(records::MeshNodeDescriptorRecord& descriptor) const;
  // A write of this publish() call whose reply was lost: found later, it applied.
  struct UnresolvedWrite {
    store::Bytes bytes;
    PublishOutcome success = PublishOutcome::kPublished;  // what it was: publish or takeover
  };
  // The conditions an attempt writes under, and what its success is (publish or takeover).
  struct PublishPlan {
    std::vector<store::Condition> conditions;
    PublishOutcome success = PublishOutcome::kPublished;
  };
  using Planned = std::variant<PublishPlan, Attempt<PublishOutcome>>;
  // One attempt: read and judge the row (plan_publish), then write (write_planned). A write whose
  // reply was lost and that a re-read did not find joins `unresolved` for the next attempts.
  Attempt<PublishOutcome> publish_attempt(std::vector<UnresolvedWrite>& unresolved);
  // Reads our row: the plan, or the attempt's result already (a no-op, an error, an earlier
  // attempt found applied).
  Planned plan_publish(const std::vector<UnresolvedWrite>& unresolved);
  // The row holds another host run's descriptor: the condition on its owner lease record as read,
  // or Conflict while that lease is valid.
  std::variant<store::Condition, Attempt<PublishOutcome>> takeover_condition(
      const records::MeshNodeDescriptorRecord& current);
  Attempt<PublishOutcome> write_planned(PublishPlan plan, std::vector<UnresolvedWrite>& unresolved);
  // `resolved`: the write's success was established by a re-read (§10), not by its own reply.
  void emit(std::string_view outcome, std::int64_t version, std::int64_t store_now_ms,
            bool resolved = false);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  records::MeshNodeDescriptorRecord _descriptor;
  store::Key _key;
  bool _prepared = false;
  bool _stopped = false;
};

}  // namespace spotcheck::location
