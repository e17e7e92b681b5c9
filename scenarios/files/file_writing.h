// What the scenario file writers of every family share (scenario_file.cpp, family_files.cpp): the
// fault plan as a file holds it, a section's fields written or listed for comparing, and the first
// difference between two configs.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "faults/fault_plan.h"
#include "impl/platform/marks.h"
#include "impl/platform/time.h"

namespace spotcheck::scenarios::files::detail {

using ordered_json = nlohmann::ordered_json;
using platform::TimeUs;

// Seconds as the loader turns them back into microseconds (static_cast<TimeUs>(s * 1e6)), exactly.
double seconds_of(TimeUs us);
std::int64_t millis_of(TimeUs us);
// The "faults" object of a plan (only the kinds it turns on).
ordered_json write_faults(const faults::FaultPlan& plan);

// Writes a section's fields as the file holds them.
class SectionWriter {
 public:
  template <class T>
  void number(std::string_view key, const T& value, double, double, bool = true) {
    _out[std::string(key)] = value;
  }
  void millis(std::string_view key, const TimeUs& us, double, double) { _out[std::string(key)] = millis_of(us); }
  ordered_json take() { return std::move(_out); }

 private:
  ordered_json _out = ordered_json::object();
};

// A section's fields as (key, exact value text), for comparing two configs field by field.
class SectionValues {
 public:
  template <class T>
  void number(std::string_view key, const T& value, double, double, bool = true) {
    std::ostringstream text;
    text << value;
    _values.emplace_back(std::string(key), text.str());
  }
  void millis(std::string_view key, const TimeUs& us, double, double) {
    _values.emplace_back(std::string(key) + " (us)", std::to_string(us));
  }
  const std::vector<std::pair<std::string, std::string>>& values() const { return _values; }

 private:
  std::vector<std::pair<std::string, std::string>> _values;
};

// Collects "<what>: <a> vs <b>" for the first field that differs.
class Differences {
 public:
  // Every field `fields` declares, under `section.`.
  template <class Section, class Fields>
  void check_section(const std::string& section, const Section& a, const Section& b, Fields fields) {
    SectionValues va;
    SectionValues vb;
    fields(va, a);
    fields(vb, b);
    for (std::size_t i = 0; i < va.values().size(); ++i) {
      check((section + "." + va.values()[i].first).c_str(), va.values()[i].second, vb.values()[i].second);
    }
  }
  template <class T>
  void check(const char* what, const T& a, const T& b) {
    if (_first.empty() && !(a == b)) {
      std::ostringstream text;
      text << what << ": " << a << " vs " << b;
      _first = text.str();
    }
  }
  std::string first() const { return _first; }

 private:
  std::string _first;
};

// "faultsSeconds", "livenessSeconds", "trafficSeconds" of a config of any family.
template <class Config>
void write_phases(ordered_json& doc, const Config& config) {
  doc["faultsSeconds"] = seconds_of(config.faults_stop_us);
  doc["livenessSeconds"] = seconds_of(config.liveness_window_us);
  doc["trafficSeconds"] = seconds_of(config.workload.traffic_stop_us);
}

// After a family's own sections: "faults" (the plan at the config's own faults_stop_us),
// "plantedBugs" (the names given; none: left out), "properties", "requireMarks", "maxSteps".
template <class Config>
void write_tail(ordered_json& doc, const Config& config, const std::vector<std::string>& bugs) {
  doc["faults"] = write_faults(config.plan(config.faults_stop_us));
  if (!bugs.empty()) {
    doc["plantedBugs"] = bugs;
  }
  if (!config.properties.empty()) {
    doc["properties"] = config.properties;
  }
  std::vector<std::string> marks;
  for (platform::Mark mark : config.required_marks) {
    marks.emplace_back(platform::to_string(mark));
  }
  doc["requireMarks"] = marks;
  doc["maxSteps"] = config.max_steps;
}

// Every field of two plans.
void compare_plans(Differences& d, const faults::FaultPlan& a, const faults::FaultPlan& b);

}  // namespace spotcheck::scenarios::files::detail
