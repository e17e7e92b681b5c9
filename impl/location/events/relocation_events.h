// The typed events of one object's relocation (relocation/relocation_runtime.h, docs/events.md
// "Relocation"): one struct per kind, its fields declared once in fields().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// relocation.started | .captured | .handed_over | .cancelled (the source), relocation.relay_ready |
// .ready | .failed (the target): one step of one attempt. `binding` is RestoreBinding::text();
// `owner_gen` the AuthorityOwnerGeneration the source owned the object at; `count` the messages
// the step moved (captured: saved work; handed_over: the relay; ready: the real queue it opened
// with); `why` a failure's or a cancellation's reason.
struct RelocationProgress {
  static constexpr std::size_t kFieldsMax = 10;
  std::string_view kind;  // actor | spot
  std::string_view id;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::string_view binding;
  std::string_view source;  // the source host run's OwnerId
  std::string_view target;  // the target's RID
  std::string_view owner;   // the host run that emits it
  std::int64_t count = 0;
  std::string_view why;
};
template <class Io, platform::FieldsOf<RelocationProgress> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("binding", e.binding);
  io("source", e.source);
  io("target", e.target);
  io("owner", e.owner);
  io("count", e.count);
  io("why", e.why);
}

// relocation.message_moved: one accepted, not yet run message leaves this host run for the
// target with the next network message this task sends (`via`: restore — the saved work in the
// payload —, relay — the ingress hold —, or follow — Message Follow after the move, §7.3).
// relocation.work_returned: a moved message the target holds goes back unrun (the attempt failed:
// the source may run it, or the spec lets the removed queue go).
// relocation.message_late: a relayed message reached the target after it had opened dispatch on
// its own, 1,000 ms after relay-ready without cutover (§1.3 step 6): it joins the queue behind
// what came since — the one case where a relayed message may run after newer ones.
struct RelocationMessage {
  static constexpr std::size_t kFieldsMax = 11;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;  // the ObjectGeneration it was sent to
  std::string_view source_owner;  // its sender's host run
  std::int64_t source_lease_gen = 0;
  std::int64_t stream = 0;
  std::int64_t seq = 0;
  std::string_view via;
  std::string_view to;     // the RID it leaves for (moved) or "" (returned)
  std::string_view owner;  // the host run that emits it
  std::string_view binding;  // the attempt (RestoreBinding::text()); "" for Message Follow
};
template <class Io, platform::FieldsOf<RelocationMessage> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("stream", e.stream);
  io("seq", e.seq);
  io("via", e.via);
  io("to", e.to);
  io("owner", e.owner);
  io("binding", e.binding);
}

}  // namespace spotcheck::location::events
