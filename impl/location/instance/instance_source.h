// The source side of an Instance Spot request (spec §7.1). The source reads the descriptor list
// of the mesh, resolves the stable type (instance_type.h), picks a target by placement among the
// nodes registering that type, and sends the request — creation info plus the first message. It
// never writes the Location Store: no owner, no generation, no Creating row is made here.
//
// Delivery is a seam (`Deliver`): it hands the request to the named target node and returns that
// target's outcome. If the target answers kRoute (Ready on another node) the source forwards the
// same request once to that route; a second kRoute ends as kInvalidOperation.
//
// At most once (framework 0.27's failover policy): once a request may have crossed the transport
// boundary, the target may have admitted and run it, so the source never resubmits it after an
// error — no answer, a stale route, a failure: each is terminal. The one exception is the owner-
// fence refusal kSpotMoving, made BEFORE admission: then ONE authority read under the same
// deadline decides — Missing (Close released the incarnation) activates a new incarnation once
// through placement; any other answer keeps the refusal terminal. kRoute is pre-admission too.
// The reply is handed to the caller once (instance.reply_delivered).
//
// LocationConfig::test_only_bugs.retry_stale_instance_route plants framework 0.26's retry loop:
// after no answer / a stale route / not found / SpotMoving the source re-reads the authority row
// and resubmits the same OperationId to the refreshed route, or cold-activates a new incarnation
// with the same first message, in a loop under the deadline — which can run one operation twice.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/config/location_config.h"
#include "impl/location/instance/instance_outcome.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::instance {

struct InstanceCall {
  std::string spot_id;
  std::optional<std::string> stable_type;  // omitted: chosen by the §7.1 rule
  std::string args;
  std::string first_message;
  platform::TimeUs deadline_us = 0;  // local
};

class InstanceSource {
 public:
  using Deliver = std::function<InstanceOutcome(const std::string& target_rid_hex, const InstanceRequest& request)>;

  InstanceSource(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
                 OwnerLease& lease, std::string mesh_name, std::string rid_hex);

  // Builds the request and picks the target; kCreated in `outcome.kind` means "ready to send",
  // with the target's RID in `outcome.owner_rid_hex`.
  InstanceOutcome prepare(const InstanceCall& call, InstanceRequest& request);
  // prepare + deliver (+ one forward on kRoute, + one new activation after kSpotMoving and a
  // Missing authority read); emits instance.reply_delivered with the outcome returned.
  InstanceOutcome send(const InstanceCall& call, const Deliver& deliver);

 private:
  // What one authority read of the SpotId found (the source only reads the Location Store).
  struct AuthorityAnswer {
    enum class Kind { kMissing, kReady, kCreating, kError } kind = Kind::kError;
    std::string owner_rid_hex;  // kReady
  };
  AuthorityAnswer read_authority(const InstanceRequest& request, platform::TimeUs deadline_us, std::string_view why);
  // A placement target for a new activation (the descriptor list re-read); empty if none.
  std::string placement_target(const std::string& stable_type);
  InstanceOutcome deliver_once(const InstanceCall& call, const Deliver& deliver, InstanceRequest& request,
                               std::string target);
  // The planted 0.26 loop: where to resubmit after `failed`, or nullopt (terminal).
  std::optional<std::string> stale_route_retry(const InstanceCall& call, const InstanceRequest& request,
                                               const InstanceOutcome& failed);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  std::string _mesh_name;
  std::string _rid_hex;
};

}  // namespace spotcheck::location::instance
