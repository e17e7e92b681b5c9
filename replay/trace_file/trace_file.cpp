#include "replay/trace_file/trace_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <algorithm>
#include <fstream>

#include "impl/json_guard/json_guard.h"
#include "reports/output_file.h"
#include "sim/choice/decision_log_text.h"

namespace spotcheck::replay {

namespace {

using nlohmann::json;

std::string hex16(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

template <class T>
T field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) {
    throw TraceFileError(std::string("lacks field '") + name + "'");
  }
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw TraceFileError(std::string("field '") + name + "' has the wrong type");
  }
}

TraceFile header_of(const json& j) {
  if (field<int>(j, "spotcheckTrace") != kTraceFileVersion) {
    throw TraceFileError("spotcheckTrace version is not " + std::to_string(kTraceFileVersion));
  }
  TraceFile f;
  const json build = field<json>(j, "build");
  f.build = BuildId{field<std::string>(build, "commit"), field<std::string>(build, "binarySha256")};
  const json scenario = field<json>(j, "scenario");
  f.scenario_name = field<std::string>(scenario, "name");
  if (scenario.contains("fileText") && !scenario.at("fileText").is_null()) {
    f.scenario_file_text = field<std::string>(scenario, "fileText");
  }
  f.seed = field<std::uint64_t>(j, "seed");
  f.swarm = field<bool>(j, "swarm");
  f.out_of_contract = field<std::string>(j, "outOfContract");
  f.fault_plan = field<std::string>(j, "faultPlan");
  const std::string hash = field<std::string>(j, "traceHash");
  if (hash.size() != 16 || hash.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw TraceFileError("traceHash is not 16 lowercase hex digits");
  }
  f.trace_hash = std::stoull(hash, nullptr, 16);
  f.events = field<std::uint64_t>(j, "events");
  const json verdict = field<json>(j, "verdict");
  f.verdict_kind = field<std::string>(verdict, "kind");
  if (f.verdict_kind != "passed" && f.verdict_kind != "violation" && f.verdict_kind != "run_failure") {
    throw TraceFileError("verdict kind '" + json_guard::one_line(f.verdict_kind, 40) + "' is unknown");
  }
  f.property = verdict.value("property", "");
  f.message = verdict.value("message", "");
  f.event_index = verdict.value("eventIndex", std::uint64_t{0});
  f.decision_log = field<std::string>(j, "decisionLog");
  const std::string from = j.contains("replayFrom") ? field<std::string>(j, "replayFrom") : "seed";
  if (from != "seed" && from != "decisionLog") {
    throw TraceFileError("replayFrom is neither \"seed\" nor \"decisionLog\"");
  }
  f.replay_from_decision_log = from == "decisionLog";
  return f;
}

}  // namespace

TraceFile trace_file_of(const scenarios::SeedOutcome& outcome, BuildId build, std::string scenario_name,
                        std::optional<std::string> scenario_file_text, bool swarm, std::string out_of_contract) {
  TraceFile f;
  f.build = std::move(build);
  f.scenario_name = std::move(scenario_name);
  f.scenario_file_text = std::move(scenario_file_text);
  f.seed = outcome.seed;
  f.swarm = swarm;
  f.out_of_contract = std::move(out_of_contract);
  f.fault_plan = outcome.fault_plan;
  f.trace_hash = outcome.trace_hash;
  f.events = outcome.events;
  if (outcome.violation.has_value()) {
    f.verdict_kind = "violation";
    f.property = outcome.violation->property;
    f.message = outcome.violation->message;
    f.event_index = outcome.violation->event_index;
  } else if (outcome.failure.has_value()) {
    f.verdict_kind = "run_failure";
    f.message = *outcome.failure;
  } else {
    f.verdict_kind = "passed";
  }
  if (outcome.decision_log != nullptr) {
    f.decision_log = sim::decision_log_text(*outcome.decision_log);
  }
  f.event_lines = outcome.event_lines;
  return f;
}

void write_trace_file(const std::string& path, const TraceFile& f) {
  json verdict{{"kind", f.verdict_kind}};
  if (f.verdict_kind == "violation") {
    verdict["property"] = f.property;
    verdict["eventIndex"] = f.event_index;
  }
  if (f.verdict_kind != "passed") {
    verdict["message"] = f.message;
  }
  const json header{{"spotcheckTrace", kTraceFileVersion},
                    {"build", {{"commit", f.build.commit}, {"binarySha256", f.build.binary_sha256}}},
                    {"scenario", {{"name", f.scenario_name},
                                  {"fileText", f.scenario_file_text ? json(*f.scenario_file_text) : json(nullptr)}}},
                    {"seed", f.seed},
                    {"swarm", f.swarm},
                    {"outOfContract", f.out_of_contract},
                    {"faultPlan", f.fault_plan},
                    {"traceHash", hex16(f.trace_hash)},
                    {"events", f.events},
                    {"verdict", verdict},
                    {"decisionLog", f.decision_log},
                    {"replayFrom", f.replay_from_decision_log ? "decisionLog" : "seed"}};
  reports::OutputFile out(path, "trace file");
  out.stream() << header.dump() << "\n";
  for (const std::string& line : f.event_lines) {
    out.stream() << json(line).dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  }
  out.commit();
}

TraceFile read_trace_file(const std::string& path) {
  const std::string shown = json_guard::one_line(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw TraceFileError("cannot read trace file '" + shown + "'");
  }
  const json_guard::BoundedText bounded = json_guard::read_bounded(in, kTraceFileBytesMax);
  if (bounded.too_large) {
    throw TraceFileError("trace file '" + shown + "' is larger than " + std::to_string(kTraceFileBytesMax) + " bytes");
  }
  const std::string_view text = bounded.text;
  const auto fail = [&](std::size_t line, const std::string& why) {
    return TraceFileError("trace file '" + shown + "' line " + std::to_string(line) + ": " + why);
  };
  std::size_t at = 0;
  std::size_t n = 0;
  const auto next_line = [&](std::string_view& line) {
    if (at >= text.size()) {
      return false;
    }
    const std::size_t end = std::min(text.find('\n', at), text.size());
    line = text.substr(at, end - at);
    at = end + 1;
    ++n;
    return true;
  };
  std::string_view line;
  if (!next_line(line)) {
    throw fail(1, "empty");
  }
  TraceFile f;
  try {
    if (auto guarded = json_guard::check(line)) {
      throw TraceFileError(guarded->message);
    }
    f = header_of(json::parse(line));
  } catch (const json::exception& e) {
    throw fail(1, "not a trace file header: " + json_guard::one_line(e.what()));
  } catch (const TraceFileError& e) {
    throw fail(1, e.what());
  }
  while (next_line(line)) {
    if (f.event_lines.size() >= f.events) {
      throw fail(n, "more events than the header says");
    }
    try {
      const json event = json::parse(line);
      if (!event.is_string()) {
        throw fail(n, "an event is not a JSON string");
      }
      f.event_lines.push_back(event.get<std::string>());
    } catch (const json::exception& e) {
      throw fail(n, json_guard::one_line(e.what()));
    }
  }
  if (f.event_lines.size() != f.events) {
    throw fail(n + 1, "the file ends after " + std::to_string(f.event_lines.size()) + " of " + std::to_string(f.events) +
                          " events (truncated?)");
  }
  return f;
}

}  // namespace spotcheck::replay
