#include "reports/summary_text.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "reports/shell_quote.h"
#include "sim/time/time_text.h"

namespace spotcheck::reports {

namespace {

std::string format(const char* fmt, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}


// Every distinct failure (a property, or a run failure's assertion and place) with its count and
// the first seed that showed it, so a rare run failure is never hidden behind many violations.
void write_failure_kinds(const CampaignResult& r, std::ostream& out) {
  if (r.failure_kinds.empty()) {
    return;
  }
  out << "distinct failures " << r.failure_kinds.size() << "\n";
  for (const FailureKind& kind : r.failure_kinds) {
    out << "  " << (kind.run_failure ? "run failure" : "violation") << " in " << kind.seeds << " seed(s), first seed "
        << kind.first_seed << ": " << (kind.run_failure ? kind.first_message : kind.signature + ": " + kind.first_message)
        << "\n    replay: " << replay_command(r.scenario, kind.first_seed, r.swarm, r.out_of_contract) << "\n";
  }
  if (r.other_failure_seeds != 0) {
    out << "  ... and " << r.other_failure_seeds << " seed(s) with failures past the first " << kFailureKindsKeptMax
        << " distinct ones\n";
  }
}

// One line: how many marks fired, and those that never did; with --require-marks, the required
// ones that never fired (which fail the campaign).
void write_marks(const CampaignResult& r, std::ostream& out) {
  std::size_t fired = 0;
  std::string never;
  for (std::size_t i = 0; i < platform::kMarkCount; ++i) {
    if (r.mark_seeds[i] != 0) {
      ++fired;
    } else {
      never += (never.empty() ? "" : ", ") + std::string(platform::kMarks[i].name);
    }
  }
  out << "marks           " << fired << " of " << platform::kMarkCount << " fired"
      << (never.empty() ? std::string() : "; never: " + never) << "\n";
  if (!r.required_marks.has_value()) {
    return;
  }
  const std::vector<platform::Mark> missing = r.missing_marks();
  if (missing.empty()) {
    out << "required marks  all " << r.required_marks->size() << " fired\n";
    return;
  }
  out << "required marks  MISSING";
  for (platform::Mark mark : missing) {
    out << " " << platform::to_string(mark);
  }
  out << " (never fired in " << r.seeds_run << " seeds)\n";
}

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) {
    text += (text.empty() ? "" : ",") + part;
  }
  return text;
}

// With out-of-contract faults on: which assumptions the seeds that failed only because of them
// depended on, and the first of those seeds with their replay commands (apart from the failures).
void write_out_of_contract(const CampaignResult& r, std::ostream& out) {
  if (r.out_of_contract.empty()) {
    return;
  }
  out << "out of contract " << r.out_of_contract << " on; "
      << (r.out_of_contract_seeds == 0 ? std::string("no seed failed only because of them")
                                       : std::to_string(r.out_of_contract_seeds) +
                                             " seed(s) failed only because of them (not failures of this campaign)")
      << "\n";
  for (const auto& [kind, seeds] : r.out_of_contract_per_kind) {
    const auto assumption = r.out_of_contract_assumptions.find(kind);
    out << "  " << kind << " needed by " << seeds << " seed(s); the assumption: "
        << (assumption == r.out_of_contract_assumptions.end() ? std::string("?") : assumption->second) << "\n";
  }
  constexpr std::size_t kShownMax = 10;
  for (std::size_t i = 0; i < r.out_of_contract_failures.size() && i < kShownMax; ++i) {
    const scenarios::SeedOutcome& f = r.out_of_contract_failures[i];
    out << "  seed " << f.seed << " (needs " << joined(f.out_of_contract_needed) << "): "
        << (f.violation.has_value() ? f.violation->property + ": " + f.violation->message
                                    : "run failure: " + f.failure.value_or("?"))
        << "\n    replay: " << replay_command(r.scenario, f.seed, r.swarm, r.out_of_contract) << "\n";
  }
}

}  // namespace

void write_summary_text(const CampaignResult& r, std::ostream& out) {
  const double wall = r.wall_seconds > 0 ? r.wall_seconds : 1e-9;
  out << "scenario        " << r.scenario << (r.swarm ? " (swarm)" : "") << "\n";
  out << "seeds           " << r.seeds_run << " of " << r.seeds_requested << " (from seed "
      << r.first_seed << ")" << (r.checked_determinism ? ", each run twice" : "") << "\n";
  out << "events          " << r.events_total << "\n";
  out << "simulated time  " << sim::duration_text(r.simulated_us_total) << "\n";
  out << "wall time       " << format("%.2f s with %u jobs", r.wall_seconds, r.jobs) << "\n";
  out << "speed           "
      << format("%.0f events/s, %.0f seeds/min", static_cast<double>(r.events_total) / wall,
                static_cast<double>(r.seeds_run) * 60.0 / wall)
      << "\n";
  const auto& by_property = r.violations_by_property();
  if (by_property.empty()) {
    out << "violations      none\n";
  } else {
    out << "violations      ";
    bool first = true;
    for (const auto& [property, count] : by_property) {
      out << (first ? "" : ", ") << property << ": " << count;
      first = false;
    }
    out << "\n";
  }
  out << "run failures    " << (r.run_failure_seeds == 0 ? std::string("none") : std::to_string(r.run_failure_seeds))
      << "\n";
  write_marks(r, out);
  if (r.interrupted_by != 0) {
    out << "interrupted     by signal " << r.interrupted_by << " after " << r.seeds_run
        << " seed(s); the figures are of those seeds\n";
  }
  write_failure_kinds(r, out);
  write_out_of_contract(r, out);
  if (r.checked_determinism) {
    out << "determinism     "
        << (r.mismatches.empty() ? std::string("every seed gave the same trace twice")
                                 : std::to_string(r.mismatching_seeds) + " seed(s) diverged")
        << "\n";
  } else if (r.determinism_rechecked != 0) {
    out << "determinism     " << r.determinism_rechecked << " seed(s) run again (every failing seed and "
        << format("%g", r.determinism_sample * 100) << "% of the others): "
        << (r.mismatches.empty() ? std::string("each gave the same trace")
                                 : std::to_string(r.mismatching_seeds) + " diverged")
        << "\n";
  }
  for (const auto& m : r.mismatches) {
    out << "\nNONDETERMINISM seed " << m.seed << ": runs first differ at event "
        << m.divergence.event_index << "\n  first run:  " << m.divergence.first
        << "\n  second run: " << m.divergence.second << "\n  replay: "
        << replay_command(r.scenario, m.seed, r.swarm, r.out_of_contract) << " --check-determinism\n";
  }
  constexpr std::size_t kFailuresShownMax = 20;
  std::size_t shown = 0;
  for (const auto& f : r.failures) {
    if (shown == kFailuresShownMax) {
      break;
    }
    ++shown;
    out << "\nFAILED seed " << f.seed << ": ";
    if (f.violation.has_value()) {
      out << f.violation->property << " at " << sim::duration_text(f.violation->time_us) << " (event "
          << f.violation->event_index << "): " << f.violation->message;
    } else {
      out << "run failure: " << f.failure.value_or("?");
    }
    out << "\n  replay: " << replay_command(r.scenario, f.seed, r.swarm, r.out_of_contract) << "\n";
    if (const auto trace = r.trace_files.find(f.seed); trace != r.trace_files.end()) {
      out << "  trace:  " << shell_quote(trace->second) << " (spotcheck replay " << shell_quote(trace->second) << ")\n";
    }
    if (r.out_of_contract.empty()) {
      // Every scenario, violations and run failures (docs/replay.md). Shrink does not take
      // out-of-contract faults.
      out << "  shrink: " << shrink_command(r.scenario, f.seed, r.swarm) << "\n";
    }
  }
  if (r.failing_seeds() > shown) {
    out << "\n... and " << (r.failing_seeds() - shown) << " more failing seed(s); each distinct failure is listed above\n";
  }
  out << "\n" << (!r.passed() ? "FAILED" : r.interrupted_by != 0 ? "INTERRUPTED (no failure in the seeds that finished)" : "PASSED") << "\n";
}

}  // namespace spotcheck::reports
