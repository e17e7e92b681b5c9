// What an integration run did, read from its events (a sim::TraceObserver beside the property
// suite): counts of protocol activity (leases, creations, takeovers, indeterminate replies, request
// outcomes) and, per object, the last authority change the trace reported — which the end-of-run
// owner audit compares with the rows Redis holds.
//
// In real-time mode one thread runs every node and a store call blocks it until its reply, so
// events about one object arrive in store order (a write resolved by re-read reports its own
// change late, but nothing else happened in between on that object).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "impl/location/events/lease_events.h"
#include "properties/common/authority_event.h"
#include "sim/trace/observer.h"

namespace spotcheck::properties {

struct ActivityCounts {
  std::uint64_t events = 0;
  std::uint64_t requests_started = 0;
  std::uint64_t requests_ended = 0;
  std::map<std::string, std::uint64_t> request_outcomes;  // request.end outcome -> count
  std::uint64_t leases_registered = 0;
  std::uint64_t leases_renewed = 0;
  std::uint64_t leases_lost = 0;
  std::uint64_t descriptors_published = 0;
  // Applied authority operations.
  std::uint64_t reserves = 0;
  std::uint64_t commits = 0;  // an object created (Reserved -> Active)
  std::uint64_t aborts = 0;
  std::uint64_t preserves = 0;
  std::uint64_t takeovers = 0;  // NewOwner: the owner changed
  std::uint64_t deletes = 0;
  std::uint64_t object_work = 0;  // handler runs (object.work)
  std::uint64_t conflicts = 0;    // authority operations refused with outcome=conflict
  // A store reply was lost (store.indeterminate), and how the operations ended.
  std::uint64_t indeterminate_replies = 0;
  std::map<std::string, std::uint64_t> indeterminate_by_op;  // store.indeterminate op[/resolution] -> count
  std::uint64_t resolved_by_reread = 0;        // applied, established by a re-read (resolved=1)
  std::uint64_t indeterminate_outcomes = 0;    // the re-reads did not settle it
  std::uint64_t store_errors = 0;              // authority/lease outcomes store_error
  std::uint64_t host_runs = 0;                 // process starts
  std::uint64_t kills = 0;
  std::uint64_t pauses = 0;
};

// The last authority change the trace reported for one object.
struct ObjectView {
  bool exists = false;     // false after an applied Abort/Delete
  std::string owner;       // OwnerId of the row's owner host run
  std::int64_t lease_gen = 0;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::string state;       // reserved | active
  std::uint64_t last_event = 0;
};

class ActivityLog final : public sim::TraceObserver {
 public:
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

  const ActivityCounts& counts() const { return _counts; }
  // Object key "actor/<id>" or "spot/<id>" -> view; ordered by key.
  const std::map<std::string, ObjectView>& objects() const { return _objects; }
  // The process (trace node) whose live host run owns the most Active objects; nullopt if none.
  std::optional<std::int32_t> busiest_owner_node() const;
  // Some write on an object with this id may have applied without the trace knowing (a lost reply,
  // store.indeterminate, or an operation that ended indeterminate): the store may differ from the
  // view, legitimately.
  bool uncertain(std::string_view id) const { return _uncertain_ids.contains(id); }

 private:
  void on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  void on_indeterminate(const location::events::StoreIndeterminate& indeterminate);

  ActivityCounts _counts;
  std::map<std::string, ObjectView> _objects;
  std::map<std::string, std::int32_t, std::less<>> _owner_node;  // OwnerId -> node of its host run
  std::map<std::int32_t, std::string> _current_owner;             // node -> OwnerId of its live host run
  std::set<std::string, std::less<>> _uncertain_ids;
};

}  // namespace spotcheck::properties
