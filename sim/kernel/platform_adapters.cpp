#include "sim/kernel/platform_adapters.h"

#include <utility>

#include "impl/check/check.h"
#include "sim/kernel/kernel.h"
#include "sim/kernel/gate.h"

namespace spotcheck::sim {

TimeUs SimClock::now_us() const { return kernel_->local_now_us(process_); }

void SimClock::sleep_until(TimeUs deadline_us) { kernel_->sleep_until_local(process_, deadline_us); }

void SimTasks::spawn(std::string name, std::function<void()> body) {
  kernel_->spawn(process_, std::move(name), std::move(body));
}

std::unique_ptr<platform::Gate> SimTasks::make_gate() { return std::make_unique<SimGate>(*kernel_); }

void SimTasks::yield() { kernel_->yield(process_); }

void SimTransport::send(RoutingId to, std::string bytes) { kernel_->network().send(self_, to, std::move(bytes)); }

std::optional<platform::Envelope> SimTransport::receive(TimeUs deadline_us) {
  return kernel_->receive(process_, deadline_us);
}

std::uint64_t SimRandom::next_u64() {
  SPOTCHECK_ASSERT_ABORT(stream_ != nullptr);  // bound at every start
  return stream_->next_u64();
}

void SimEvents::emit(std::string_view kind, std::span<const platform::Field> fields) {
  kernel_->emit(process_, kind, fields);
}

void SimEvents::mark(platform::Mark mark) { kernel_->count_mark(mark); }

}  // namespace spotcheck::sim
