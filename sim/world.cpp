#include "sim/world.h"

#include <utility>

#include "impl/check/check.h"
#include "sim/kernel/kernel.h"

namespace spotcheck::sim {

World::World(WorldConfig config) : kernel_(std::make_unique<Kernel>(std::move(config))) {}

World::~World() = default;

ProcessId World::add_process(std::string name, RoutingId routing_id, ProcessMain main) {
  return kernel_->add_process(std::move(name), routing_id, std::move(main));
}

void World::start(ProcessId process) { kernel_->start(process); }
void World::kill(ProcessId process) { kernel_->kill(process); }
void World::restart(ProcessId process) { kernel_->restart(process); }
void World::crash(ProcessId process, std::string_view point) { kernel_->crash(process, point); }
void World::count_mark(platform::Mark mark) { kernel_->count_mark(mark); }
void World::pause(ProcessId process, TimeUs duration_us) { kernel_->pause(process, duration_us); }

void World::set_clock_drift_ppm(ProcessId process, std::int64_t drift_ppm) {
  kernel_->set_clock_drift_ppm(process, drift_ppm);
}

void World::step_clock(ProcessId process, TimeUs by_us) { kernel_->step_clock(process, by_us); }

TaskId World::spawn(ProcessId process, std::string name, std::function<void()> body) {
  return kernel_->spawn(process, std::move(name), std::move(body));
}

ProcessState World::process_state(ProcessId process) const { return kernel_->process(process).state; }
std::uint32_t World::process_run(ProcessId process) const { return kernel_->process(process).run; }
const std::string& World::process_name(ProcessId process) const { return kernel_->process(process).name; }
RoutingId World::process_routing_id(ProcessId process) const { return kernel_->process(process).routing_id; }

std::optional<ProcessId> World::process_by_routing_id(RoutingId routing_id) const {
  const Process* found = kernel_->process_by_routing_id(routing_id);
  if (found == nullptr) {
    return std::nullopt;
  }
  return found->id;
}

std::size_t World::process_count() const { return kernel_->process_count(); }
TimeUs World::local_now_us(ProcessId process) const { return kernel_->local_now_us(process); }
TimeUs World::virtual_from_local(ProcessId process, TimeUs local_us) const {
  return kernel_->virtual_from_local(process, local_us);
}

platform::Platform& World::platform(ProcessId process) { return kernel_->process(process).platform->platform; }

Network& World::network() { return kernel_->network(); }
platform::Random& World::stream(std::string_view name) { return kernel_->stream(name); }
std::shared_ptr<const DecisionLog> World::decision_log() const { return kernel_->decision_log(); }
std::size_t World::unread_decisions() const { return kernel_->unread_decisions(); }
ActionId World::at(TimeUs when_us, std::function<void()> action) { return kernel_->at(when_us, std::move(action)); }
bool World::cancel(ActionId action) { return kernel_->cancel(action); }

RunOutcome World::run_until(TimeUs end_us, std::uint64_t max_steps) { return kernel_->run_until(end_us, max_steps); }
TimeUs World::now_us() const { return kernel_->now_us(); }
std::uint64_t World::steps() const { return kernel_->steps(); }

const platform::MarkCounts& World::marks() const { return kernel_->marks(); }
const Trace& World::trace() const { return kernel_->trace(); }
Trace World::take_trace() { return kernel_->take_trace(); }

void World::record(std::string_view kind, std::initializer_list<platform::Field> fields) {
  record(kind, std::span<const platform::Field>(fields.begin(), fields.size()));
}

void World::record(std::string_view kind, std::span<const platform::Field> fields) {
  kernel_->record(kWorldNode, kernel_->current_task_id(), kind, fields, true);
}

void World::add_observer(TraceObserver& observer) { kernel_->add_observer(observer); }
void World::remove_observer(TraceObserver& observer) { kernel_->remove_observer(observer); }
void World::fail(std::string why) { kernel_->fail(std::move(why)); }

std::optional<std::uint64_t> World::test_only_perturbed_event_index() const {
  return kernel_->perturbed_event_index();
}

std::uint32_t World::live_tasks() const { return kernel_->live_tasks(); }
std::size_t World::pooled_stacks_in_use() const { return kernel_->pooled_stacks_in_use(); }

}  // namespace spotcheck::sim
