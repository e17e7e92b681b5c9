#include "scenarios/authority/authority_node.h"

#include <charconv>
#include <map>
#include <memory>
#include <optional>

#include "impl/check/check.h"
#include "impl/location/authority/authority_ops.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/descriptor/descriptor_publisher.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/hosted_removal.h"
#include "impl/location/objects/object_behaviors.h"
#include "impl/location/objects/object_client.h"
#include "impl/location/objects/object_host.h"
#include "impl/location/placement/placement.h"
#include "impl/location/relocation/relocation_runtime.h"
#include "impl/location/shutdown/owner_sweep.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/event_fields.h"
#include "scenarios/common/node_supervision.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios::authority {

namespace loc = spotcheck::location;
using platform::TimeUs;

namespace {

// The host run's owner-lease timing (AuthorityWorkload::boundary_timing_probability).
loc::LocationConfig host_run_config(const loc::LocationConfig& base, double boundary_probability,
                                    platform::Random& random) {
  if (boundary_probability <= 0.0 || !random.chance(boundary_probability)) {
    return base;
  }
  loc::LocationConfig config = base;
  const TimeUs at_boundary =
      base.owner_lease_ttl_us - base.fencing_margin_us - base.renew_interval_us;  // left == right
  const TimeUs step = platform::millis(1) * (static_cast<TimeUs>(random.below(3)) - 1);  // -1, 0, +1 ms
  config.renew_timeout_us = at_boundary + step;
  return config;
}

constexpr std::string_view kStableType = "Player";
// The stream of a request's second, concurrent message (the main loop's messages use stream 0).
constexpr std::uint64_t kSecondStream = 1;
// The stream of the node's Sends (post_probability).
constexpr std::uint64_t kPostStream = 2;
// Polls (5 ms each) of a second message's end: past any message timeout a scenario sets.
constexpr int kSecondWaitsMax = 100'000;
// Bounds of the node's own loops.
constexpr int kRegisterAttemptsMax = 1'000;
constexpr int kWorkloadIterationsMax = 1'000'000;

// The object runtime's limits (the planted bugs it reads come from the protocol configuration).
loc::objects::ObjectHostConfig object_host_config(const loc::LocationConfig& config) {
  loc::objects::ObjectHostConfig limits;
  limits.planted_bugs = config.planted_bugs;
  return limits;
}

// The relocation policy this host run registers Player with (§2): PreserveStateWith, or with the
// workload's chances DisableRelocation or RecreateOnRelocation. No draw when both are 0.
records::CapabilityPolicy draw_policy(const AuthorityWorkload& workload, platform::Random& random) {
  if (workload.disable_relocation_probability > 0 && random.chance(workload.disable_relocation_probability)) {
    return records::CapabilityPolicy::kDisabled;
  }
  if (workload.recreate_probability > 0 && random.chance(workload.recreate_probability)) {
    return records::CapabilityPolicy::kRecreate;
  }
  return records::CapabilityPolicy::kSnapshot;
}

// The factories this host run registers: Player, under `policy` (a snapshot adapter with
// PreserveStateWith).
std::vector<records::ObjectCapability> capabilities_of(records::CapabilityPolicy policy) {
  return {{records::ObjectKind::kActor, std::string(kStableType), policy,
           policy == records::CapabilityPolicy::kSnapshot, 0}};
}

records::MeshNodeDescriptorRecord make_descriptor(const AuthorityNodeEnv& env, records::CapabilityPolicy policy) {
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = env.workload->mesh_name;
  d.routing_id_hex = env.routing_id_hex;
  d.lifecycle_generation = 1;
  d.endpoint = "sim://" + env.routing_id_hex;
  d.entry_spot_id = "entry:" + d.mesh_name + ":" + env.routing_id_hex;
  d.object_capabilities = capabilities_of(policy);
  d.object_role = records::ObjectRole::kServer;
  d.placement_weight = 100;
  d.capacity.actors.limit = env.workload->actors_limit;
  d.state = records::DescriptorState::kServing;
  d.security_identity = "spiffe://zlink/sim/" + env.routing_id_hex;
  return d;
}

// One host run of the node: everything it owns dies with it.
class NodeRun {
 public:
  NodeRun(platform::Platform& platform, const AuthorityNodeEnv& env)
      : _platform(platform),
        _env(env),
        _config(host_run_config(*env.config, env.workload->boundary_timing_probability, platform.random)),
        _workload(*env.workload),
        _policy(draw_policy(*env.workload, platform.random)),
        _store(env.make_store()),
        _lease(_config, platform, *_store),
        _authority(_config, platform, *_store, _lease),
        _publisher(_config, platform, *_store, _lease),
        _dispatcher(platform),
        _objects(platform, _lease, _dispatcher, _behaviors, object_host_config(_config)),
        _messages(_config, platform, *_store, _lease, _authority, _dispatcher, env.routing_id_hex),
        _relocation(_config, platform, *_store, _lease, _authority, _dispatcher, _objects, env.routing_id_hex,
                    env.workload->mesh_name, capabilities_of(_policy)) {
    // One message turn of a Player: the application works a little (it may finish past the
    // admission deadline: only its start is admitted, §5) and answers.
    _behaviors.add(records::AuthorityKind::kActor, std::string(kStableType),
                   [this](loc::objects::TurnContext& context, const loc::objects::TurnInput& input) {
                     ++_turns_run[context.key().id];
                     _platform.clock.sleep_for(_platform.random.between(0, _workload.handler_max_us));
                     if (!input.timer && _workload.timer_probability > 0 &&
                         _platform.random.chance(_workload.timer_probability)) {
                       context.start_timer(_platform.random.between(platform::millis(100), _workload.timer_delay_max_us),
                                           "tick");
                     }
                     return std::string("used");
                   });
    // A moved Player's restore on its relocation target takes a while (§1.3 step 5).
    // Its application state (the turns it ran, named by the object) goes with it under
    // PreserveStateWith; under RecreateOnRelocation the target starts it anew (§2). The restore
    // checks it got what its policy says — state iff PreserveStateWith, and this object's.
    _behaviors.add_state_capture(records::AuthorityKind::kActor, std::string(kStableType),
                                 [this](const loc::objects::ObjectKey& key) {
                                   return key.id + "=" + std::to_string(_turns_run[key.id]);
                                 });
    _behaviors.add_restore(records::AuthorityKind::kActor, std::string(kStableType),
                           [this](const loc::objects::ObjectKey& key, const std::optional<std::string>& state) {
                             _platform.clock.sleep_for(_platform.random.between(0, _workload.restore_max_us));
                             restore_state(key, state);
                           });
    _dispatcher.on_object_message([this](platform::RoutingId from, loc::messaging::ObjectMessage message) {
      _objects.handle(from, std::move(message));
    });
    _dispatcher.on_relocation([this](platform::RoutingId from, loc::messaging::RelocationCommand command) {
      _relocation.handle(from, std::move(command));
    });
    _objects.set_forwarder([this](platform::RoutingId, const loc::messaging::ObjectMessage& message) {
      return _relocation.follow(message, "", 0);
    });
  }

  // A host run that started its tasks ends only by a kill (a restart included: it parks until
  // then): the simulator unwinds every other task — renew, dispatcher, message turns — before
  // main, so none outlives this.
  ~NodeRun() = default;

  void run() {
    if (!register_lease()) {
      return;
    }
    const auto prepared = _publisher.prepare(make_descriptor(_env, _policy));
    SPOTCHECK_ASSERT(prepared.ok());  // the descriptor is built within every limit
    _lease.start_renewing();
    _dispatcher.start();
    for (int i = 0; i < kWorkloadIterationsMax; ++i) {
      _platform.clock.sleep_for(_platform.random.between(_workload.think_min_us, _workload.think_max_us));
      if (_lease.lost()) {
        // This host run never admits new work again (§5): end it; an operator restarts it.
        platform::emit_event(_platform.events, kinds::kNodeGaveUp,
                             sim::events::NodeGaveUp{.owner = _lease.host_run().owner_id});
        stop_renewing();
        _env.request_restart();
        park_forever(_platform);  // the restart unwinds every task of this host run, main last
        return;
      }
      if (_platform.clock.now_us() >= _workload.traffic_stop_us) {
        continue;  // keep renewing, stop issuing requests
      }
      if (!_published) {
        publish_descriptor();
        continue;
      }
      if (_workload.shutdown_probability > 0 && _platform.random.chance(_workload.shutdown_probability)) {
        shut_down();
        return;
      }
      if (maintain_descriptor()) {
        continue;
      }
      one_request();
    }
  }

 private:
  bool register_lease() {
    for (int attempt = 0; attempt < kRegisterAttemptsMax; ++attempt) {
      const auto registered = _lease.register_lease();
      if (registered.ok()) {
        return true;
      }
      if (registered.error_kind() == loc::ErrorKind::kGenerationExhausted) {
        return false;
      }
      if (registered.error_kind() == loc::ErrorKind::kConfiguration) {
        _env.request_restart();  // an operator fixes the configuration: a new host run
        return false;
      }
      _platform.clock.sleep_for(_platform.random.between(platform::millis(100), platform::seconds(1)));
    }
    return false;
  }

  // Ends the renew task and waits for it, so the lease outlives it (bounded wait).
  void stop_renewing() {
    _lease.stop_renewing();
    for (int i = 0; i < 1'000 && _lease.renewing(); ++i) {
      _platform.clock.sleep_for(platform::millis(10));
    }
  }

  // A graceful shutdown (§11): the owner sweep deletes the authority rows of this host run
  // (reported by sweep.finished; a failure leaves them to their lease and to NewOwner) while the
  // host run's last request is still in flight — a host stops taking new work, its running
  // requests finish — so a row may change between the sweep's list and its re-read, and is then
  // left alone. Then the lease stops renewing and the node restarts as a new host run.
  void shut_down() {
    // No new work from now on: every hosted instance goes (its queued messages answered not_here,
    // unrun), so no turn can start after the sweep deleted its row; the last request hosts none.
    _shutting_down = true;
    _relocation.stop();
    _objects.deactivate_all();
    bool last_request_done = false;
    _platform.tasks.spawn("last-request", [this, &last_request_done] {
      one_request();
      last_request_done = true;
    });
    static_cast<void>(loc::sweep_owner_authority(*_store, _platform, _config, _lease, _authority));
    for (int i = 0; i < 10'000 && !last_request_done; ++i) {
      _platform.clock.sleep_for(platform::millis(10));
    }
    stop_renewing();
    _env.request_restart();
    park_forever(_platform);
  }

  void publish_descriptor() {
    const auto published = _publisher.publish();
    _published = published.ok();
  }

  // Now and then, instead of a request: a descriptor change under the next Revision, or the same
  // Revision published again (a RENEW that must not overwrite). True when it took the step.
  bool maintain_descriptor() {
    if (_workload.descriptor_update_probability > 0 &&
        _platform.random.chance(_workload.descriptor_update_probability)) {
      records::MeshNodeDescriptorRecord changed = _publisher.descriptor();
      changed.placement_weight = static_cast<std::uint32_t>(_platform.random.between(50, 150));
      _published = _publisher.update(std::move(changed)).ok();  // not stored: published again next step
      return true;
    }
    if (_workload.descriptor_renew_probability > 0 &&
        _platform.random.chance(_workload.descriptor_renew_probability)) {
      publish_descriptor();
      return true;
    }
    return false;
  }

  // One workload request on a random object of the pool, within its deadline.
  void one_request() {
    const std::uint64_t request = ++_requests;
    const std::string id = "player:" + std::to_string(_platform.random.below(_workload.object_count));
    const TimeUs deadline_us = _platform.clock.now_us() + _workload.request_deadline_us;
    platform::emit_event(_platform.events, kinds::kRequestStart,
                         sim::events::AuthorityRequestStart{.owner = _lease.host_run().owner_id,
                                                            .request = static_cast<std::int64_t>(request),
                                                            .id = id,
                                                            .deadline_us = deadline_us});
    const std::string_view outcome = handle(loc::AuthorityKey{records::AuthorityKind::kActor, id});
    platform::emit_event(_platform.events, kinds::kRequestEnd,
                         sim::events::RequestEnd{.owner = _lease.host_run().owner_id,
                                                 .request = static_cast<std::int64_t>(request),
                                                 .has_id = true,
                                                 .id = id,
                                                 .outcome = outcome,
                                                 .has_late = true,
                                                 .late = _platform.clock.now_us() > deadline_us ? 1 : 0});
  }

  std::string_view handle(const loc::AuthorityKey& key) {
    const auto read = _authority.read(key);
    if (!read.ok()) {
      return loc::to_string(read.error_kind());
    }
    if (!read.value().current.has_value()) {
      return create(key);
    }
    const loc::AuthoritySnapshot& current = *read.value().current;
    if (_relocation.busy(loc::objects::ObjectKey{key.kind, key.id}, current.record.authority_owner_generation)) {
      return "moving";  // a move of it from or to this host run is on: its tasks change the row, not this
    }
    const bool mine = current.record.owner_id == _lease.host_run().owner_id &&
                      current.record.owner_lease_generation == _lease.host_run().lease_generation;
    const bool reserved = current.record.allocation.state == records::AllocationState::kReserved;
    if (mine && reserved) {
      if (_platform.random.chance(_workload.abort_probability)) {
        return outcome_of(_authority.abort(current), "aborted");
      }
      return commit_hosted(current, "committed");
    }
    if (mine) {
      host(current);
      if (_workload.relocate_probability > 0 && _platform.random.chance(_workload.relocate_probability)) {
        return relocate(current);
      }
      return use_or_delete(current);
    }
    if (!reserved && owner_lease_expired(current, read.value().now_ms)) {
      return take_over(current);
    }
    if (!reserved && _workload.message_probability > 0 && _platform.random.chance(_workload.message_probability)) {
      return send_message(current);
    }
    return "owned-elsewhere";
  }

  std::string_view create(const loc::AuthorityKey& key) {
    auto self = self_view();
    if (!self.has_value()) {
      return "no-self-view";
    }
    loc::ReserveRequest request{key, records::ObjectKind::kActor, std::string(kStableType), "v0", std::nullopt};
    auto reserved = _authority.reserve(request, *self);
    if (!reserved.ok()) {
      return loc::to_string(reserved.error_kind());
    }
    if (_platform.random.chance(_workload.abort_probability)) {
      return outcome_of(_authority.abort(reserved.value()), "aborted");
    }
    return commit_hosted(reserved.value(), "created");
  }

  // Commit of this host run's Reserved row with its instance hosted first, dispatch closed; Ready
  // recorded opens it. Any failure — the outcome unknown included — removes the instance (nothing
  // runs on an instance whose Ready is not known); a later request that finds the row Active and
  // this host run's hosts it again.
  std::string_view commit_hosted(const loc::AuthoritySnapshot& reserved, std::string_view success) {
    const loc::objects::ObjectKey key{reserved.key.kind, reserved.key.id};
    const std::uint64_t generation = reserved.record.object_generation;
    const bool hosting = _workload.message_probability > 0 && !_shutting_down;
    if (hosting) {
      _objects.activate(hosted_of(reserved));
    }
    const auto committed = _authority.commit(reserved);
    if (hosting) {
      if (committed.ok()) {
        _objects.open(key, generation);
      } else {
        _objects.deactivate(key, generation);
      }
    }
    return outcome_of(committed, success);
  }

  // Hosts this host run's Active row in the object runtime (a no-op when it already does).
  void host(const loc::AuthoritySnapshot& active) {
    if (_workload.message_probability <= 0 || _shutting_down) {
      return;
    }
    _objects.activate(hosted_of(active));
    _objects.open(loc::objects::ObjectKey{active.key.kind, active.key.id}, active.record.object_generation);
  }

  // Host maintenance (§8): this host run moves the object it owns to another live host run of the
  // Mesh, while clients keep sending to it.
  std::string_view relocate(const loc::AuthoritySnapshot& active) {
    auto list = loc::read_descriptor_list(*_store, _platform, _config, _workload.mesh_name);
    if (!list.ok()) {
      return loc::to_string(list.error_kind());
    }
    std::vector<const loc::NodeView*> others;
    for (const loc::NodeView& node : list.value().nodes) {
      if (node.lease_valid && node.host_run() != _lease.host_run()) {
        others.push_back(&node);
      }
    }
    if (others.empty()) {
      return "no-target";
    }
    const loc::NodeView& target = *others[_platform.random.below(others.size())];
    return loc::relocation::to_string(_relocation.move(active, target));
  }

  static loc::objects::HostedObject hosted_of(const loc::AuthoritySnapshot& row) {
    return loc::objects::HostedObject{loc::objects::ObjectKey{row.key.kind, row.key.id},
                                      row.record.object_generation, row.record.authority_owner_generation,
                                      row.record.allocation.stable_type};
  }

  // A regular message to the object's owner by its ID (§7.3), answered by one turn there; now and
  // then with a second one from another stream at the same time (concurrent_message_probability),
  // waited for before the request ends.
  std::string_view send_message(const loc::AuthoritySnapshot& active) {
    const loc::objects::ObjectKey key{active.key.kind, active.key.id};
    const TimeUs deadline_us = _platform.clock.now_us() + _workload.message_timeout_us;
    if (_workload.post_probability > 0 && _platform.random.chance(_workload.post_probability)) {
      // A burst of Sends on the node's own stream: none waits for the one before (§9.3: no reply),
      // so only the object's FIFO queue — across a move too — keeps their order.
      const std::uint64_t burst = 2 + _platform.random.below(_workload.post_burst_max - 1);
      loc::objects::SendResult posted;
      for (std::uint64_t i = 0; i < burst; ++i) {
        if (i > 0 && _workload.post_gap_max_us > 0) {
          _platform.clock.sleep_for(_platform.random.between(0, _workload.post_gap_max_us));
        }
        posted = _messages.post(key, "send", deadline_us, kPostStream);
      }
      return loc::objects::to_string(posted.outcome);
    }
    std::shared_ptr<bool> second_done;
    if (_workload.concurrent_message_probability > 0 &&
        _platform.random.chance(_workload.concurrent_message_probability)) {
      second_done = std::make_shared<bool>(false);
      _platform.tasks.spawn("second-message", [this, key, deadline_us, second_done] {
        static_cast<void>(_messages.send(key, "use", deadline_us, kSecondStream));
        *second_done = true;
      });
    }
    const loc::objects::SendResult sent = _messages.send(key, "use", deadline_us);
    // The second send ends by the same deadline; the request ends after it (bounded wait).
    for (int i = 0; i < kSecondWaitsMax && second_done != nullptr && !*second_done; ++i) {
      _platform.clock.sleep_for(platform::millis(5));
    }
    return loc::objects::to_string(sent.outcome);
  }

  std::string_view use_or_delete(const loc::AuthoritySnapshot& active) {
    if (_platform.random.chance(_workload.delete_probability)) {
      // The owner's Delete with its instance held first (objects/hosted_removal.h).
      return outcome_of(loc::objects::remove_hosted(_authority, &_objects, _platform.events, active), "deleted");
    }
    // The object's handler runs only while this host run may accept new work (§5).
    if (!_lease.admit("object message").ok()) {
      return "admission-closed";
    }
    platform::emit_event(
        _platform.events, kinds::kObjectWork,
        sim::events::ObjectWork{.id = active.key.id,
                                .owner = _lease.host_run().owner_id,
                                .lease_gen = static_cast<std::int64_t>(_lease.host_run().lease_generation),
                                .object_gen = static_cast<std::int64_t>(active.record.object_generation),
                                .owner_gen = static_cast<std::int64_t>(active.record.authority_owner_generation),
                                .has_clock = true,
                                .now_us = _platform.clock.now_us(),
                                .deadline_us = _lease.admission_deadline_us()});
    return outcome_of(_authority.preserve(active, "v" + std::to_string(++_writes)), "used");
  }

  std::string_view take_over(const loc::AuthoritySnapshot& active) {
    auto self = self_view();
    if (!self.has_value()) {
      return "no-self-view";
    }
    const auto taken = _authority.new_owner(active, *self);
    if (taken.ok()) {
      host(taken.value());
    }
    return outcome_of(taken, "taken-over");
  }

  // Reads the current owner's lease record directly by OwnerId (§3.1).
  bool owner_lease_expired(const loc::AuthoritySnapshot& active, store::StoreNowMs now_ms) {
    const auto read = _store->read(records::owner_lease_preimage(active.record.owner_id),
                                   _platform.clock.now_us() + _config.store_request_timeout_us);
    if (std::holds_alternative<store::Missing>(read)) {
      return true;
    }
    const auto* found = std::get_if<store::Found>(&read);
    if (found == nullptr) {
      return false;  // unknown: never guess
    }
    const auto lease = records::decode_owner_lease_record(found->value);
    if (!lease.ok()) {
      return false;
    }
    return lease.value().lease_generation != active.record.owner_lease_generation ||
           lease.value().expires_at_epoch_ms <= std::max(now_ms, found->now_ms);
  }

  std::optional<loc::NodeView> self_view() {
    auto list = loc::read_descriptor_list(*_store, _platform, _config, _workload.mesh_name);
    if (!list.ok()) {
      return std::nullopt;
    }
    for (auto& node : list.value().nodes) {
      if (node.host_run() == _lease.host_run()) {
        return std::move(node);
      }
    }
    _published = false;  // our descriptor is gone or another host run holds it
    return std::nullopt;
  }

  // The restore of a moved Player's application state: what the source captured under
  // PreserveStateWith (this object's, never another's), nothing under RecreateOnRelocation (§2).
  void restore_state(const loc::objects::ObjectKey& key, const std::optional<std::string>& state) {
    if (_policy != records::CapabilityPolicy::kSnapshot) {
      SPOTCHECK_ASSERT(!state.has_value());  // RecreateOnRelocation: a new instance without state
      _turns_run[key.id] = 0;
      return;
    }
    SPOTCHECK_ASSERT(state.has_value());  // PreserveStateWith: the state the source captured
    const std::string prefix = key.id + "=";
    SPOTCHECK_ASSERT(state->size() > prefix.size() && state->compare(0, prefix.size(), prefix) == 0);
    std::uint64_t turns = 0;
    const char* digits = state->data() + prefix.size();
    const auto [end, error] = std::from_chars(digits, state->data() + state->size(), turns);
    SPOTCHECK_ASSERT(error == std::errc() && end == state->data() + state->size());
    _turns_run[key.id] = turns;
  }

  template <class T>
  static std::string_view outcome_of(const loc::Result<T>& result, std::string_view success) {
    return result.ok() ? success : loc::to_string(result.error_kind());
  }

  platform::Platform& _platform;
  const AuthorityNodeEnv& _env;
  const loc::LocationConfig _config;  // this host run's: the scenario's, or a boundary timing
  const AuthorityWorkload& _workload;
  const records::CapabilityPolicy _policy;  // Player's relocation policy on this host run (§2)
  std::map<std::string, std::uint64_t> _turns_run;  // the application state: Player turns, by ID
  std::unique_ptr<store::LocationStore> _store;
  loc::OwnerLease _lease;
  loc::AuthorityOps _authority;
  loc::DescriptorPublisher _publisher;
  loc::messaging::Dispatcher _dispatcher;
  loc::objects::ObjectBehaviors _behaviors;  // before _objects: it refers to them
  loc::objects::ObjectHost _objects;
  loc::objects::ObjectClient _messages;
  loc::relocation::RelocationRuntime _relocation;
  bool _shutting_down = false;
  bool _published = false;
  std::uint64_t _requests = 0;
  std::uint64_t _writes = 0;
};

}  // namespace

void run_authority_node(platform::Platform& platform, const AuthorityNodeEnv& env) {
  SPOTCHECK_ASSERT_ABORT(env.config != nullptr && env.workload != nullptr);
  NodeRun run(platform, env);
  run.run();
}

}  // namespace spotcheck::scenarios::authority
