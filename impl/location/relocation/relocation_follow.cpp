#include "impl/location/relocation/relocation_runtime.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/relocation_events.h"
#include "impl/location/relocation/relocation_payload.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::relocation {

using messaging::RelocationCommand;
using messaging::RelocationStep;
using platform::as_i64;
using platform::TimeUs;

// ---- Message Follow (§7.3) --------------------------------------------------------------------

bool RelocationRuntime::follow(const messaging::ObjectMessage& message, const std::string& passed,
                               std::uint64_t last_owner_gen) {
  const std::optional<std::vector<platform::RoutingId>> routes = split_routes(passed);
  if (!routes.has_value()) {
    return false;
  }
  FollowedMessage followed{message.op_id.hex(), message.object_generation, message.payload, message.source_rid_hex,
                           *routes, last_owner_gen};
  FollowDecision decision =
      _follow.decide(object_text(message.kind, message.id), std::move(followed), _platform.clock.now_us());
  if (decision.outcome != FollowOutcome::kForward) {
    return false;  // answered as usual: not_here (the sender looks the object up again)
  }
  RelocationCommand forward;
  forward.step = RelocationStep::kFollow;
  forward.source_rid_hex = _rid_hex;
  forward.kind = message.kind;
  forward.id = message.id;
  forward.object_generation = message.object_generation;
  forward.owner_generation = decision.message.last_owner_generation;
  forward.passed = join_routes(decision.message.passed);
  forward.bytes = messaging::encode(messaging::Command{message});  // unchanged (§7.3)
  moved(message, "follow", decision.target, "");
  platform::sometimes(_platform.events, platform::Mark::kRelocationFollowed);
  _dispatcher.send(decision.target, messaging::Command{forward});
  return true;
}

void RelocationRuntime::on_follow(platform::RoutingId, const RelocationCommand& command) {
  std::optional<messaging::Command> decoded = messaging::decode(command.bytes);
  if (!decoded.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*decoded)) {
    return;
  }
  HandoffWork work{std::get<messaging::ObjectMessage>(*decoded).op_id.hex(), command.bytes};
  std::optional<objects::QueuedMessage> queued = queued_of(work);
  if (!queued.has_value()) {
    return;
  }
  auto pending = _target_of_object.find(object_text(queued->message.kind, queued->message.id));
  if (pending != _target_of_object.end()) {
    auto move = _targets.find(pending->second);
    if (move != _targets.end() && move->second->handoff.hold_temporary(work)) {
      return;  // the temporary queue (§9.2)
    }
  }
  if (_objects.hosts(objects::ObjectKey{queued->message.kind, queued->message.id})) {
    _objects.handle_followed(queued->from, std::move(queued->message));
    return;
  }
  if (follow(queued->message, command.passed, command.owner_generation)) {
    return;  // it moved on again
  }
  _objects.refuse_unrun(queued->from, queued->message);
}

}  // namespace spotcheck::location::relocation
