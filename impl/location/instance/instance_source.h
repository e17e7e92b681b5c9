// The source side of an Instance Spot request (spec §7.1). The source reads the descriptor list
// of the mesh, resolves the stable type (instance_type.h), picks a target by placement among the
// nodes registering that type, and sends the request — creation info plus the first message. It
// never writes the Location Store: no owner, no generation, no Creating row is made here.
//
// The request crosses platform::Transport as command 50 (messaging/commands.h) through the node's
// Dispatcher: the source opens a PendingCall for the command-51 reply, sends, and waits at most
// its send timeout (InstanceSourceConfig), never past the deadline. No reply in that time is "no
// answer" (kDeadlineExceeded). If the target answers kRoute (Ready on another node) the source
// forwards the same request once to that route, over the transport too; a second kRoute ends as
// kInvalidOperation.
//
// At most once (framework 0.27's failover policy): once a request may have crossed the transport
// boundary, the target may have admitted and run it, so the source never resubmits it after an
// error — no answer, a stale route, a failure: each is terminal. The one exception is the owner-
// fence refusal kSpotMoving, made BEFORE admission: then ONE authority read under the same
// deadline decides — Missing (Close released the incarnation) activates a new incarnation once
// through placement; any other answer keeps the refusal terminal. kRoute is pre-admission too.
// The reply is handed to the caller once (instance.reply_delivered).
//
// The planted bug kRetryStaleInstanceRoute (LocationConfig::planted_bugs) plants framework 0.26's retry loop:
// after no answer / a stale route / not found / SpotMoving the source re-reads the authority row
// and resubmits the same OperationId to the refreshed route, or cold-activates a new incarnation
// with the same first message, in a loop under the deadline — which can run one operation twice.
#pragma once

#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "impl/location/config/location_config.h"
#include "impl/location/instance/outcome.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::instance {

struct InstanceCall {
  std::string spot_id;
  // InMesh (§7): the Mesh to activate the Spot in; empty = the host's one object-role Mesh. A
  // named Mesh the host does not have is kNotFound; omitted with none kNotConfigured, with two or
  // more kInvalidOperation — the same rule as creation's (creation/in_mesh.h).
  std::string in_mesh;
  std::optional<std::string> stable_type;  // omitted: chosen by the §7.1 rule
  std::string args;
  std::string first_message;
  platform::TimeUs deadline_us = 0;  // local
  std::optional<std::string> source_spot_id;  // the sending Spot, when a Spot sends
  std::string command39;                      // the command-39 information, passed through
};

struct InstanceSourceConfig {
  constexpr InstanceSourceConfig() = default;
  // NOLINTNEXTLINE(google-explicit-constructor): `InstanceSourceConfig config = {timeout}` reads well.
  constexpr InstanceSourceConfig(platform::TimeUs send_timeout) : send_timeout_us(send_timeout) {}

  // The send timeout: how long the source waits for one reply before it counts as no answer.
  platform::TimeUs send_timeout_us = platform::seconds(1);
  // The host's object-role Meshes (InstanceCall::in_mesh chooses among them); nullopt = only the
  // source's own Mesh.
  std::optional<std::vector<std::string>> object_meshes;
};

// The node a request is addressed to: its RID and, when the source read its descriptor, its
// host run (the target descriptor of command 50; empty on a route the source only knows by RID).
struct TargetNode {
  std::string rid_hex;
  messaging::WireHostRun host_run;
};

// What prepare() made: kCreated in `outcome.kind` means "ready to send" to `target` (its RID
// also in `outcome.owner_rid_hex`).
struct PreparedRequest {
  InstanceOutcome outcome;
  InstanceRequest request;
  TargetNode target;
};

class InstanceSource {
 public:
  InstanceSource(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
                 OwnerLease& lease, messaging::Dispatcher& dispatcher, std::string mesh_name, std::string rid_hex,
                 InstanceSourceConfig source_config = {});

  // Builds the request and picks the target by placement.
  PreparedRequest prepare(const InstanceCall& call);
  // prepare + send over the transport (+ one forward on kRoute, + one new activation after
  // kSpotMoving and a Missing authority read); emits instance.reply_delivered with the outcome
  // returned.
  InstanceOutcome send(const InstanceCall& call);

 private:
  // What one authority read of the SpotId found (the source only reads the Location Store).
  struct AuthorityAnswer {
    enum class Kind { kMissing, kReady, kCreating, kError } kind = Kind::kError;
    std::string owner_rid_hex;  // kReady
    std::uint64_t object_generation = 0;  // kReady: with the RID, the route snapshot 0.26 compared
  };
  AuthorityAnswer read_authority(const InstanceRequest& request, platform::TimeUs deadline_us, std::string_view why);
  // A placement target for a new activation (the descriptor list re-read); empty RID if none.
  TargetNode placement_target(const std::string& mesh_name, const std::string& stable_type);
  InstanceOutcome deliver_once(const InstanceCall& call, const InstanceRequest& request, TargetNode target);
  // One command-50 exchange with `target`: the reply's outcome, or no answer within the send
  // timeout (kDeadlineExceeded; the target may have admitted the request).
  InstanceOutcome exchange(const InstanceCall& call, const InstanceRequest& request, const TargetNode& target);
#if SPOTCHECK_PLANTED_BUGS
  // The planted 0.26 loop (planted bug kRetryStaleInstanceRoute): where to resubmit after
  // `failed`, or nullopt (terminal). planted_resubmit_target is the step deliver_once calls;
  // stale_route_retry its re-read loop. Both exist only for the planted bug.
  std::optional<std::string> planted_resubmit_target(const InstanceCall& call, const InstanceRequest& request,
                                                     const std::string& from_rid_hex, InstanceOutcome failed);
  std::optional<std::string> stale_route_retry(const InstanceCall& call, const InstanceRequest& request,
                                               const InstanceOutcome& failed);
#endif

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  messaging::Dispatcher& _dispatcher;
  std::string _mesh_name;
  std::string _rid_hex;
  InstanceSourceConfig _source_config;
};

}  // namespace spotcheck::location::instance
