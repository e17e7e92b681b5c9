// Turns a FaultPlan into scheduled faults in one simulated world: store request/reply loss and
// delays, store outages, slow Deletes, node kills and restarts, pauses, partitions between nodes
// and the store, loss, latency and partitions between nodes, and clock drift. Every schedule is drawn from the world's "faults" stream when the plan
// is installed, so the same seed and plan give the same faults.
//
// At plan.faults_stop_us every fault heals (partitions lifted, outage ended, loss off, dead
// nodes restart) and the world records faults.stopped (impl/platform/event_kinds.h): the liveness
// phase begins.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "faults/crash_points.h"
#include "faults/fault_plan.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::faults {

class FaultInjector {
 public:
  // `relocation_store`: the Relocation Store's own server when the scenario runs it apart from the
  // Location Store's (nullptr: one server hosts both). It meets the same kinds of faults at the
  // same rates, drawn from its own streams: its outages, stalls and partitions fall independently.
  FaultInjector(sim::World& world, sim::StoreServer& store, std::vector<sim::ProcessId> nodes, FaultPlan plan,
                sim::StoreServer* relocation_store = nullptr);
  ~FaultInjector();  // stops observing the world (node-crash-point)
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // Schedules every fault of the plan. Call once, before running the world.
  void install();
  const FaultPlan& plan() const { return _plan; }

 private:
  // The store servers: the Location Store's, and the Relocation Store's when it has its own.
  std::vector<sim::StoreServer*> servers() const;
  void schedule_store_outages(sim::StoreServer& server, platform::Random& random);
  void schedule_store_stalls(sim::StoreServer& server, platform::Random& random);
  void schedule_relocation_store_faults();
  void schedule_node_link_stalls();
  sim::LinkConfig with_tail(sim::LinkConfig config) const;  // the plan's link tail, when on
  sim::LinkConfig store_link_config() const;
  sim::LinkConfig node_link_config() const;
  bool node_links_faulty() const;
  void configure_store_links(const sim::LinkConfig& config);
  void configure_store_links(sim::StoreServer& server, const sim::LinkConfig& config);
  sim::StoreFaults store_faults() const;
  void schedule_node_kills();
  void schedule_node_pauses();
  void schedule_partitions(sim::StoreServer& server, platform::Random& random);
  void configure_node_links(const sim::LinkConfig& config);
  void schedule_node_partitions();
  void apply_clock_drift();
  // Out of contract (faults/out_of_contract.h), each from a stream of its own.
  void schedule_store_clock_jumps();
  void schedule_store_lost_writes();
  void schedule_node_clock_steps();
  void stop_all_faults();
  sim::ProcessId pick_node();
  sim::ProcessId pick_node(platform::Random& random);
  TimeUs next_gap(TimeUs mean_gap_us);
  // A gap around `mean_gap_us` drawn from `random` (next_gap draws from the injector's stream).
  static TimeUs gap_from(platform::Random& random, TimeUs mean_gap_us);

  sim::World& _world;
  sim::StoreServer& _store;
  sim::StoreServer* _relocation_store = nullptr;
  std::vector<sim::ProcessId> _nodes;
  FaultPlan _plan;
  platform::Random& _random;
  std::unique_ptr<CrashPoints> _crash_points;  // node-crash-point, when on
  bool _installed = false;
};

}  // namespace spotcheck::faults
