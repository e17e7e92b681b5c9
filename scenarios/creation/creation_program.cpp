#include "scenarios/common/node_supervision.h"
#include "scenarios/creation/creation_program.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/check/check.h"
#include "impl/location/manager/creation_node.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios::creation {

namespace loc = spotcheck::location;
namespace lc = spotcheck::location::creation;
using platform::TimeUs;

namespace {

constexpr std::string_view kActorType = "Player";
constexpr std::string_view kSpotType = "Room";
// Bounds of the program's own loops.
constexpr int kClientRequestsMax = 1'000'000;
constexpr std::size_t kRememberedSpotsMax = 8;
constexpr std::size_t kKeptRefsMax = 8;

// The Mesh node `rid` publishes its descriptor in.
const std::string& mesh_of(platform::RoutingId rid, const CreationWorkload& workload) {
  SPOTCHECK_ASSERT(!workload.mesh_names.empty());
  return workload.mesh_names[rid % workload.mesh_names.size()];
}

records::MeshNodeDescriptorRecord make_descriptor(platform::RoutingId rid, const CreationWorkload& workload) {
  const std::string rid_hex = loc::messaging::routing_id_hex(rid);
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = mesh_of(rid, workload);
  d.routing_id_hex = rid_hex;
  d.lifecycle_generation = 1;
  d.endpoint = "sim://" + rid_hex;
  d.entry_spot_id = "entry:" + d.mesh_name + ":" + rid_hex;
  d.object_capabilities = {
      {records::ObjectKind::kActor, std::string(kActorType), records::CapabilityPolicy::kSnapshot, true, 0},
      {records::ObjectKind::kUserSpot, std::string(kSpotType), records::CapabilityPolicy::kRecreate, false,
       workload.room_limit},
  };
  d.capacity.actors.limit = workload.actors_limit;
  d.object_role = records::ObjectRole::kServer;
  d.placement_weight = 100;
  d.state = records::DescriptorState::kServing;
  d.security_identity = "spiffe://zlink/sim/" + rid_hex;
  return d;
}

enum class Op {
  kGetOrCreateActor,
  kCreateActor,
  kGetOrCreateSpot,
  kCreateSpot,
  kDestroy,
  kFind,
  kRetryOwnOperation,
  kSendMessage
};

class Program {
 public:
  Program(platform::Platform& platform, const CreationNodeEnv& env)
      : _platform(platform), _env(env), _workload(*env.workload), _store(env.make_store()) {
    install_factories();
    _node = std::make_unique<lc::CreationNode>(*env.config, *env.creation, platform, *_store,
                                               make_descriptor(platform.transport.self(), _workload),
                                               _factories);
    install_behaviors();
  }

  void run() {
    if (!_node->start().ok()) {
      park_forever(_platform);  // no lease: this host run can do nothing (the generation is exhausted)
    }
    for (std::uint32_t c = 0; c < _workload.clients_per_node; ++c) {
      _platform.tasks.spawn("client", [this, c] { client_loop(c); });
    }
    supervise_node(_platform, *_node, _env.request_restart);
  }

 private:
  void install_factories() {
    auto factory = [this](const lc::FactoryContext& context) -> lc::FactoryDecision {
      _platform.clock.sleep_for(_platform.random.between(0, _workload.factory_delay_max_us));
      if (_platform.random.chance(_workload.throw_probability)) {
        throw std::runtime_error("the application's factory of " + context.id + " threw");
      }
      if (_platform.random.chance(_workload.reject_probability)) {
        return lc::FactoryDecision::reject("declined " + context.id);
      }
      return lc::FactoryDecision::approve("made " + context.id);
    };
    _factories.add(records::ObjectKind::kActor, std::string(kActorType), factory);
    _factories.add(records::ObjectKind::kUserSpot, std::string(kSpotType), factory);
  }

  // The application's message handler of both types: it takes a while, sometimes starts a timer
  // whose callback runs as a later turn of the same instance, and sometimes Sends to an actor.
  void install_behaviors() {
    auto handler = [this](loc::objects::TurnContext& context, const loc::objects::TurnInput& input) -> std::string {
      if (_workload.handler_delay_max_us > 0) {
        _platform.clock.sleep_for(_platform.random.between(0, _workload.handler_delay_max_us));
      }
      if (!input.timer && _workload.timer_probability > 0 && _platform.random.chance(_workload.timer_probability)) {
        context.start_timer(_platform.random.between(platform::millis(100), _workload.timer_delay_max_us),
                            "tick " + input.payload);
      }
      if (!input.timer && _workload.post_probability > 0 && _platform.random.chance(_workload.post_probability)) {
        context.post(loc::objects::ObjectKey{records::AuthorityKind::kActor, actor_id()}, "relay " + input.payload);
      }
      return "done " + input.payload;
    };
    _node->behaviors().add(records::AuthorityKind::kActor, std::string(kActorType), handler);
    _node->behaviors().add(records::AuthorityKind::kSpot, std::string(kSpotType), handler);
  }

  // A regular message to an actor or a room by its ID (a pool room, or one this node created).
  std::string_view send_message(const std::string& actor, TimeUs deadline, std::uint32_t client) {
    loc::objects::ObjectKey key{records::AuthorityKind::kActor, actor};
    if (_platform.random.chance(0.3)) {
      key = loc::objects::ObjectKey{records::AuthorityKind::kSpot,
                                    !_spots.empty() && _platform.random.chance(0.3)
                                        ? _spots[_platform.random.below(_spots.size())].id
                                        : spot_id()};
    }
    const loc::objects::SendResult sent =
        _node->messages().send(key, "m" + std::to_string(++_messages), deadline, client);
    return loc::objects::to_string(sent.outcome);
  }

  Op pick_op() {
    // A zero weight draws nothing more: a workload without messages keeps its draws.
    const std::uint32_t weights[] = {_workload.get_or_create_actor_weight, _workload.create_actor_weight,
                                     _workload.get_or_create_spot_weight,  _workload.create_spot_weight,
                                     _workload.destroy_weight,             _workload.find_weight,
                                     _workload.retry_own_operation_weight, _workload.send_message_weight};
    std::uint64_t total = 0;
    for (const std::uint32_t w : weights) {
      total += w;
    }
    SPOTCHECK_ASSERT(total > 0);
    std::uint64_t draw = _platform.random.below(total);
    for (std::size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); ++i) {
      if (draw < weights[i]) {
        return static_cast<Op>(i);
      }
      draw -= weights[i];
    }
    return Op::kFind;
  }

  std::string actor_id() { return "player:" + std::to_string(_platform.random.below(_workload.actor_ids)); }
  std::string spot_id() { return "room:" + std::to_string(_platform.random.below(_workload.spot_ids)); }

  // Client `c`'s requests, one after another (its regular messages are its stream c).
  void client_loop(std::uint32_t c) {
    for (int i = 0; i < kClientRequestsMax; ++i) {
      _platform.clock.sleep_for(_platform.random.between(_workload.think_min_us, _workload.think_max_us));
      if (_platform.clock.now_us() >= _workload.traffic_stop_us || !_node->lease().admission_open()) {
        continue;  // traffic over (keep the host run alive), or not admitted: no new request
      }
      one_request(c);
    }
  }

  void one_request(std::uint32_t client) {
    const std::string owner = _node->lease().host_run().owner_id;
    const std::int64_t request = static_cast<std::int64_t>(++_requests);
    const TimeUs now = _platform.clock.now_us();
    const TimeUs deadline = now + _workload.request_deadline_us;
    const Op op = pick_op();
    std::string id = op == Op::kGetOrCreateSpot ? spot_id() : actor_id();
    platform::emit_event(_platform.events, kinds::kRequestStart,
                         sim::events::RequestStart{.owner = owner,
                                                   .request = request,
                                                   .deadline_us = deadline,
                                                   .has_now = true,
                                                   .now_us = now,
                                                   .has_id = true,
                                                   .id = id});
    const std::string_view outcome = perform(op, id, deadline, client);
    const TimeUs end = _platform.clock.now_us();
    platform::emit_event(_platform.events, kinds::kRequestEnd,
                         sim::events::RequestEnd{.owner = owner,
                                                 .request = request,
                                                 .outcome = outcome,
                                                 .has_late = true,
                                                 .late = end > deadline ? 1 : 0,
                                                 .has_now = true,
                                                 .now_us = end});
  }

  std::string_view creation_outcome(const lc::ManagerResult<lc::CreateReply>& result) {
    if (result.ok() && (result.value().outcome == loc::messaging::ReplyOutcome::kCreated ||
                        result.value().outcome == loc::messaging::ReplyOutcome::kExisting)) {
      keep(result.value().ref);
    }
    return result.ok() ? loc::messaging::to_string(result.value().outcome) : lc::to_string(result.error_kind());
  }

  // The InMesh of a creation call: with one Mesh, none (the only one is used); with two or more,
  // one of them, or none (InvalidOperation), or one no host has (NotFound) (§7).
  std::string in_mesh() {
    const std::vector<std::string>& meshes = _workload.mesh_names;
    if (meshes.size() < 2) {
      return {};
    }
    const double draw = static_cast<double>(_platform.random.below(1'000'000)) / 1e6;
    if (draw < _workload.omit_mesh_probability) {
      return {};
    }
    if (draw < _workload.omit_mesh_probability + _workload.unknown_mesh_probability) {
      return "no-such-mesh";
    }
    return meshes[_platform.random.below(meshes.size())];
  }

  // A creation call's options: its InMesh, and in some, the client's own OperationId, kept in its
  // records to retry with.
  lc::CreateOptions own_operation(records::ObjectKind object_kind, lc::CreateMode mode, const std::string& id) {
    lc::CreateOptions options;
    options.in_mesh = in_mesh();
    if (_env.memory == nullptr || !_platform.random.chance(_workload.own_operation_id_probability)) {
      return options;
    }
    options.op_id = loc::messaging::OperationId::random(_platform.random);
    std::deque<ClientMemory::Call>& calls = _env.memory->calls;
    calls.push_back(ClientMemory::Call{object_kind, mode, id, *options.op_id, false, _node->lease().host_run().owner_id});
    if (calls.size() > ClientMemory::kCallsMax) {
      calls.pop_front();
    }
    return options;
  }

  // A creation call's outcome; a call with the client's own OperationId is marked answered in its records.
  std::string_view own_outcome(const lc::CreateOptions& options, const lc::ManagerResult<lc::CreateReply>& result) {
    if (options.op_id.has_value() && _env.memory != nullptr) {
      _env.memory->note_answered(*options.op_id);
    }
    return creation_outcome(result);
  }

  // A kept creation call again, with its OperationId: the same request in this host run, a new
  // one after a restart (§7). Mostly a call never answered (as an application replays the calls
  // its log shows unfinished, e.g. the one its process died in; its Creating row may still be
  // there), else any kept call. Another call of this host run may be using it right now: the
  // Manager refuses that resubmission (InvalidOperation).
  std::string_view retry_own_operation(TimeUs deadline) {
    if (_env.memory == nullptr || _env.memory->calls.empty()) {
      return "nothing_kept";
    }
    const std::deque<ClientMemory::Call>& calls = _env.memory->calls;
    const auto unanswered = std::find_if(calls.begin(), calls.end(), [](const auto& c) { return !c.answered; });
    const ClientMemory::Call call = unanswered != calls.end() && _platform.random.chance(0.75)
                                        ? *unanswered
                                        : calls[_platform.random.below(calls.size())];
    const lc::CreateOptions options{.in_mesh = in_mesh(), .args = {}, .op_id = call.op};
    if (call.kept_by != _node->lease().host_run().owner_id) {
      platform::sometimes(_platform.events, platform::Mark::kOperationIdReusedAcrossRuns);  // a new request (§7)
    }
    lc::Manager& manager = _node->manager();
    const bool actor = call.object_kind == records::ObjectKind::kActor;
    if (call.mode == lc::CreateMode::kGetOrCreate) {
      return own_outcome(options, actor ? manager.get_or_create_actor(call.id, std::string(kActorType), deadline, options)
                                        : manager.get_or_create_user_spot(call.id, std::string(kSpotType), deadline, options));
    }
    SPOTCHECK_ASSERT(actor);  // a User Spot Create brings no OperationId of its own (perform)
    return own_outcome(options, manager.create_actor(call.id, std::string(kActorType), deadline, options));
  }

  std::string_view perform(Op op, const std::string& id, TimeUs deadline, std::uint32_t client) {
    lc::Manager& manager = _node->manager();
    constexpr auto kActor = records::ObjectKind::kActor;
    constexpr auto kSpot = records::ObjectKind::kUserSpot;
    switch (op) {
      case Op::kGetOrCreateActor: {
        const lc::CreateOptions options = own_operation(kActor, lc::CreateMode::kGetOrCreate, id);
        return own_outcome(options, manager.get_or_create_actor(id, std::string(kActorType), deadline, options));
      }
      case Op::kCreateActor: {
        const lc::CreateOptions options = own_operation(kActor, lc::CreateMode::kCreate, id);
        return own_outcome(options, manager.create_actor(id, std::string(kActorType), deadline, options));
      }
      case Op::kGetOrCreateSpot: {
        const lc::CreateOptions options = own_operation(kSpot, lc::CreateMode::kGetOrCreate, id);
        return own_outcome(options, manager.get_or_create_user_spot(id, std::string(kSpotType), deadline, options));
      }
      case Op::kRetryOwnOperation:
        return retry_own_operation(deadline);
      case Op::kCreateSpot: {
        // Without an ID of its own (the Framework issues one) a Create is not retried.
        auto created = manager.create_user_spot(std::string(kSpotType), deadline, lc::CreateOptions{.in_mesh = in_mesh(), .args = {}, .op_id = {}});
        if (created.ok() && created.value().outcome == loc::messaging::ReplyOutcome::kCreated) {
          _spots.push_back(created.value().ref);
          if (_spots.size() > kRememberedSpotsMax) {
            _spots.pop_front();
          }
        }
        return creation_outcome(created);
      }
      case Op::kDestroy:
        return destroy(id, deadline);
      case Op::kSendMessage:
        return send_message(id, deadline, client);
      case Op::kFind: {
        auto found = manager.find_actor(id);
        if (found.ok() && found.value().has_value()) {
          keep(*found.value());
        }
        return found.ok() ? (found.value().has_value() ? "ready" : "none") : lc::to_string(found.error_kind());
      }
    }
    return "unknown";
  }

  // A ref from an answer, kept for a later destroy (the oldest is dropped).
  void keep(const lc::ObjectRef& ref) {
    _kept.push_back(ref);
    if (_kept.size() > kKeptRefsMax) {
      _kept.pop_front();
    }
  }

  // Destroys the current actor `id`, or closes a User Spot (a remembered one, or a pool room), or
  // destroys / closes through a kept ref (perhaps of an older generation by now).
  std::string_view destroy(const std::string& id, TimeUs deadline) {
    lc::Manager& manager = _node->manager();
    const bool spot = _platform.random.chance(0.4);
    std::optional<lc::ObjectRef> ref;
    if (!_kept.empty() && _platform.random.chance(_workload.kept_ref_probability)) {
      ref = _kept[_platform.random.below(_kept.size())];
    } else if (spot && !_spots.empty() && _platform.random.chance(0.5)) {
      ref = _spots.front();
      _spots.pop_front();
    } else {
      auto found = spot ? manager.find_spot(spot_id()) : manager.find_actor(id);
      if (!found.ok()) {
        return lc::to_string(found.error_kind());
      }
      if (!found.value().has_value()) {
        return "none";
      }
      ref = *found.value();
    }
    auto closed = ref->kind == records::AuthorityKind::kActor ? manager.destroy(*ref, deadline)
                                                              : manager.close(*ref, deadline);
    return closed.ok() ? (closed.value() ? "closed" : "not_found") : lc::to_string(closed.error_kind());
  }

  platform::Platform& _platform;
  const CreationNodeEnv& _env;
  const CreationWorkload& _workload;
  std::unique_ptr<store::LocationStore> _store;
  lc::FactoryRegistry _factories;
  std::unique_ptr<lc::CreationNode> _node;
  std::uint64_t _requests = 0;
  std::uint64_t _messages = 0;
  std::deque<lc::ObjectRef> _spots;
  std::deque<lc::ObjectRef> _kept;
};

}  // namespace

void run_creation_node(platform::Platform& platform, const CreationNodeEnv& env) {
  SPOTCHECK_ASSERT(env.config != nullptr && env.creation != nullptr && env.workload != nullptr);
  Program program(platform, env);
  program.run();
}

}  // namespace spotcheck::scenarios::creation
