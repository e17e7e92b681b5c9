// Property `exactly-one-creation` (spec §7, §12 "Creation"; design "Properties").
//
//   1. One Creating per ID at a time: the Creating interval of one ObjectGeneration (its applied
//      Reserve up to the Commit / Abort / Delete that ends it) never provably contains another
//      generation's applied Reserve of the same ID. Judged on store-time bounds (docs/properties.md
//      "Store time"): only a Reserve provably after the other's Reserve and provably before its
//      end is flagged.
//   2. One factory run per (ID, ObjectGeneration), on the host run the Creating row names —
//      except the crash retry §7 allows: the earlier run's process was killed or exited after
//      that run, the new run is on another host run, and no Commit of that generation was seen.
//   3. At most one final result per request: creation.result is emitted at most once per
//      request identifier (source_gen, op_id: the source host run and its OperationId, §7), and a
//      command-20 reply (creation.reply_delivered, close.reply_delivered) is handed to its caller
//      at most once per exchange (a creation's request within one Manager call — §7: a call never
//      submits its request again; a close's OperationId);
//      a delivered Created / Rejected / Failed equals the stored result of the same request (an
//      OperationId reused by a later host run is another request; a caller's retry of the same
//      request is a new exchange); a Close that got its owner's reply answers its caller
//      what the reply said (close.finished: closed, not_found, stale_generation, moving, else
//      unavailable).
//   4. A creation places its object in the Mesh it asked for (§7 InMesh): every placement.chosen
//      of a Manager call names the call's Mesh (creation.requested's `mesh`).
//
// Reads: applied authority.reserve / commit / abort / delete, creation.factory_run,
// creation.result, creation.reply_delivered, close.reply_delivered, close.finished,
// creation.requested, placement.chosen, kill, exit.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <string>

#include "properties/common/authority_event.h"
#include "properties/common/host_run.h"
#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

// A creation's request as the checkers key it: its OperationId and source host run (§7).
std::string request_key(std::int64_t source_gen, std::string_view op_id);

class CreationChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "exactly-one-creation";
  // Generations remembered per ID (the oldest are forgotten beyond it).
  static constexpr std::size_t kGenerationsPerIdMax = 64;

  explicit CreationChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  struct Creating {
    ApplyBounds reserved;
    std::uint64_t reserve_event = 0;
    HostRun owner;
    std::optional<ApplyBounds> ended;
    std::uint64_t end_event = 0;
    bool committed = false;
  };
  struct FactoryRun {
    std::uint64_t event = 0;
    std::int32_t node = 0;
    HostRun owner;
  };
  struct Delivery {
    std::uint64_t event = 0;
    std::string outcome;
  };

  std::optional<std::string> on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> on_factory_run(const sim::TraceEvent& event);
  std::optional<std::string> on_result(const sim::TraceEvent& event);
  std::optional<std::string> on_delivered(const sim::TraceEvent& event, StringMap<Delivery>& deliveries,
                                          bool creation);
  std::optional<std::string> on_close_finished(const sim::TraceEvent& event);
  std::optional<std::string> overlap(const std::string& object, std::int64_t gen, const Creating& later,
                                     std::int64_t earlier_gen, const Creating& earlier) const;
  void forget_old(std::map<std::int64_t, Creating>& generations);

  StringMap<std::map<std::int64_t, Creating>> _creating;  // object -> generation -> interval
  StringMap<FactoryRun> _factory_runs;                    // incarnation -> last run
  StringMap<Delivery> _results;                           // request_key -> stored result
  StringMap<Delivery> _replies;                           // a request within one call -> creation reply delivered
  StringMap<Delivery> _told;                              // request_key -> final result a reply told
  StringMap<Delivery> _close_replies;                     // op_id -> close reply delivered
  std::map<std::int32_t, std::uint64_t> _last_death;      // node -> index of its last kill/exit
  // The Manager call each (node, task) runs: the index of its creation.requested.
  std::map<std::pair<std::int32_t, std::uint64_t>, std::uint64_t> _task_calls;
  // ... and the Mesh that call places in.
  std::map<std::pair<std::int32_t, std::uint64_t>, std::string> _task_meshes;
  std::optional<std::string> on_placement(const sim::TraceEvent& event) const;
};

}  // namespace spotcheck::properties
