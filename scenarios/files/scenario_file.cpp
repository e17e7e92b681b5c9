#include "scenarios/files/scenario_file.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "properties/registry.h"
#include "scenarios/files/file_reading.h"
#include "scenarios/files/file_writing.h"
#include "scenarios/authority/authority_scenarios.h"

namespace spotcheck::scenarios::files {

namespace {

using detail::json;
using detail::kHourMs;
using detail::ObjectReader;
using platform::TimeUs;

// The fields of the "workload" and "protocol" sections, each declared once (the fields(io, m)
// pattern of impl/location/messaging/commands.cpp): the reader (ObjectReader), the writer
// (SectionWriter) and the differ (SectionValues) all go through these two functions.
//   io.number(key, member, lo, hi[, integral])   a number in [lo, hi]
//   io.millis(key, member_us, lo_ms, hi_ms)      milliseconds in the file, microseconds in the config
template <class Io, class W>
void workload_fields(Io& io, W& w) {
  io.number("objects", w.object_count, 1, 10'000);
  io.number("actorsLimit", w.actors_limit, 0, 2'147'483'647);
  io.millis("thinkMinMs", w.think_min_us, 1, kHourMs);
  io.millis("thinkMaxMs", w.think_max_us, 1, kHourMs);
  io.number("deleteProbability", w.delete_probability, 0, 1, false);
  io.number("abortProbability", w.abort_probability, 0, 1, false);
  io.millis("requestDeadlineMs", w.request_deadline_us, 1, kHourMs);
  io.number("shutdownProbability", w.shutdown_probability, 0, 1, false);
  io.number("boundaryTimingProbability", w.boundary_timing_probability, 0, 1, false);
  io.number("descriptorUpdateProbability", w.descriptor_update_probability, 0, 1, false);
  io.number("descriptorRenewProbability", w.descriptor_renew_probability, 0, 1, false);
  io.number("messageProbability", w.message_probability, 0, 1, false);
  io.number("concurrentMessageProbability", w.concurrent_message_probability, 0, 1, false);
  io.number("relocateProbability", w.relocate_probability, 0, 1, false);
  io.number("postProbability", w.post_probability, 0, 1, false);
  io.number("postBurstMax", w.post_burst_max, 2, 1'000);
  io.millis("postGapMaxMs", w.post_gap_max_us, 0, kHourMs);
  io.millis("restoreMaxMs", w.restore_max_us, 0, kHourMs);
  io.number("timerProbability", w.timer_probability, 0, 1, false);
  io.millis("timerDelayMaxMs", w.timer_delay_max_us, 100, kHourMs);  // timers start 100 ms .. this later
  io.number("disableRelocationProbability", w.disable_relocation_probability, 0, 1, false);
  io.number("recreateProbability", w.recreate_probability, 0, 1, false);
  io.millis("messageTimeoutMs", w.message_timeout_us, 1, kHourMs);
  io.millis("handlerMaxMs", w.handler_max_us, 0, kHourMs);
}

template <class Io, class P>
void protocol_fields(Io& io, P& p) {
  io.millis("renewIntervalMs", p.renew_interval_us, 1, kHourMs);
  io.millis("ownerLeaseTtlMs", p.owner_lease_ttl_us, 1, kHourMs);
  io.millis("renewTimeoutMs", p.renew_timeout_us, 1, kHourMs);
  io.millis("fencingMarginMs", p.fencing_margin_us, 1, kHourMs);
  io.millis("storeRequestTimeoutMs", p.store_request_timeout_us, 1, kHourMs);
  // §7.3: 0 turns each off (the relocation scenario keeps no location cache).
  io.millis("routeCacheMaxAgeMs", p.route_cache_max_age_us, 0, kHourMs);
  io.millis("messageFollowDurationMs", p.message_follow_duration_us, 0, kHourMs);
}

void read_workload(ObjectReader& r, authority::AuthorityWorkload& w) {
  workload_fields(r, w);
  r.reject_unknown_keys();
  if (w.think_min_us > w.think_max_us) {
    r.fail(r.path(), "thinkMinMs must not exceed thinkMaxMs");
  }
}

void read_protocol(ObjectReader& r, spotcheck::location::LocationConfig& p) {
  protocol_fields(r, p);
  r.reject_unknown_keys();
  if (const auto error = spotcheck::location::validate(p)) {
    r.fail(r.path(), "breaks the owner lease timing rules (spec §5): " + error->message);
  }
}

}  // namespace

namespace detail {

json parse_document(std::string_view json_text, const std::string& origin) {
  if (json_text.size() > kScenarioFileBytesMax) {
    throw ScenarioFileError(json_guard::one_line(origin) + ": larger than " + std::to_string(kScenarioFileBytesMax) +
                            " bytes (the scenario file limit)");
  }
  // Depth and duplicate keys are checked before anything recursive sees the document.
  if (const auto guard_error = json_guard::check(json_text)) {
    throw ScenarioFileError(json_guard::one_line(origin) + ": " + guard_error->message);
  }
  try {
    return json::parse(json_text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    throw ScenarioFileError(json_guard::one_line(origin + ": not valid JSON (" + e.what() + ")", 1000));
  }
}

std::string read_version_and_base(ObjectReader& top) {
  int version = 0;
  top.number("scenarioVersion", version, 0, 1'000'000);
  if (version != kScenarioFileVersion) {
    top.fail("scenarioVersion", "must be " + std::to_string(kScenarioFileVersion) + (top.find("scenarioVersion") ? "" : " (it is missing)"));
  }
  std::string base = "default";
  top.text("base", base);
  if (!family_of_base(base).has_value()) {
    top.fail("base", "must name a built-in scenario a file can extend (" + std::string(kFileBases) + "), not \"" + base + "\"");
  }
  return base;
}

std::optional<ScenarioFamily> family_of_base(const std::string& base) {
  for (const char* name : {"default", "authority-race", "lease-pause", "store-outage", "churn", "relocation"}) {
    if (base == name) {
      return ScenarioFamily::kLocation;
    }
  }
  if (base == "create-storm" || base == "message-storm") {
    return ScenarioFamily::kCreation;
  }
  if (base == "instance-route") {
    return ScenarioFamily::kInstance;
  }
  return std::nullopt;
}

authority::AuthorityScenarioConfig read_location_file(ObjectReader& top, const std::string& base) {
  const std::string& origin = top.origin();
  authority::AuthorityScenarioConfig config = authority::authority_scenario_config(base);
  top.number("nodes", config.node_count, 1, 64);
  const Phases phases =
      read_phases(top, Phases{config.faults_stop_us, config.liveness_window_us, config.workload.traffic_stop_us});
  config.faults_stop_us = phases.faults_stop_us;
  config.liveness_window_us = phases.liveness_window_us;
  config.workload.traffic_stop_us = phases.traffic_stop_us;
  if (const json* w = top.find("workload")) {
    ObjectReader r(*w, "workload", origin);
    read_workload(r, config.workload);
  }
  if (const json* p = top.find("protocol")) {
    ObjectReader r(*p, "protocol", origin);
    read_protocol(r, config.protocol);
  }
  read_common(top, config);
  if (const json* bugs = top.find("plantedBugs")) {
    plant(read_planted_bugs(top, *bugs, ScenarioFamily::kLocation, base), config.protocol, nullptr);
  }
  top.reject_unknown_keys();
  return config;
}

}  // namespace detail

authority::AuthorityScenarioConfig parse_scenario(std::string_view json_text, const std::string& origin) {
  const json document = detail::parse_document(json_text, origin);
  ObjectReader top(document, "", origin);
  const std::string base = detail::read_version_and_base(top);
  const ScenarioFamily family = *detail::family_of_base(base);
  if (family != ScenarioFamily::kLocation) {
    top.fail("base", "names " + a_scenario_of(family) + " (\"" + base +
                         "\"); only a Location scenario file is read here");
  }
  return detail::read_location_file(top, base);
}

std::string detail::read_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioFileError(json_guard::one_line(path) + ": cannot be read");
  }
  // At most the limit + 1 bytes: /dev/zero and fifos have no size to check up front.
  json_guard::BoundedText text = json_guard::read_bounded(in, kScenarioFileBytesMax);
  if (in.bad()) {
    throw ScenarioFileError(json_guard::one_line(path) + ": cannot be read");
  }
  return std::move(text.text);
}

authority::AuthorityScenarioConfig load_scenario_file(const std::string& path) {
  return parse_scenario(detail::read_file_text(path), path);
}

// ---- writing -----------------------------------------------------------------------------------

namespace {

using detail::compare_plans;
using detail::Differences;
using detail::ordered_json;
using detail::SectionValues;
using detail::SectionWriter;

bool same_retry_bounds(const spotcheck::location::LocationConfig& a, const spotcheck::location::LocationConfig& b) {
  return a.renew_attempts_max == b.renew_attempts_max && a.indeterminate_rereads_max == b.indeterminate_rereads_max &&
         a.contention_attempts_max == b.contention_attempts_max;
}

}  // namespace

std::string scenario_difference(const authority::AuthorityScenarioConfig& a, const authority::AuthorityScenarioConfig& b) {
  Differences d;
  d.check("name", a.name, b.name);
  d.check("description", a.description, b.description);
  d.check("nodes", a.node_count, b.node_count);
  d.check("faults_stop_us", a.faults_stop_us, b.faults_stop_us);
  d.check("liveness_window_us", a.liveness_window_us, b.liveness_window_us);
  d.check("maxSteps", a.max_steps, b.max_steps);
  const auto& wa = a.workload;
  const auto& wb = b.workload;
  d.check("workload.mesh_name", wa.mesh_name, wb.mesh_name);
  d.check_section("workload", wa, wb, [](auto& io, const auto& w) { workload_fields(io, w); });
  d.check("workload.traffic_stop_us", wa.traffic_stop_us, wb.traffic_stop_us);
  const auto& pa = a.protocol;
  const auto& pb = b.protocol;
  d.check_section("protocol", pa, pb, [](auto& io, const auto& p) { protocol_fields(io, p); });
  d.check("protocol.retry_bounds", same_retry_bounds(pa, pb), true);
  d.check("protocol.planted_bugs", pa.planted_bugs == pb.planted_bugs, true);
  d.check("properties.size", a.properties.size(), b.properties.size());
  for (std::size_t i = 0; i < a.properties.size() && i < b.properties.size(); ++i) {
    d.check("properties", a.properties[i], b.properties[i]);
  }
  d.check("required_marks", a.required_marks == b.required_marks, true);
  compare_plans(d, a.plan(a.faults_stop_us), b.plan(b.faults_stop_us));
  return d.first();
}

ScenarioFileText write_scenario(const authority::AuthorityScenarioConfig& config) {
  ScenarioFileText out;
  // What the file will hold: the config without the settings a file cannot express.
  authority::AuthorityScenarioConfig expected = config;
  const authority::AuthorityScenarioConfig defaults;
  // Planted bugs a Location file can name; any other (an Instance Spot one) is not written.
  planted::PlantedBugs written_bugs;
  std::vector<std::string> planted;
  for (const PlantedBugInfo& bug : planted_bugs()) {
    if (config.protocol.planted_bugs.contains(bug.bug) && bug.plantable_in(ScenarioFamily::kLocation)) {
      written_bugs.insert(bug.bug);
      planted.emplace_back(bug.name);
    }
  }
  if (!(written_bugs == config.protocol.planted_bugs)) {
    out.not_written.push_back("protocol.planted_bugs");
    expected.protocol.planted_bugs = written_bugs;
  }
  if (!same_retry_bounds(config.protocol, defaults.protocol)) {
    out.not_written.push_back("protocol.retry_bounds");
    expected.protocol.renew_attempts_max = defaults.protocol.renew_attempts_max;
    expected.protocol.indeterminate_rereads_max = defaults.protocol.indeterminate_rereads_max;
    expected.protocol.contention_attempts_max = defaults.protocol.contention_attempts_max;
  }
  if (config.workload.mesh_name != defaults.workload.mesh_name) {
    out.not_written.push_back("workload.mesh_name");
    expected.workload.mesh_name = defaults.workload.mesh_name;
  }

  const auto& w = config.workload;
  const auto& p = config.protocol;
  ordered_json doc;
  doc["scenarioVersion"] = kScenarioFileVersion;
  doc["name"] = config.name;
  doc["description"] = config.description;
  doc["base"] = "default";
  doc["nodes"] = config.node_count;
  detail::write_phases(doc, config);
  SectionWriter workload;
  workload_fields(workload, w);
  doc["workload"] = workload.take();
  SectionWriter protocol;
  protocol_fields(protocol, p);
  doc["protocol"] = protocol.take();
  detail::write_tail(doc, config, planted);
  out.json = doc.dump(2) + "\n";

  // Read back: the file must mean exactly the config (a file that replays something else is worse
  // than none).
  const authority::AuthorityScenarioConfig back = parse_scenario(out.json, "<written scenario>");
  if (const std::string difference = scenario_difference(expected, back); !difference.empty()) {
    throw ScenarioFileError("the scenario cannot be written exactly as a scenario file (" + difference +
                            " after reading it back)");
  }
  return out;
}

}  // namespace spotcheck::scenarios::files
