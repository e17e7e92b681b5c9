#include "scenarios/files/scenario_file.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scenarios/location/location_scenarios.h"

namespace spotcheck::scenarios::files {

namespace {

using nlohmann::json;
using platform::TimeUs;

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
    throw ScenarioFileError(_origin + ": " + (path.empty() ? "the document" : path) + " " + what);
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

constexpr double kHourMs = 3'600'000.0;

void read_workload(ObjectReader& r, location::LocationWorkload& w) {
  r.number("objects", w.object_count, 1, 10'000);
  r.number("actorsLimit", w.actors_limit, 0, 2'147'483'647);
  r.millis("thinkMinMs", w.think_min_us, 1, kHourMs);
  r.millis("thinkMaxMs", w.think_max_us, 1, kHourMs);
  r.number("deleteProbability", w.delete_probability, 0, 1, false);
  r.number("abortProbability", w.abort_probability, 0, 1, false);
  r.millis("requestDeadlineMs", w.request_deadline_us, 1, kHourMs);
  r.reject_unknown_keys();
  if (w.think_min_us > w.think_max_us) {
    r.fail(r.path(), "thinkMinMs must not exceed thinkMaxMs");
  }
}

void read_protocol(ObjectReader& r, spotcheck::location::LocationConfig& p) {
  r.millis("renewIntervalMs", p.renew_interval_us, 1, kHourMs);
  r.millis("ownerLeaseTtlMs", p.owner_lease_ttl_us, 1, kHourMs);
  r.millis("renewTimeoutMs", p.renew_timeout_us, 1, kHourMs);
  r.millis("fencingMarginMs", p.fencing_margin_us, 1, kHourMs);
  r.millis("storeRequestTimeoutMs", p.store_request_timeout_us, 1, kHourMs);
  r.reject_unknown_keys();
  if (const auto error = spotcheck::location::validate(p)) {
    r.fail(r.path(), "breaks the owner lease timing rules (spec §5): " + error->message);
  }
}

// {"gapMs": .., "<second>Ms": ..}
void read_window(ObjectReader& parent, std::string_view key, std::string_view second, TimeUs& gap_us,
                 TimeUs& second_us) {
  const json* v = parent.find(key);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, parent.child(key), parent.origin());
  gap_us = platform::seconds(10);
  second_us = platform::seconds(1);
  r.millis("gapMs", gap_us, 1, kHourMs);
  r.millis(second, second_us, 1, kHourMs);
  r.reject_unknown_keys();
}

faults::FaultPlan read_faults(ObjectReader& parent, const json& v, TimeUs stop_us) {
  if (v.is_string()) {
    const auto name = v.get<std::string>();
    if (name == "standard") {
      return faults::FaultPlan::standard(stop_us);
    }
    if (name == "none") {
      return faults::FaultPlan::none();
    }
    parent.fail(parent.child("faults"), "must be \"standard\", \"none\" or an object, not \"" + name + "\"");
  }
  ObjectReader r(v, parent.child("faults"), parent.origin());
  faults::FaultPlan plan;
  r.number("storeRequestLoss", plan.store_request_loss, 0, 1, false);
  r.number("storeReplyLoss", plan.store_reply_loss, 0, 1, false);
  r.number("storeReplyDelay", plan.store_reply_delay, 0, 1, false);
  read_window(r, "storeOutage", "lengthMs", plan.store_outage_gap_us, plan.store_outage_length_us);
  read_window(r, "nodeKill", "downMs", plan.node_kill_gap_us, plan.node_down_us);
  read_window(r, "nodePause", "maxMs", plan.node_pause_gap_us, plan.node_pause_max_us);
  r.number("networkLoss", plan.network_loss, 0, 1, false);
  read_window(r, "networkPartition", "lengthMs", plan.partition_gap_us, plan.partition_length_us);
  r.number("clockDriftMaxPpm", plan.clock_drift_max_ppm, 0, 1000);
  r.reject_unknown_keys();
  return plan;
}

}  // namespace

location::LocationScenarioConfig parse_scenario(std::string_view json_text, const std::string& origin) {
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw ScenarioFileError(origin + ": not valid JSON (" + e.what() + ")");
  }
  ObjectReader top(document, "", origin);
  int version = 0;
  top.number("scenarioVersion", version, 0, 1'000'000);
  if (version != kScenarioFileVersion) {
    top.fail("scenarioVersion", "must be " + std::to_string(kScenarioFileVersion) + (top.find("scenarioVersion") ? "" : " (it is missing)"));
  }
  std::string base = "default";
  top.text("base", base);
  location::LocationScenarioConfig config;
  const auto builtins = {"default", "authority-race", "lease-pause", "store-outage", "churn"};
  if (std::find(builtins.begin(), builtins.end(), base) == builtins.end()) {
    top.fail("base", "must name a built-in Location scenario (default, authority-race, lease-pause, store-outage, churn), not \"" + base + "\"");
  }
  config = location::location_scenario_config(base);
  config.name.clear();
  top.text("name", config.name);
  if (config.name.empty()) {
    top.fail("name", "is required and must not be empty");
  }
  top.text("description", config.description);
  top.number("nodes", config.node_count, 1, 64);
  double faults_s = static_cast<double>(config.faults_stop_us) / 1e6;
  double liveness_s = static_cast<double>(config.liveness_window_us) / 1e6;
  double traffic_s = static_cast<double>(config.workload.traffic_stop_us) / 1e6;
  top.number("faultsSeconds", faults_s, 0, 86'400, false);
  top.number("livenessSeconds", liveness_s, 0, 86'400, false);
  top.number("trafficSeconds", traffic_s, 0, 172'800, false);
  config.faults_stop_us = static_cast<TimeUs>(faults_s * 1e6);
  config.liveness_window_us = static_cast<TimeUs>(liveness_s * 1e6);
  config.workload.traffic_stop_us = static_cast<TimeUs>(traffic_s * 1e6);
  if (config.workload.traffic_stop_us > config.faults_stop_us + config.liveness_window_us) {
    top.fail("trafficSeconds", "must not exceed faultsSeconds + livenessSeconds (requests must end in the liveness window)");
  }
  if (const json* w = top.find("workload")) {
    ObjectReader r(*w, "workload", origin);
    read_workload(r, config.workload);
  }
  if (const json* p = top.find("protocol")) {
    ObjectReader r(*p, "protocol", origin);
    read_protocol(r, config.protocol);
  }
  if (const json* f = top.find("faults")) {
    const faults::FaultPlan plan = read_faults(top, *f, config.faults_stop_us);
    config.plan = [plan](TimeUs stop_us) {
      faults::FaultPlan p = plan;
      p.faults_stop_us = stop_us;
      return p;
    };
  }
  top.number("maxSteps", config.max_steps, 1, 1e12);
  top.reject_unknown_keys();
  return config;
}

location::LocationScenarioConfig load_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioFileError(path + ": cannot be read");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path);
}

}  // namespace spotcheck::scenarios::files
