#include "scenarios/files/family_files.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "properties/registry.h"
#include "scenarios/creation/creation_scenarios.h"
#include "scenarios/files/any_scenario_file.h"
#include "scenarios/files/file_reading.h"
#include "scenarios/files/file_writing.h"

namespace spotcheck::scenarios::files {

namespace {

using detail::json;
using detail::kHourMs;
using detail::ObjectReader;
using detail::ordered_json;
using platform::TimeUs;

// The fields of each family's "workload" (and a creation file's "nodeLinks"), each declared once
// for the reader (ObjectReader), the writer (SectionWriter) and the differ (SectionValues), as
// scenario_file.cpp declares a Location file's.
template <class Io, class W>
void creation_workload_fields(Io& io, W& w) {
  io.number("actorIds", w.actor_ids, 1, 1'000);
  io.number("spotIds", w.spot_ids, 1, 1'000);
  io.number("clientsPerNode", w.clients_per_node, 1, 64);
  io.millis("thinkMinMs", w.think_min_us, 1, kHourMs);
  io.millis("thinkMaxMs", w.think_max_us, 1, kHourMs);
  io.millis("requestDeadlineMs", w.request_deadline_us, 1, kHourMs);
  io.number("getOrCreateActorWeight", w.get_or_create_actor_weight, 0, 1'000'000);
  io.number("createActorWeight", w.create_actor_weight, 0, 1'000'000);
  io.number("getOrCreateSpotWeight", w.get_or_create_spot_weight, 0, 1'000'000);
  io.number("createSpotWeight", w.create_spot_weight, 0, 1'000'000);
  io.number("destroyWeight", w.destroy_weight, 0, 1'000'000);
  io.number("findWeight", w.find_weight, 0, 1'000'000);
  io.number("retryOwnOperationWeight", w.retry_own_operation_weight, 0, 1'000'000);
  io.number("sendMessageWeight", w.send_message_weight, 0, 1'000'000);
  io.number("ownOperationIdProbability", w.own_operation_id_probability, 0, 1, false);
  io.number("keptRefProbability", w.kept_ref_probability, 0, 1, false);
  io.number("omitMeshProbability", w.omit_mesh_probability, 0, 1, false);
  io.number("unknownMeshProbability", w.unknown_mesh_probability, 0, 1, false);
  io.number("actorsLimit", w.actors_limit, 0, 2'147'483'647);
  io.number("roomLimit", w.room_limit, 0, 2'147'483'647);
  io.number("rejectProbability", w.reject_probability, 0, 1, false);
  io.number("throwProbability", w.throw_probability, 0, 1, false);
  io.millis("factoryDelayMaxMs", w.factory_delay_max_us, 0, kHourMs);
  io.millis("handlerDelayMaxMs", w.handler_delay_max_us, 0, kHourMs);
  io.number("timerProbability", w.timer_probability, 0, 1, false);
  io.millis("timerDelayMaxMs", w.timer_delay_max_us, 100, kHourMs);  // timers start 100 ms .. this later
  io.number("postProbability", w.post_probability, 0, 1, false);
}

template <class Io, class C>
void node_link_fields(Io& io, C& c) {
  io.number("loss", c.node_link_loss, 0, 1, false);
  io.number("burstLoss", c.node_link_burst_loss, 0, 1, false);
  io.millis("burstGapMs", c.node_link_burst_gap_us, 0, kHourMs);  // 0: no bursts
  io.millis("burstLengthMs", c.node_link_burst_length_us, 1, kHourMs);
  io.number("tail", c.node_link_tail, 0, 1, false);
  io.millis("tailMaxMs", c.node_link_tail_max_us, 0, kHourMs);
}

template <class Io, class W>
void instance_workload_fields(Io& io, W& w) {
  io.number("spotIds", w.spot_ids, 1, 1'000);
  io.number("clientsPerNode", w.clients_per_node, 1, 64);
  io.millis("thinkMinMs", w.think_min_us, 1, kHourMs);
  io.millis("thinkMaxMs", w.think_max_us, 1, kHourMs);
  io.millis("requestDeadlineMs", w.request_deadline_us, 1, kHourMs);
  io.number("omitTypeProbability", w.omit_type_probability, 0, 1, false);
  io.number("closeAfterFirstProbability", w.close_after_first_probability, 0, 1, false);
  io.number("closeOnMessageProbability", w.close_on_message_probability, 0, 1, false);
  io.millis("closeDelayMaxMs", w.close_delay_max_us, 0, kHourMs);
  io.number("reincarnateShare", w.reincarnate_share, 0, 1, false);
}

// ---- reading ----------------------------------------------------------------------------------

template <class Fields, class Section>
void read_section(ObjectReader& top, const char* key, Section& section, Fields fields) {
  if (const json* v = top.find(key)) {
    ObjectReader r(*v, key, top.origin());
    fields(r, section);
    r.reject_unknown_keys();
  }
}

void check_think_times(ObjectReader& top, TimeUs min_us, TimeUs max_us) {
  if (min_us > max_us) {
    top.fail("workload", "thinkMinMs must not exceed thinkMaxMs");
  }
}

template <class Config>
void read_phases_into(ObjectReader& top, Config& config) {
  const detail::Phases phases = detail::read_phases(
      top, detail::Phases{config.faults_stop_us, config.liveness_window_us, config.workload.traffic_stop_us});
  config.faults_stop_us = phases.faults_stop_us;
  config.liveness_window_us = phases.liveness_window_us;
  config.workload.traffic_stop_us = phases.traffic_stop_us;
}

}  // namespace

namespace detail {

creation::CreationScenarioConfig read_creation_file(ObjectReader& top, const std::string& base) {
  creation::CreationScenarioConfig config = creation::creation_scenario_config(base);
  top.number("nodes", config.node_count, 2, 64);
  read_phases_into(top, config);
  read_section(top, "workload", config.workload, [](auto& io, auto& w) { creation_workload_fields(io, w); });
  check_think_times(top, config.workload.think_min_us, config.workload.think_max_us);
  const auto& w = config.workload;
  if (w.get_or_create_actor_weight + w.create_actor_weight + w.get_or_create_spot_weight + w.create_spot_weight +
          w.destroy_weight + w.find_weight + w.retry_own_operation_weight + w.send_message_weight ==
      0) {
    top.fail("workload", "must give at least one request kind a weight above 0");
  }
  if (w.omit_mesh_probability + w.unknown_mesh_probability > 1.0) {
    top.fail("workload", "omitMeshProbability + unknownMeshProbability must not exceed 1");
  }
  read_section(top, "nodeLinks", config, [](auto& io, auto& c) { node_link_fields(io, c); });
  detail::read_common(top, config);
  if (const json* bugs = top.find("plantedBugs")) {
    plant(read_planted_bugs(top, *bugs, ScenarioFamily::kCreation, base), config.protocol, &config.creation);
  }
  top.reject_unknown_keys();
  return config;
}

instance::InstanceScenarioConfig read_instance_file(ObjectReader& top, const std::string& base) {
  instance::InstanceScenarioConfig config = instance::instance_scenario_config(base);
  top.number("clientNodes", config.client_nodes, 1, 64);
  top.number("serverNodes", config.server_nodes, 1, 64);
  read_phases_into(top, config);
  read_section(top, "workload", config.workload, [](auto& io, auto& w) { instance_workload_fields(io, w); });
  check_think_times(top, config.workload.think_min_us, config.workload.think_max_us);
  if (config.workload.traffic_stop_us + config.workload.request_deadline_us >
      config.faults_stop_us + config.liveness_window_us) {
    top.fail("trafficSeconds", "plus workload.requestDeadlineMs must not exceed faultsSeconds + livenessSeconds "
                               "(every request must end in the liveness window)");
  }
  detail::read_common(top, config);
  if (const json* bugs = top.find("plantedBugs")) {
    plant(read_planted_bugs(top, *bugs, ScenarioFamily::kInstance, base), config.protocol, &config.creation);
  }
  top.reject_unknown_keys();
  return config;
}

}  // namespace detail

// ---- writing -----------------------------------------------------------------------------------

namespace {

using detail::Differences;
using detail::SectionWriter;

template <class Section, class Fields>
ordered_json section_json(const Section& section, Fields fields) {
  SectionWriter writer;
  fields(writer, section);
  return writer.take();
}

// The planted bugs `family` can plant, by name in the catalogue's order; any other is taken out of
// `expected` (the config the file will mean) and noted in `not_written`.
template <class Config>
std::vector<std::string> plantable_bug_names(Config& expected, ScenarioFamily family,
                                             std::vector<std::string>& not_written) {
  std::vector<std::string> names;
  for (const PlantedBugInfo& bug : planted_bugs()) {
    planted::PlantedBugs& bugs =
        bug.planted_in == PlantedIn::kLocationConfig ? expected.protocol.planted_bugs : expected.creation.planted_bugs;
    if (!bugs.contains(bug.bug)) {
      continue;
    }
    if (bug.plantable_in(family)) {
      names.emplace_back(bug.name);
    } else {
      bugs.erase(bug.bug);
      not_written.push_back("planted bug " + std::string(bug.name));
    }
  }
  return names;
}

// What both families write alike: the header, the phases and, after the family's own sections, the
// faults, planted bugs, properties, marks and step bound.
template <class Config>
ordered_json document_head(const Config& config) {
  if (config.base.empty()) {
    throw ScenarioFileError("the scenario cannot be written as a scenario file (it names no built-in base)");
  }
  ordered_json doc;
  doc["scenarioVersion"] = kScenarioFileVersion;
  doc["name"] = config.name;
  doc["description"] = config.description;
  doc["base"] = config.base;
  return doc;
}

template <class Config>
void compare_common(Differences& d, const Config& a, const Config& b) {
  d.check("name", a.name, b.name);
  d.check("description", a.description, b.description);
  d.check("base", a.base, b.base);
  d.check("faults_stop_us", a.faults_stop_us, b.faults_stop_us);
  d.check("liveness_window_us", a.liveness_window_us, b.liveness_window_us);
  d.check("workload.traffic_stop_us", a.workload.traffic_stop_us, b.workload.traffic_stop_us);
  d.check("maxSteps", a.max_steps, b.max_steps);
  d.check("protocol.planted_bugs", a.protocol.planted_bugs == b.protocol.planted_bugs, true);
  d.check("creation.planted_bugs", a.creation.planted_bugs == b.creation.planted_bugs, true);
  d.check("properties", a.properties == b.properties, true);
  d.check("required_marks", a.required_marks == b.required_marks, true);
  detail::compare_plans(d, a.plan(a.faults_stop_us), b.plan(b.faults_stop_us));
}

// Reads `text` back and throws unless it means `expected`.
template <class Config, class Difference>
void check_read_back(const std::string& text, const Config& expected, Difference difference) {
  const AnyScenarioConfig back = parse_any_scenario(text, "<written scenario>");
  const Config* same_family = std::get_if<Config>(&back);
  const std::string first = same_family == nullptr ? "family" : difference(expected, *same_family);
  if (!first.empty()) {
    throw ScenarioFileError("the scenario cannot be written exactly as a scenario file (" + first +
                            " after reading it back)");
  }
}

}  // namespace

std::string creation_scenario_difference(const creation::CreationScenarioConfig& a,
                                         const creation::CreationScenarioConfig& b) {
  Differences d;
  compare_common(d, a, b);
  d.check("nodes", a.node_count, b.node_count);
  d.check("workload.mesh_names", a.workload.mesh_names == b.workload.mesh_names, true);
  d.check_section("workload", a.workload, b.workload, [](auto& io, const auto& w) { creation_workload_fields(io, w); });
  d.check_section("nodeLinks", a, b, [](auto& io, const auto& c) { node_link_fields(io, c); });
  return d.first();
}

std::string instance_scenario_difference(const instance::InstanceScenarioConfig& a,
                                         const instance::InstanceScenarioConfig& b) {
  Differences d;
  compare_common(d, a, b);
  d.check("clientNodes", a.client_nodes, b.client_nodes);
  d.check("serverNodes", a.server_nodes, b.server_nodes);
  d.check_section("workload", a.workload, b.workload, [](auto& io, const auto& w) { instance_workload_fields(io, w); });
  return d.first();
}

ScenarioFileText write_creation_scenario(const creation::CreationScenarioConfig& config) {
  ScenarioFileText out;
  ordered_json doc = document_head(config);
  doc["nodes"] = config.node_count;
  detail::write_phases(doc, config);
  doc["workload"] = section_json(config.workload, [](auto& io, const auto& w) { creation_workload_fields(io, w); });
  doc["nodeLinks"] = section_json(config, [](auto& io, const auto& c) { node_link_fields(io, c); });
  creation::CreationScenarioConfig expected = config;
  detail::write_tail(doc, config, plantable_bug_names(expected, ScenarioFamily::kCreation, out.not_written));
  out.json = doc.dump(2) + "\n";
  check_read_back(out.json, expected, creation_scenario_difference);
  return out;
}

ScenarioFileText write_instance_scenario(const instance::InstanceScenarioConfig& config) {
  ScenarioFileText out;
  ordered_json doc = document_head(config);
  doc["clientNodes"] = config.client_nodes;
  doc["serverNodes"] = config.server_nodes;
  detail::write_phases(doc, config);
  doc["workload"] = section_json(config.workload, [](auto& io, const auto& w) { instance_workload_fields(io, w); });
  instance::InstanceScenarioConfig expected = config;
  detail::write_tail(doc, config, plantable_bug_names(expected, ScenarioFamily::kInstance, out.not_written));
  out.json = doc.dump(2) + "\n";
  check_read_back(out.json, expected, instance_scenario_difference);
  return out;
}

}  // namespace spotcheck::scenarios::files
