// The typed harness events (docs/properties.md "Events of the harness"): the events the workloads
// (scenarios/) and the fault injector (faults/) emit, one struct per kind with fields, declared
// once in fields() (impl/platform/event_fields.h). Here in sim/ because scenarios/ and
// properties/ both sit above sim/: the emitters and the checkers include the same header.
// The kinds are those of impl/platform/event_kinds.h, except the synthetic workload's own.
//
// Who emits which kind:
//   scenarios/authority/authority_node.cpp    request.start (AuthorityRequestStart), request.end
//                                             (RequestEnd), object.work (ObjectWork),
//                                             node.gave_up (NodeGaveUp)
//   scenarios/creation/creation_program.cpp   request.start (RequestStart), request.end (RequestEnd)
//   scenarios/instance/instance_program.cpp   request.start (RequestStart), request.end (RequestEnd)
//   scenarios/common/node_supervision.h       node.gave_up (NodeGaveUp)
//   faults/fault_injector.cpp                 faults.plan (FaultsPlan); faults.stopped (no fields,
//                                             also recorded by scenarios/integration/integration_run.cpp)
//   scenarios/synthetic/synthetic_node.cpp    synthetic.boot|reply|recv|tick (SyntheticBoot,
//                                             SyntheticReply, SyntheticRecv, SyntheticTick)
// `action` (a scheduled world action ran) is the kernel's: sim/events/sim_events.h.
//
// The text of an optional group is initialised ({}) so that an emitter may leave the group out
// of its designated initializer (-Wmissing-field-initializers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::sim::events {

// ---- requests (the liveness checkers) ----------------------------------------------------------

// request.start as the creation and instance workloads emit it: {owner, request, deadline_us,
// now_us, id}. now_us and id are optional; decode_event<RequestStart> also reads the authority
// workload's layout (AuthorityRequestStart) completely, since fields are found anywhere.
struct RequestStart {
  static constexpr std::size_t kFieldsMax = 5;

  std::string_view owner;  // the host run's OwnerId
  std::int64_t request = 0;  // unique per host run
  std::int64_t deadline_us = 0;  // on the node's local clock
  bool has_now = false;
  std::int64_t now_us = 0;  // the node's local time at the start
  bool has_id = false;
  std::string_view id{};  // the object the request is about
};

template <class Io, platform::FieldsOf<RequestStart> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("request", e.request);
  io("deadline_us", e.deadline_us);
  if (io.group(e.has_now, "now_us")) {
    io("now_us", e.now_us);
  }
  if (io.group(e.has_id, "id")) {
    io("id", e.id);
  }
}

// request.start as the authority workload emits it: the id before deadline_us, no now_us (the
// order is part of the trace hash, so the two layouts stay two structs).
struct AuthorityRequestStart {
  static constexpr std::size_t kFieldsMax = 4;

  std::string_view owner;
  std::int64_t request = 0;
  std::string_view id;
  std::int64_t deadline_us = 0;
};

template <class Io, platform::FieldsOf<AuthorityRequestStart> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("request", e.request);
  io("id", e.id);
  io("deadline_us", e.deadline_us);
}

// request.end: the request ended with a typed outcome. The authority workload names the object
// (id); the creation and instance workloads add the local time at the end (now_us).
struct RequestEnd {
  static constexpr std::size_t kFieldsMax = 6;

  std::string_view owner;
  std::int64_t request = 0;
  bool has_id = false;
  std::string_view id{};
  std::string_view outcome;  // non-empty
  bool has_late = false;
  std::int64_t late = 0;  // 1: the node saw its local clock past deadline_us
  bool has_now = false;
  std::int64_t now_us = 0;
};

template <class Io, platform::FieldsOf<RequestEnd> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("request", e.request);
  if (io.group(e.has_id, "id")) {
    io("id", e.id);
  }
  io("outcome", e.outcome);
  if (io.group(e.has_late, "late")) {
    io("late", e.late);
  }
  if (io.group(e.has_now, "now_us")) {
    io("now_us", e.now_us);
  }
}

// ---- owners ------------------------------------------------------------------------------------

// object.work: the node ran an object's handler as its owner, right after its admission check.
struct ObjectWork {
  static constexpr std::size_t kFieldsMax = 8;

  std::string_view id;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  bool has_kind = false;
  std::string_view kind{};  // actor | spot; absent: actor
  bool has_clock = false;
  std::int64_t now_us = 0;       // the node's local time at the check
  std::int64_t deadline_us = 0;  // the admission deadline at the check
};

template <class Io, platform::FieldsOf<ObjectWork> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  if (io.group(e.has_kind, "kind")) {
    io("kind", e.kind);
  }
  if (io.group(e.has_clock, "now_us")) {
    io("now_us", e.now_us);
    io("deadline_us", e.deadline_us);
  }
}

// node.gave_up: the host run's owner lease was lost for good; the node asks for a restart.
struct NodeGaveUp {
  static constexpr std::size_t kFieldsMax = 1;

  std::string_view owner;
};

template <class Io, platform::FieldsOf<NodeGaveUp> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
}

// ---- the fault injector ------------------------------------------------------------------------

// faults.plan: the fault plan drawn for the run (recorded on the world).
struct FaultsPlan {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t stop_us = 0;  // every fault has healed by then (faults.stopped)
};

template <class Io, platform::FieldsOf<FaultsPlan> E>
void fields(Io& io, E& e) {
  io("stop_us", e.stop_us);
}

// ---- the synthetic workload (scenarios/synthetic, checked by its FifoChecker) ------------------

// synthetic.boot: a node's host run began with a fresh nonce.
struct SyntheticBoot {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t nonce = 0;
};

template <class Io, platform::FieldsOf<SyntheticBoot> E>
void fields(Io& io, E& e) {
  io("nonce", e.nonce);
}

// synthetic.reply: a request-reply exchange ended, answered (1) or not (0).
struct SyntheticReply {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t token = 0;
  std::int64_t answered = 0;
};

template <class Io, platform::FieldsOf<SyntheticReply> E>
void fields(Io& io, E& e) {
  io("token", e.token);
  io("answered", e.answered);
}

// synthetic.recv: a node received a message of sender `from`'s host run `nonce`, number `seq`.
struct SyntheticRecv {
  static constexpr std::size_t kFieldsMax = 4;

  std::int64_t from = 0;
  std::int64_t nonce = 0;
  std::int64_t seq = 0;
  std::string_view kind;  // one character
};

template <class Io, platform::FieldsOf<SyntheticRecv> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("nonce", e.nonce);
  io("seq", e.seq);
  io("kind", e.kind);
}

// synthetic.tick: a node's periodic timer fired.
struct SyntheticTick {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t tick = 0;
};

template <class Io, platform::FieldsOf<SyntheticTick> E>
void fields(Io& io, E& e) {
  io("tick", e.tick);
}

}  // namespace spotcheck::sim::events
