// One host run's relocations of single Actors (spec §1.3, §8, §8.2, §9.1, §9.2, §9.4, §10, §7.3),
// over the node's transport (command 54) with the object runtime's queues: the source and target
// state machines (source_handoff.h, target_handoff.h) given I/O.
//
// Source, move(): admission (§5), the ingress hold (ObjectHost::begin_move), capture after the
// current turn (the queued messages are the saved work), the Restore request and its chunks (the
// payload: the saved work's commands 52; length, chunk count and CRC-32C declared), then the wait
// for relay-ready. Relay-ready accepted: the ingress hold is relayed and cutover sent one-way on the
// same ordered connection, the instance goes, the move is recorded for Message Follow, and the
// source never reopens. An explicit failure from the target before relay-ready: the saved work and
// the ingress hold go back to the queue in order and dispatch reopens (§9.4), the Location Store
// neither read nor written. No reply by the Restore deadline: the target may still hold a
// prepared attempt, so the source waits until no CAS of it can apply (the deadline, one store
// request and the fencing margin later), then reads the row: still its own at the same
// AuthorityOwnerGeneration, it reopens; the target's, it hands over.
//
// Target, handle(): the temporary registration first (the attempt exists before its payload),
// the assembly (restore_assembly.h: binding, declared length and checksum), the restore into an
// instance not yet exposed, relay-ready; then relay and cutover (or 1,000 ms) before the CAS —
// the target's own NewOwner of the row as first read, fenced by the source's host run and
// AuthorityOwnerGeneration — repeated on an unknown or retryable result until the Restore
// deadline (§10). Applied: saved work, relay and temporary work enter the real queue in that
// order and dispatch opens (§9.2). Otherwise location_update_failed or other_owner: the work is
// answered unrun (its senders look the object up again), nothing opens.
//
// Message Follow (§7.3): a message for an object this host run moved away is forwarded to the
// target it recorded, with the hop bookkeeping, never after a store read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/config/location_config.h"
#include "impl/location/descriptor/node_view.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/object_host.h"
#include "impl/location/relocation/message_follow.h"
#include "impl/location/relocation/restore_assembly.h"
#include "impl/location/relocation/source_handoff.h"
#include "impl/location/relocation/target_handoff.h"
#include "impl/platform/platform.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::relocation {

struct RelocationLimits {
  platform::TimeUs restore_timeout_us = platform::seconds(4);  // the Restore deadline after the move began
  std::size_t chunk_bytes = 512;                               // payload bytes per chunk
  platform::TimeUs message_follow_us = platform::seconds(30);  // MessageFollowDuration
  platform::TimeUs capture_poll_us = platform::millis(1);      // the wait for the current turn
  platform::TimeUs cas_retry_us = platform::millis(50);        // between §10 read/CAS rounds
  std::size_t saved_work_max = 1'024;                          // messages one payload carries
};

enum class MoveOutcome {
  kRejected,     // the relocation policy refuses it, before anything changes (DisableRelocation, §2)
  kHandedOver,   // relay-ready accepted: the object is the target's (or will be; never the source's)
  kCancelled,    // the target failed before relay-ready, or never answered and the row is ours: reopened
  kNotAdmitted,  // §5: the source may not start a relocation
  kNotHosted,    // no Ready instance of that generation here to move
};
const char* to_string(MoveOutcome outcome);

// Whether a factory's relocation policy lets its objects move: RecreateOnRelocation or
// PreserveStateWith (DisableRelocation and an unspecified policy do not, §2).
bool relocates(records::CapabilityPolicy policy);

class RelocationRuntime {
 public:
  RelocationRuntime(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
                    OwnerLease& lease, AuthorityOps& authority, messaging::Dispatcher& dispatcher,
                    objects::ObjectHost& objects, std::string rid_hex, std::string mesh_name,
                    std::vector<records::ObjectCapability> capabilities, RelocationLimits limits = {});
  RelocationRuntime(const RelocationRuntime&) = delete;
  RelocationRuntime& operator=(const RelocationRuntime&) = delete;

  // The source's move of `active` (this host run's Active row, hosted Ready here) to `target`.
  // Rejected before anything changes (§2: DisableRelocation is rejected before Capture) unless this
  // host run registered the object's type with RecreateOnRelocation or PreserveStateWith and the
  // target's descriptor names the same policy for it (with a snapshot adapter, for PreserveStateWith).
  MoveOutcome move(const AuthoritySnapshot& active, const NodeView& target);
  // Whether the object is being moved from here or to here, or was handed over from
  // AuthorityOwnerGeneration `owner_generation` (its row may still name this host run until the
  // target's CAS): this host run must neither host it again nor change its row — the move's
  // tasks do.
  bool busy(const objects::ObjectKey& key, std::uint64_t owner_generation) const;
  // The host run is shutting down (§11): a Restore from now on is answered failed (the source
  // keeps its object); attempts already past relay-ready go on.
  void stop() { _stopped = true; }
  // The dispatcher's handler for command 54.
  void handle(platform::RoutingId from, messaging::RelocationCommand command);
  // ObjectHost's forwarder: a message for an object this host run moved away (Message Follow).
  bool follow(const messaging::ObjectMessage& message, const std::string& passed, std::uint64_t last_owner_gen);

 private:
  // The source's wait for the target's answer to its Restore.
  struct SourceMove {
    std::unique_ptr<platform::Gate> answered;
    std::uint64_t attempt = 0;
    std::optional<messaging::RelocationStep> answer;  // kRelayReady or kFailed
    std::string why;
  };

  // One target attempt: its state machine, the Restore's header, and the cutover's wake-up.
  struct TargetMove {
    TargetMove(RestoreBinding binding, platform::TimeUs deadline_us, planted::PlantedBugs planted)
        : handoff(std::move(binding), deadline_us, planted) {}
    TargetHandoff handoff;
    messaging::RelocationCommand restore;  // the header: the object, the source, the declared payload
    platform::RoutingId source = 0;
    std::unique_ptr<platform::Gate> cutover;
    std::vector<objects::MovedTimer> timers;           // the payload's timers, armed when dispatch opens
    std::optional<std::uint64_t> first_read_version;  // the row's StoreVersion the CAS is conditioned on
    std::uint64_t owner_generation = 0;                // once owner: the row's AuthorityOwnerGeneration
    bool cas_sent = false;                             // a round's NewOwner went to the store
  };

  // What the capture took out of the instance: the saved work and the timers not yet run.
  struct Captured {
    std::vector<objects::QueuedMessage> saved;
    std::vector<objects::MovedTimer> timers;
    std::optional<std::string> state;  // PreserveStateWith only
  };

  // The relocation policy this host run registered for (kind, stable type): kDisabled when none.
  records::CapabilityPolicy policy_of(records::AuthorityKind kind, const std::string& stable_type) const;
  // Why a move of `active` to `target` is refused by the policies (§2), or "" when it may go.
  std::string refusal(const AuthoritySnapshot& active, const NodeView& target) const;

  // source
  MoveOutcome hand_off(SourceHandoff& handoff, const AuthoritySnapshot& active, platform::RoutingId to);
  Captured capture(SourceHandoff& handoff, const AuthoritySnapshot& active, records::CapabilityPolicy policy);
  // The object and this host run as a relocation step names them; about_of adds the move's binding.
  messaging::RelocationCommand about_object(const AuthoritySnapshot& active) const;
  messaging::RelocationCommand about_of(const SourceHandoff& handoff, const AuthoritySnapshot& active) const;
  void send_payload(const SourceHandoff& handoff, const AuthoritySnapshot& active, platform::RoutingId to,
                    const Captured& captured, std::int64_t deadline_store_ms);
  MoveOutcome hand_over(SourceHandoff& handoff, const AuthoritySnapshot& active, platform::RoutingId to);
  MoveOutcome cancel(SourceHandoff& handoff, const AuthoritySnapshot& active, Captured captured, std::string_view why);
  MoveOutcome settle_silent(SourceHandoff& handoff, const AuthoritySnapshot& active, platform::RoutingId to,
                            Captured captured, platform::TimeUs deadline_us);
  // A relocation.message_* event (moved, work_returned, message_late) about `message`.
  void message_event(std::string_view kind, const messaging::ObjectMessage& message, std::string_view via,
                     std::string_view to, std::string_view binding);
  void moved(const messaging::ObjectMessage& message, std::string_view via, platform::RoutingId to,
             std::string_view binding);
  // target
  void on_restore(platform::RoutingId from, const messaging::RelocationCommand& command);
  void on_chunk(platform::RoutingId from, const messaging::RelocationCommand& command);
  void on_relay(const messaging::RelocationCommand& command);
  void on_cutover(const messaging::RelocationCommand& command);
  void on_follow(platform::RoutingId from, const messaging::RelocationCommand& command);
  void restored(const std::string& binding_text, std::string_view payload);
  void run_cas(std::string binding_text);
  CasResult cas_once(TargetMove& move);
  void finish_target(const std::string& binding_text);
  void fail_target(TargetMove& move, std::string_view why);
  // Drops the attempt (and the object's registration) if it is still `move`.
  void forget_target(const std::string& binding_text, const TargetMove& move);
  void reply(platform::RoutingId to, const messaging::RelocationCommand& about, messaging::RelocationStep step,
             std::string why);
  void progress(std::string_view kind, const messaging::RelocationCommand& about, std::string_view target,
                std::int64_t count, std::string_view why);
  static std::optional<RestoreBinding> binding_of(const messaging::RelocationCommand& command);
  TargetMove* target_move(const messaging::RelocationCommand& command);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  AuthorityOps& _authority;
  messaging::Dispatcher& _dispatcher;
  objects::ObjectHost& _objects;
  std::string _rid_hex;
  std::string _mesh_name;
  std::vector<records::ObjectCapability> _capabilities;  // this host run's registered factories
  RelocationLimits _limits;
  RestoreAssemblies _assemblies;
  MessageFollow _follow;
  std::map<std::string, std::shared_ptr<SourceMove>> _sources;  // by RelocationId hex
  std::map<std::string, std::shared_ptr<TargetMove>> _targets;  // by RestoreBinding::text()
  std::map<std::string, std::string> _target_of_object;         // object key text -> binding text
  bool _stopped = false;
  std::set<std::string> _moving;                                // object key texts moving from here
  // Attempts that opened dispatch here, kept MessageFollowDuration: a relay that comes after the
  // open is queued as it comes — late relay (relocation.message_late) when the open came on its own,
  // 1,000 ms after relay-ready without cutover.
  struct Opened {
    platform::TimeUs at_us = 0;
    bool by_wait = false;
  };
  std::map<std::string, Opened> _opened;
};

}  // namespace spotcheck::location::relocation
