// Trace files (issue 12): one run of one seed, whole — what was run, on which build, what it
// decided, and every event — so a failure outlives the build that found it.
//
// JSON Lines. Line 1 is the header object:
//   {"spotcheckTrace": 1,
//    "build": {"commit": "<git commit at configure time>", "binarySha256": "<of the spotcheck binary>"},
//    "scenario": {"name": "<as the user named it>", "fileText": "<the scenario file's text>" | null},
//    "seed": N, "swarm": bool, "outOfContract": "<kinds>" (empty: none), "faultPlan": "<FaultPlan::describe>",
//    "traceHash": "<16 hex>", "events": N,
//    "verdict": {"kind": "passed" | "violation" | "run_failure", "property", "message", "eventIndex"},
//    "decisionLog": "<sim/choice/decision_log_text.h text>",
//    "replayFrom": "seed" | "decisionLog"}   (absent: "seed")
// "decisionLog": the run is its decision log, not its seed — a shrunk run (spotcheck shrink edits the
// log, replay/shrink/log_shrink.h), which replays from the log on every build.
// then one JSON string per event: the event's rendered line (docs/events.md), in order.
// Written to a temporary name and renamed (reports/output_file.h); read bounded and strictly, one-line errors.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

inline constexpr int kTraceFileVersion = 1;
inline constexpr std::size_t kTraceFileBytesMax = 512u << 20;

struct BuildId {
  std::string commit;
  std::string binary_sha256;
  bool operator==(const BuildId&) const = default;
};

struct TraceFile {
  BuildId build;
  std::string scenario_name;
  std::optional<std::string> scenario_file_text;
  std::uint64_t seed = 0;
  bool swarm = false;
  std::string out_of_contract;
  std::string fault_plan;
  std::uint64_t trace_hash = 0;
  std::uint64_t events = 0;
  std::string verdict_kind;  // passed | violation | run_failure
  std::string property;      // violation
  std::string message;       // violation / run_failure
  std::uint64_t event_index = 0;
  std::string decision_log;  // decision_log_text()
  bool replay_from_decision_log = false;
  std::vector<std::string> event_lines;
};

// The trace file of a run kept with SeedRequest{keep_trace, record_decisions}.
TraceFile trace_file_of(const scenarios::SeedOutcome& outcome, BuildId build, std::string scenario_name,
                        std::optional<std::string> scenario_file_text, bool swarm, std::string out_of_contract);

// Writes atomically; throws reports::OutputError.
void write_trace_file(const std::string& path, const TraceFile& file);
// Throws TraceFileError (one line).
TraceFile read_trace_file(const std::string& path);

struct TraceFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace spotcheck::replay
