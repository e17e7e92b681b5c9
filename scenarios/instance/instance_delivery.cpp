#include "scenarios/instance/instance_delivery.h"

#include <algorithm>
#include <cassert>

namespace spotcheck::scenarios::instance {

using li::InstanceOutcome;
using li::InstanceOutcomeKind;
using platform::TimeUs;

namespace {

// The source polls for the answer at this pace (the simulated network hop back).
constexpr TimeUs kPollUs = platform::millis(1);

}  // namespace

InstanceDelivery::InstanceDelivery(sim::World& world, DeliveryFaults faults, TimeUs faults_stop_us)
    : _world(world), _faults(faults), _faults_stop_us(faults_stop_us) {
  assert(_faults.lose_reply_probability >= 0.0 && _faults.lose_reply_probability <= 1.0);
  assert(_faults.request_delay_max_us >= 0 && _faults.reply_delay_max_us >= 0 && _faults.reply_timeout_us >= 0);
}

void InstanceDelivery::add_node(sim::ProcessId pid, std::string rid_hex) {
  _nodes.push_back(Node{pid, std::move(rid_hex), nullptr, nullptr});
}

InstanceDelivery::Attached::Attached(InstanceDelivery& delivery, std::size_t node, platform::Platform& platform,
                                     li::InstanceTarget* target)
    : _delivery(delivery), _node(node) {
  Node& slot = _delivery._nodes.at(_node);
  assert(slot.platform == nullptr && "two host runs of one node at once");
  slot.platform = &platform;
  slot.target = target;
}

InstanceDelivery::Attached::~Attached() {
  Node& slot = _delivery._nodes.at(_node);
  slot.platform = nullptr;
  slot.target = nullptr;
}

InstanceOutcome InstanceDelivery::deliver(std::size_t from, const std::string& target_rid_hex,
                                          const li::InstanceRequest& request, TimeUs deadline_us) {
  assert(from < _nodes.size() && _nodes[from].platform != nullptr && "the source's host run is up");
  platform::Platform& platform = *_nodes[from].platform;
  const auto to = std::find_if(_nodes.begin(), _nodes.end(),
                               [&target_rid_hex](const Node& node) { return node.rid_hex == target_rid_hex; });
  if (to == _nodes.end() || to->target == nullptr) {
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {}, "no such target up"};
  }
  platform::Random& random = _world.stream("instance-faults");
  const bool faulty_now = faulty();
  const bool lost = faulty_now && random.chance(_faults.lose_reply_probability);
  const TimeUs request_delay_us =
      faulty_now && _faults.request_delay_max_us > 0 ? random.between(0, _faults.request_delay_max_us) : 0;
  const TimeUs reply_delay_us =
      faulty_now && _faults.reply_delay_max_us > 0 ? random.between(0, _faults.reply_delay_max_us) : 0;

  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  li::InstanceTarget* target = to->target;
  platform::Platform* target_platform = to->platform;
  // Dies with the target's process if it is killed: the answer never comes.
  _world.spawn(to->pid, "instance-target", [target, target_platform, request, result, request_delay_us] {
    target_platform->clock.sleep_for(request_delay_us);
    result->emplace(target->handle(request));
  });

  const TimeUs start_us = platform.clock.now_us();
  const TimeUs wait_end_us =
      _faults.reply_timeout_us > 0 ? std::min(deadline_us, start_us + _faults.reply_timeout_us) : deadline_us;
  if (lost) {
    ++_replies_lost;
    platform.clock.sleep_until(wait_end_us);  // the answer never comes: the send timeout ends the wait
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {},
                           "no answer within the send timeout (the target may have admitted the request)"};
  }
  // Bounded: the clock advances kPollUs per round up to wait_end_us.
  while (!result->has_value() && platform.clock.now_us() < wait_end_us) {
    platform.clock.sleep_for(kPollUs);
  }
  if (!result->has_value()) {
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {}, "no answer"};
  }
  InstanceOutcome answer = **result;
  if (reply_delay_us > 0) {
    platform.clock.sleep_for(std::min(reply_delay_us, std::max<TimeUs>(0, deadline_us - platform.clock.now_us())));
  }
  return answer;
}

}  // namespace spotcheck::scenarios::instance
