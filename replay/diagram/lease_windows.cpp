#include "replay/diagram/lease_windows.h"

#include "impl/platform/event_kinds.h"

namespace spotcheck::replay {

namespace {

bool same_owner(const std::string& owner, const TraceLine& line) { return text_field(line, "owner") == owner; }

}  // namespace

void LeaseWindows::cut(const TraceLine& line, bool (*matches)(const Opened&, const TraceLine&), const char* by) {
  for (Opened& o : _opened) {
    if (!o.window.cut_us.has_value() && matches(o, line)) {
      o.window.cut_us = line.time_us;
      o.window.cut_by = by;
    }
  }
}

void LeaseWindows::read(const TraceLine& line, const ClockReadings& clocks) {
  const bool opens = line.kind == kinds::kLeaseRegistered || line.kind == kinds::kLeaseRenewed;
  const bool lost =
      line.kind == kinds::kLeaseLost || (line.kind == kinds::kLeaseAdmissionClosed && number_field(line, "lost") == 1);
  auto by_owner = [](const Opened& o, const TraceLine& l) { return same_owner(o.window.owner, l); };
  auto by_node = [](const Opened& o, const TraceLine& l) { return o.window.node == l.node; };
  if (line.kind == kinds::kProcessKill || line.kind == kinds::kProcessExit) {
    cut(line, by_node, line.kind == kinds::kProcessKill ? "kill" : "exit");
  } else if (lost) {
    cut(line, by_owner, "lease lost");
  } else if (opens) {
    cut(line, by_owner, "renewed");
    Opened o;
    o.window.node = line.node;
    o.window.owner = text_field(line, "owner").value_or("");
    o.window.lease_gen = number_field(line, "lease_gen").value_or(0);
    o.window.index = line.index;
    o.window.from_us = line.time_us;
    o.window.expires_ms = number_field(line, "expires_ms").value_or(0);
    o.window.deadline_us = number_field(line, "deadline_us").value_or(0);
    o.run = clocks.run_of(line.node);
    o.store_now_ms = number_field(line, "store_now_ms").value_or(0);
    o.local_before_us = number_field(line, "local_before_us").value_or(0);
    _opened.push_back(std::move(o));
  }
}

std::vector<LeaseWindow> LeaseWindows::windows(const ClockReadings& clocks) const {
  std::vector<LeaseWindow> out;
  for (const Opened& o : _opened) {
    LeaseWindow w = o.window;
    // Without a reading, the event's own: its store_now_ms (the apply, or a later re-read) and the
    // local time before its request was sent (a round trip early at most).
    w.lease_until_us = clocks.virtual_of_store_ms(w.expires_ms, w.from_us)
                           .value_or(w.from_us + (w.expires_ms - o.store_now_ms) * 1000);
    w.admission_until_us = clocks.virtual_of_local(w.node, o.run, w.deadline_us, w.from_us)
                               .value_or(w.from_us + (w.deadline_us - o.local_before_us));
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace spotcheck::replay
