// Reads one trace event into its typed struct (impl/location/events/*.h, sim/events/*.h) through
// the struct's own fields() declaration, the one the emitter wrote it with. A missing field makes
// the read fail with a one-line problem, so a checker reports a malformed event instead of judging
// from defaults. Text members view the event's fields: valid only while the event is judged.
#pragma once

#include <string>
#include <string_view>

#include "impl/platform/event_fields.h"
#include "properties/common/host_run.h"
#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

template <class E>
struct EventRead {
  E event{};
  std::string problem;  // "<kind> #<index> lacks field '<key>' (docs/events.md)"; empty when read
  bool ok() const { return problem.empty(); }
};

std::string missing_field_problem(const sim::TraceEvent& event, std::string_view key);

template <class E>
EventRead<E> read_event(const sim::TraceEvent& event) {
  EventRead<E> read;
  const platform::Decoded decoded = platform::decode_event(event.fields, read.event);
  if (!decoded.ok) {
    read.problem = missing_field_problem(event, decoded.missing);
  }
  return read;
}

// The host run an event names in its `owner` and `lease_gen` members.
template <class E>
EventRead<HostRunRef> read_host_run(const sim::TraceEvent& event) {
  EventRead<E> read = read_event<E>(event);
  return EventRead<HostRunRef>{HostRunRef{read.event.owner, read.event.lease_gen}, std::move(read.problem)};
}

}  // namespace spotcheck::properties
