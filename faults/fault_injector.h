// Turns a FaultPlan into scheduled faults in one simulated world: store request/reply loss and
// delays, store outages, slow Deletes, node kills and restarts, pauses, partitions between nodes
// and the store, loss, latency and partitions between nodes, and clock drift. Every schedule is drawn from the world's "faults" stream when the plan
// is installed, so the same seed and plan give the same faults.
//
// At plan.faults_stop_us every fault heals (partitions lifted, outage ended, loss off, dead
// nodes restart) and the world records faults.stopped (impl/platform/event_kinds.h): the liveness
// phase begins.
#pragma once

#include <string_view>
#include <vector>

#include "faults/fault_plan.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::faults {

class FaultInjector {
 public:
  FaultInjector(sim::World& world, sim::StoreServer& store, std::vector<sim::ProcessId> nodes, FaultPlan plan);

  // Schedules every fault of the plan. Call once, before running the world.
  void install();
  const FaultPlan& plan() const { return _plan; }

 private:
  void schedule_store_outages();
  void schedule_store_stalls();
  void schedule_node_link_stalls();
  sim::LinkConfig with_tail(sim::LinkConfig config) const;  // the plan's link tail, when on
  sim::LinkConfig store_link_config() const;
  sim::LinkConfig node_link_config() const;
  bool node_links_faulty() const;
  void configure_store_links(const sim::LinkConfig& config);
  void schedule_node_kills();
  void schedule_node_pauses();
  void schedule_partitions();
  void configure_node_links(const sim::LinkConfig& config);
  void schedule_node_partitions();
  void apply_clock_drift();
  void stop_all_faults();
  sim::ProcessId pick_node();
  TimeUs next_gap(TimeUs mean_gap_us);
  // A gap around `mean_gap_us` drawn from `random` (next_gap draws from the injector's stream).
  static TimeUs gap_from(platform::Random& random, TimeUs mean_gap_us);

  sim::World& _world;
  sim::StoreServer& _store;
  std::vector<sim::ProcessId> _nodes;
  FaultPlan _plan;
  platform::Random& _random;
  bool _installed = false;
};

}  // namespace spotcheck::faults
