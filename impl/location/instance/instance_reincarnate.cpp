// Close with Reincarnate (framework 0.27's ZLinkInstanceClosingAuthority.reincarnate): the Close of
// this host run's incarnation, then the next incarnation activated here as a cold activation this
// node requests of itself (instance_target.h).
#include "impl/check/check.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/instance/instance_target.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::instance {

using platform::as_i64;
using platform::TimeUs;

InstanceOutcome InstanceTarget::reincarnate(const std::string& spot_id, std::string initialize, TimeUs deadline_us) {
  auto it = _instances.find(spot_id);
  if (it == _instances.end() || !it->second.accepting || it->second.closing) {
    return InstanceOutcome{InstanceOutcomeKind::kNotFound, 0, {}, {}, "no Ready instance of this host run"};
  }
  const std::string stable_type = it->second.stable_type;
  const std::uint64_t closed_generation = it->second.object_generation;
  InstanceOutcome closed = close(spot_id);
  if (!closed.ok()) {
    return closed;  // this incarnation did not end: no next one
  }
  SPOTCHECK_ASSERT(closed.object_generation == closed_generation);
  const HostRun& self = _context.lease.host_run();
  InstanceRequest request;
  request.stable_type = stable_type;
  request.mesh_name = _context.mesh_name;
  request.spot_id = spot_id;
  request.source_rid_hex = _context.rid_hex;
  request.source = messaging::WireHostRun{self.owner_id, self.lease_generation};
  request.op_id = messaging::OperationId::random(_context.platform.random);
  request.deadline_store_ms = _context.lease.store_deadline_ms(deadline_us);
  request.first_message = std::move(initialize);
  platform::emit_event(_context.platform.events, kinds::kInstanceReincarnating,
                       events::InstanceReincarnating{spot_id, as_i64(closed_generation), _context.rid_hex,
                                                     request.op_id.hex()});
  InstanceOutcome next = handle(request);
  if (next.kind == InstanceOutcomeKind::kCreated) {
    SPOTCHECK_ASSERT(next.object_generation > closed_generation);  // one store-wide sequence
    platform::sometimes(_context.platform.events, platform::Mark::kInstanceReincarnated);
  }
  return next;
}

}  // namespace spotcheck::location::instance
