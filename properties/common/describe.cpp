#include "properties/common/describe.h"

#include "properties/common/host_run.h"
#include "properties/common/store_clock.h"
#include "sim/time/time_text.h"

namespace spotcheck::properties {

namespace {

void append_number(std::string& out, std::int64_t value) {
  out += std::to_string(value);
}

}  // namespace

std::string describe(const HostRunRef& run) {
  std::string out = "host run ";
  out += run.owner.empty() ? std::string_view("<none>") : run.owner;
  out += '/';
  append_number(out, run.lease_gen);
  return out;
}

std::string describe(const HostRun& run) {
  return describe(HostRunRef{run.owner, run.lease_gen});
}

std::string where(const sim::TraceEvent& event) {
  std::string out = "#" + std::to_string(event.index) + " t=" + sim::seconds_exact(event.time_us);
  if (event.node == sim::kWorldNode) {
    out += " world";
  } else {
    out += " node " + std::to_string(event.node);
  }
  return out;
}

std::string event_ref(std::uint64_t index) {
  return "#" + std::to_string(index);
}

std::string describe_object(std::string_view kind, std::string_view id) {
  std::string out(kind.empty() ? std::string_view("object") : kind);
  out += " '";
  out += id;
  out += '\'';
  return out;
}

std::string object_key(std::string_view kind, std::string_view id) {
  std::string key;
  key.reserve(kind.size() + 1 + id.size());
  key += kind;
  key += '\0';
  key += id;
  return key;
}

std::string incarnation_key(std::string_view object, std::int64_t object_gen) {
  std::string key(object);
  key += '\0';
  append_number(key, object_gen);
  return key;
}

std::string host_run_object_key(std::string_view owner, std::int64_t lease_gen, std::string_view object) {
  std::string key(owner);
  key += '\0';
  append_number(key, lease_gen);
  key += '\0';
  key += object;
  return key;
}

std::string epoch_key(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen) {
  std::string key = incarnation_key(object, object_gen);
  key += '\0';
  append_number(key, owner_gen);
  return key;
}

std::string store_ms_text(std::int64_t store_ms, std::int64_t epoch_ms) {
  if (store_ms == kUnknownLowerMs || store_ms == kUnknownUpperMs) {
    return "store ms unknown";
  }
  return "store ms " + std::to_string(store_ms) + " (t=" +
         sim::seconds_exact((store_ms - epoch_ms) * platform::kMicrosPerMilli) + ")";
}

}  // namespace spotcheck::properties
