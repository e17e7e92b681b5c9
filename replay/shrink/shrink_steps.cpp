#include "replay/shrink/shrink_steps.h"

#include "replay/shrink/step_kinds.h"

namespace spotcheck::replay {

namespace {

using scenarios::authority::AuthorityScenarioConfig;
using scenarios::authority::AuthorityWorkload;
using scenarios::creation::CreationScenarioConfig;
using scenarios::creation::CreationWorkload;
using scenarios::instance::InstanceScenarioConfig;
using scenarios::instance::InstanceWorkload;

// A field of a config's workload, for steps::fewer and steps::choice_off.
template <class Config, class T, class W>
std::function<T&(Config&)> workload_field(T W::*member) {
  return [member](Config& c) -> T& { return c.workload.*member; };
}

}  // namespace

std::vector<ShrinkStepKind> shrink_steps() {
  using C = AuthorityScenarioConfig;
  std::vector<ShrinkStepKind> list;
  steps::add_fault_kinds_off(list);
  steps::add_shorter_safety_phase(list);
  steps::add_fewer<C>(list, "nodes", [](C& c) -> std::uint32_t& { return c.node_count; }, 1);
  steps::add_fewer<C>(list, "objects", workload_field<C>(&AuthorityWorkload::object_count), 1);
  list.push_back(steps::choice_off<C>("deletes", workload_field<C>(&AuthorityWorkload::delete_probability)));
  list.push_back(steps::choice_off<C>("aborts", workload_field<C>(&AuthorityWorkload::abort_probability)));
  list.push_back(steps::choice_off<C>("messages", workload_field<C>(&AuthorityWorkload::message_probability)));
  list.push_back(steps::slower_workload<C>());
  steps::add_gentler_faults(list);
  return list;
}

std::vector<ShrinkStepOf<CreationScenarioConfig>> creation_shrink_steps() {
  using C = CreationScenarioConfig;
  using W = CreationWorkload;
  std::vector<ShrinkStepOf<C>> list;
  steps::add_fault_kinds_off(list);
  steps::add_shorter_safety_phase(list);
  steps::add_fewer<C>(list, "nodes", [](C& c) -> std::uint32_t& { return c.node_count; }, 2);
  steps::add_fewer<C>(list, "actor IDs", workload_field<C>(&W::actor_ids), 1);
  steps::add_fewer<C>(list, "spot IDs", workload_field<C>(&W::spot_ids), 1);
  steps::add_fewer<C>(list, "clients per node", workload_field<C>(&W::clients_per_node), 1);
  list.push_back(steps::choice_off<C>("messages", workload_field<C>(&W::send_message_weight)));
  list.push_back(steps::choice_off<C>("own-OperationId retries", workload_field<C>(&W::retry_own_operation_weight)));
  list.push_back(steps::choice_off<C>("destroys", workload_field<C>(&W::destroy_weight)));
  list.push_back(steps::choice_off<C>("finds", workload_field<C>(&W::find_weight)));
  list.push_back(steps::choice_off<C>("kept refs", workload_field<C>(&W::kept_ref_probability)));
  list.push_back(steps::choice_off<C>("timers", workload_field<C>(&W::timer_probability)));
  list.push_back(steps::choice_off<C>("Sends", workload_field<C>(&W::post_probability)));
  list.push_back(steps::choice_off<C>("factory rejects", workload_field<C>(&W::reject_probability)));
  list.push_back(steps::choice_off<C>("factory throws", workload_field<C>(&W::throw_probability)));
  list.push_back(steps::choice_off<C>("factory delays", workload_field<C>(&W::factory_delay_max_us)));
  list.push_back(steps::choice_off<C>("handler delays", workload_field<C>(&W::handler_delay_max_us)));
  list.push_back(steps::choice_off<C>("node-link loss", std::function<double&(C&)>(
                                                            [](C& c) -> double& { return c.node_link_loss; })));
  list.push_back(steps::choice_off<C>("node-link bursts", std::function<platform::TimeUs&(C&)>([](C& c) -> platform::TimeUs& {
                                        return c.node_link_burst_gap_us;
                                      })));
  list.push_back(steps::choice_off<C>("node-link tail", std::function<double&(C&)>(
                                                            [](C& c) -> double& { return c.node_link_tail; })));
  list.push_back(steps::slower_workload<C>());
  steps::add_gentler_faults(list);
  return list;
}

std::vector<ShrinkStepOf<InstanceScenarioConfig>> instance_shrink_steps() {
  using C = InstanceScenarioConfig;
  using W = InstanceWorkload;
  std::vector<ShrinkStepOf<C>> list;
  steps::add_fault_kinds_off(list);
  steps::add_shorter_safety_phase(list);
  steps::add_fewer<C>(list, "client nodes", [](C& c) -> std::uint32_t& { return c.client_nodes; }, 1);
  steps::add_fewer<C>(list, "server nodes", [](C& c) -> std::uint32_t& { return c.server_nodes; }, 1);
  steps::add_fewer<C>(list, "spot IDs", workload_field<C>(&W::spot_ids), 1);
  steps::add_fewer<C>(list, "clients per node", workload_field<C>(&W::clients_per_node), 1);
  list.push_back(steps::choice_off<C>("closes after a first message", workload_field<C>(&W::close_after_first_probability)));
  list.push_back(steps::choice_off<C>("closes on a message", workload_field<C>(&W::close_on_message_probability)));
  list.push_back(steps::choice_off<C>("Reincarnate", workload_field<C>(&W::reincarnate_share)));
  list.push_back(steps::choice_off<C>("omitted types", workload_field<C>(&W::omit_type_probability)));
  list.push_back(steps::slower_workload<C>());
  list.push_back(steps::halve_probability<C>(faults::FaultKind::kNodeMessageLoss, &faults::FaultPlan::node_message_loss));
  steps::add_gentler_faults(list);
  return list;
}

}  // namespace spotcheck::replay
