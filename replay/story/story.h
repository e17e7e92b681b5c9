// The story of a violation: from a run's kept trace, the events about the object(s) and host
// run(s) the violation message names, the store's own account of every write to their records
// (store.applied of their authority rows and lease rows: what those events read), plus the faults
// that hit the nodes involved, ending at the violating event. Routine events are folded into counts: a regular message
// sent, run once and answered ran; an Instance Spot request sent once, run once and delivered, or
// answered having run and changed nothing; a
// request that changed nothing (request.start to request.end "used", "owned-elsewhere" or "rejected", or
// "delivered" by such an Instance Spot exchange, or one that only read: found, used or filled a
// route cache off the key events' nodes, sent a message answered ran; none of its events key), a
// timer callback started or run, a creation's ceremony when it went as it should (its authority writes stay), every lease renewal of a host
// run but its last, and every failed descriptor publish attempt of a host run but its last (unless key). Bounded: the last `events_max` such events (the violating event and the events
// the message cites always among them), with a count of those left out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "replay/story/trace_line.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

inline constexpr std::size_t kStoryEventsMax = 60;

struct StoryEvent {
  TraceLine line;
  bool key = false;    // the violating event, or an event the message cites ("#123")
  bool fault = false;  // a fault that hit an involved node (or the store / the whole world)
  bool store = false;  // the store's own account (store.applied) of a write to a subject's record
};

struct Story {
  std::vector<std::string> objects;  // ids the message names ('player:3')
  std::vector<std::string> owners;   // host runs' OwnerIds the message names
  std::vector<std::string> nodes;    // nodes where the events left happened, sorted
  std::vector<StoryEvent> events;    // in trace order
  std::uint64_t relevant = 0;        // how many events concerned the violation, once folded
  // Store and network faults (the world's, not key, not an outage's begin or end) told as runs:
  // three or more in a row become one event of kind "faults" (count, last index, kinds).
  std::uint64_t collapsed_faults = 0;
  std::uint64_t left_out = 0;        // relevant - shown
  // Routine events about the subjects, counted and not shown: requests that changed nothing
  // (ended "used" or "owned-elsewhere", no key event), and lease renewals of a host run but its last.
  std::uint64_t folded_requests = 0;
  std::uint64_t folded_request_events = 0;
  std::uint64_t folded_renewals = 0;
  // Failed descriptor publish attempts (outcome conflict / store_error) of a host run but its last:
  // a restarted node retrying every 200 ms while its dead run's row is still valid.
  std::uint64_t folded_publish_retries = 0;
  // The store's writes of a subject host run's lease row (its renewals) but its last.
  std::uint64_t folded_lease_writes = 0;
  // The store's writes an event of the story reports applied (an authority.* or lease event with
  // the same key and StoreVersion): told once, by the protocol's event.
  std::uint64_t folded_confirmed_writes = 0;
  // Regular messages that went as they should (sent, run once, answered `ran`; a Send run), none
  // of their events key: object.message_sent, object.turn, object.message_answered of one op_id.
  std::uint64_t folded_messages = 0;
  std::uint64_t folded_message_events = 0;
  // Instance Spot exchanges that went as they should (§7.1: sent once, run once on a Ready
  // instance, outcome and reply delivered), none of their events key: their instance.* events; the
  // client's request that delivered one is a folded request.
  std::uint64_t folded_instance_requests = 0;
  std::uint64_t folded_instance_request_events = 0;
  // Instance Spot exchanges answered (an error, a route, a timeout) that ran nothing and changed
  // nothing — only the request, its answer, routes, resubmissions, authority reads and a payload
  // stored and released again — none of their events key.
  std::uint64_t folded_idle_instance_requests = 0;
  std::uint64_t folded_idle_instance_request_events = 0;
  // Instance Spot cold activations that went as they should (answered `created`; only the usual
  // steps; none key): their instance.* events of the OperationId (the authority writes and
  // instance.ready stay).
  std::uint64_t folded_instance_activations = 0;
  std::uint64_t folded_instance_activation_events = 0;
  // Faults (not the store's, not the whole world's) that hit only nodes none of the events left
  // happened on: once the folds took a node's part away, what hit it tells nothing.
  std::uint64_t folded_faults_elsewhere = 0;
  // Timer callbacks started or run (object.timer_started, object.turn "timer"), none key: work no
  // request of the story asked for.
  std::uint64_t folded_timer_turns = 0;
  // Relocations that went as they should (started, captured, relay-ready, handed over, ready; none
  // key): their relocation.* events and the request.start / request.end of the request that moved
  // the object (the NewOwner, deactivation and activation stay).
  std::uint64_t folded_moves = 0;
  std::uint64_t folded_move_events = 0;
  // Creations that went as they should (created; only the usual creation.* steps; none key): their
  // creation.* events (the authority writes they made stay).
  std::uint64_t folded_creations = 0;
  // Requests that only asked and were answered (a creation call, a find; no key event), all but
  // the last of each "<mode> <outcome>": a run of the same answer told once.
  std::uint64_t folded_repeated_requests = 0;
  std::uint64_t folded_repeated_request_events = 0;
  std::string folded_repeated_signatures;  // "get_or_create deadline_exceeded x12, ..."
  std::uint64_t folded_creation_events = 0;
  // Shown and left-out events that are the store's own account of a write to a subject's record
  // (a subject object's authority row, a subject host run's lease row): the writes the protocol's
  // events read and claim.
  std::uint64_t store_writes = 0;
};

Story tell_story(const std::vector<std::string>& event_lines, const scenarios::Violation& violation,
                 std::size_t events_max = kStoryEventsMax);
// A header naming the subjects, then one line per event: "#index  time  node  kind fields".
void print_story(const Story& story, const scenarios::Violation& violation, std::ostream& out);

}  // namespace spotcheck::replay
