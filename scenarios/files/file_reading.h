// What the scenario file readers of every family share (scenario_file.cpp, any_scenario_file.cpp): a
// strict JSON object walker, lists of names, the fault plan and "plantedBugs".
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "faults/fault_plan.h"
#include "impl/json_guard/json_guard.h"
#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/planted/planted_bugs.h"
#include "impl/platform/marks.h"
#include "properties/registry.h"
#include "scenarios/files/planted_bug_catalogue.h"
#include "scenarios/files/scenario_file_limits.h"

namespace spotcheck::scenarios::files::detail {

using nlohmann::json;
using platform::TimeUs;

inline constexpr double kHourMs = 3'600'000.0;

// Walks one JSON object, remembering which keys were read so the unknown ones can be named.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, const std::string& origin)
      : _object(object), _path(std::move(path)), _origin(origin) {
    if (!_object.is_object()) {
      fail(_path, "must be an object");
    }
  }

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw ScenarioFileError(json_guard::one_line(_origin + ": " + (path.empty() ? "the document" : path) + " " + what, 1000));
  }

  std::string child(std::string_view key) const { return _path.empty() ? std::string(key) : _path + "." + std::string(key); }

  const json* find(std::string_view key) {
    _known.insert(std::string(key));
    auto it = _object.find(std::string(key));
    return it == _object.end() ? nullptr : &*it;
  }

  // A number in [lo, hi] (integral when `integral`); absent: the current value stays.
  template <class T>
  void number(std::string_view key, T& out, double lo, double hi, bool integral = true) {
    const json* v = find(key);
    if (v == nullptr) {
      return;
    }
    if (!v->is_number() || (integral && !v->is_number_integer())) {
      fail(child(key), integral ? "must be a whole number" : "must be a number");
    }
    const double d = v->get<double>();
    if (d < lo || d > hi) {
      std::ostringstream range;
      range << "must be in [" << lo << ", " << hi << "], not " << v->dump();
      fail(child(key), range.str());
    }
    if constexpr (std::is_floating_point_v<T>) {
      out = static_cast<T>(d);
    } else {
      out = static_cast<T>(v->get<std::int64_t>());
    }
  }

  // Milliseconds in the file, microseconds in the config.
  void millis(std::string_view key, TimeUs& out_us, double lo_ms, double hi_ms) {
    std::int64_t ms = out_us / platform::kMicrosPerMilli;
    number(key, ms, lo_ms, hi_ms);
    out_us = platform::millis(ms);
  }

  void text(std::string_view key, std::string& out) {
    const json* v = find(key);
    if (v == nullptr) {
      return;
    }
    if (!v->is_string()) {
      fail(child(key), "must be a string");
    }
    out = v->get<std::string>();
  }

  // Every key of the object must have been read by now.
  void reject_unknown_keys() const {
    for (auto it = _object.begin(); it != _object.end(); ++it) {
      if (_known.count(it.key()) == 0) {
        fail(child(it.key()), "is not a known key");
      }
    }
  }

  const std::string& path() const { return _path; }
  const std::string& origin() const { return _origin; }

 private:
  const json& _object;
  std::string _path;
  const std::string& _origin;
  std::set<std::string> _known;
};

// A list of distinct names, each one `known(name)` accepts; `what` names the kind in errors.
template <class Known>
std::vector<std::string> read_names(const ObjectReader& top, const json& value, std::string_view key, Known known,
                                    const std::string& choices) {
  const std::string path = top.child(key);
  if (!value.is_array()) {
    top.fail(path, "must be an array of names (" + choices + ")");
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    if (!value[i].is_string()) {
      top.fail(item, "must be a string");
    }
    std::string name = value[i].get<std::string>();
    if (!known(name)) {
      top.fail(item, "\"" + name + "\" is not one of " + choices);
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      top.fail(item, "\"" + name + "\" is listed twice");
    }
    names.push_back(std::move(name));
  }
  return names;
}

template <class Infos>
std::string joined_names(const Infos& infos) {
  std::string out;
  for (const auto& info : infos) {
    out += (out.empty() ? "" : ", ") + std::string(info.name);
  }
  return out;
}

// "requireMarks": the coverage marks (impl/platform/marks.h) a campaign of the file must reach
// under --require-marks; nothing when the file has none (the base's stand), [] requires none.
inline std::optional<std::vector<platform::Mark>> read_required_marks(ObjectReader& top) {
  const json* value = top.find("requireMarks");
  if (value == nullptr) {
    return std::nullopt;
  }
  const auto known = [](const std::string& name) { return platform::parse_mark(name).has_value(); };
  std::vector<platform::Mark> marks;
  for (const std::string& name : read_names(top, *value, "requireMarks", known, joined_names(platform::kMarks))) {
    marks.push_back(*platform::parse_mark(name));
  }
  return marks;
}

// Reads a "plantedBugs" array for a file of `family` (base `base`). Refused, naming the item: an
// unknown name, a bug the family cannot plant, any bug when this build has no planted bugs
// (SPOTCHECK_PLANTED_BUGS=OFF).
planted::PlantedBugs read_planted_bugs(const ObjectReader& top, const json& value, ScenarioFamily family,
                                       const std::string& base);
// Puts each bug into the config its code reads (`creation` may be null for a Location file).
void plant(const planted::PlantedBugs& bugs, spotcheck::location::LocationConfig& protocol,
           spotcheck::location::creation::CreationConfig* creation);

// The bases a scenario file may name, for errors.
inline constexpr std::string_view kFileBases =
    "default, authority-race, lease-pause, store-outage, churn, relocation, create-storm, message-storm, instance-route";
std::optional<ScenarioFamily> family_of_base(const std::string& base);
// A file's text, at most kScenarioFileBytesMax + 1 bytes; ScenarioFileError when it cannot be read.
std::string read_file_text(const std::string& path);
json parse_document(std::string_view json_text, const std::string& origin);
// Reads "scenarioVersion" and "base" (default "default"); refuses a base no file can extend.
std::string read_version_and_base(ObjectReader& top);

// A file's phases: "faultsSeconds" (the safety phase), "livenessSeconds" (the liveness window after
// it) and "trafficSeconds" (when requests stop, within the two). Absent keys keep `current`'s.
struct Phases {
  TimeUs faults_stop_us = 0;
  TimeUs liveness_window_us = 0;
  TimeUs traffic_stop_us = 0;
};
Phases read_phases(ObjectReader& top, Phases current);

// "standard", "none" or an object of fault kinds; the plan for `stop_us`.
faults::FaultPlan read_faults(ObjectReader& parent, const json& v, TimeUs stop_us);

// "name" (required), "description", "faults" (read after the phases: the plan is for the config's
// faults_stop_us), "requireMarks", "maxSteps", "properties": what every family's file shares.
template <class Config>
void read_common(ObjectReader& top, Config& config) {
  config.name.clear();
  top.text("name", config.name);
  if (config.name.empty()) {
    top.fail("name", "is required and must not be empty");
  }
  top.text("description", config.description);
  if (const json* f = top.find("faults")) {
    const faults::FaultPlan plan = read_faults(top, *f, config.faults_stop_us);
    config.plan = [plan](TimeUs stop_us) {
      faults::FaultPlan p = plan;
      p.faults_stop_us = stop_us;
      return p;
    };
  }
  if (auto marks = read_required_marks(top)) {
    config.required_marks = std::move(*marks);
  }
  top.number("maxSteps", config.max_steps, 1, 1e12);
  if (const json* names = top.find("properties")) {
    const auto known = [](const std::string& name) { return properties::find_property(name) != nullptr; };
    config.properties =
        read_names(top, *names, "properties", known, joined_names(properties::all_properties()));
    if (config.properties.empty()) {
      top.fail("properties", "must name at least one property (leave it out for every property)");
    }
  }
}

}  // namespace spotcheck::scenarios::files::detail
