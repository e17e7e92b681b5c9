#include "reports/html_report.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "reports/html_page.h"
#include "reports/markup_escape.h"
#include "sim/time/time_text.h"

namespace spotcheck::reports {

namespace {

using markup::escape;

std::string number_text(double value, const char* format) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

void row(std::ostream& out, std::string_view name, const std::string& value) {
  out << "<tr><th>" << escape(name) << "</th><td>" << escape(value) << "</td></tr>\n";
}

void write_figures(const CampaignResult& r, std::ostream& out) {
  const double wall = r.wall_seconds > 0 ? r.wall_seconds : 1e-9;
  out << "<table>\n";
  row(out, "scenario", r.scenario + (r.swarm ? " (swarm)" : ""));
  row(out, "seeds", std::to_string(r.seeds_run) + " of " + std::to_string(r.seeds_requested) + " (from seed " +
                        std::to_string(r.first_seed) + ")" + (r.checked_determinism ? ", each run twice" : ""));
  row(out, "events", std::to_string(r.events_total));
  row(out, "simulated time", sim::duration_text(r.simulated_us_total));
  row(out, "wall time", number_text(r.wall_seconds, "%.2f s") + " with " + std::to_string(r.jobs) + " jobs");
  row(out, "speed", number_text(static_cast<double>(r.events_total) / wall, "%.0f events/s") + ", " +
                        number_text(static_cast<double>(r.seeds_run) * 60.0 / wall, "%.0f seeds/min"));
  out << "</table>\n";
}

void write_violations(const CampaignResult& r, std::ostream& out) {
  const auto& by_property = r.violations_by_property();
  out << "<h2>Violations by property</h2>\n";
  if (by_property.empty()) {
    out << "<p>none</p>\n";
  } else {
    out << "<table>\n<tr><th>property</th><th>failing seeds</th></tr>\n";
    for (const auto& [property, count] : by_property) {
      out << "<tr><td>" << escape(property) << "</td><td>" << count << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  out << "<h2>Run failures</h2>\n<p>" << (r.run_failure_seeds == 0 ? std::string("none") : std::to_string(r.run_failure_seeds) + " seed(s)") << "</p>\n";
}

// Every distinct failure, with its count and first seed: a rare run failure is never hidden.
void write_failure_kinds_table(const CampaignResult& r, std::ostream& out) {
  if (r.failure_kinds.empty()) {
    return;
  }
  out << "<h2>Distinct failures</h2>\n<table>\n<tr><th>kind</th><th>seeds</th><th>first seed</th><th>what</th>"
         "<th>replay</th></tr>\n";
  for (const FailureKind& kind : r.failure_kinds) {
    out << "<tr><td>" << (kind.run_failure ? "run failure" : escape(kind.signature)) << "</td><td>" << kind.seeds
        << "</td><td>" << kind.first_seed << "</td><td>" << escape(kind.first_message) << "</td><td><code>"
        << escape(replay_command(r.scenario, kind.first_seed, r.swarm, r.out_of_contract)) << "</code></td></tr>\n";
  }
  out << "</table>\n";
  if (r.other_failure_seeds != 0) {
    out << "<p>… and " << r.other_failure_seeds << " seed(s) with failures past the first " << kFailureKindsKeptMax
        << " distinct ones</p>\n";
  }
}

void write_mismatches(const CampaignResult& r, std::ostream& out) {
  if (!r.checked_determinism && r.mismatches.empty()) {
    return;
  }
  out << "<h2>Determinism</h2>\n";
  if (r.mismatches.empty()) {
    out << "<p>every seed gave the same trace twice</p>\n";
    return;
  }
  out << "<table>\n<tr><th>seed</th><th>first diverging event</th><th>first run</th><th>second run</th>"
         "<th>replay</th></tr>\n";
  for (const auto& m : r.mismatches) {
    out << "<tr><td>" << m.seed << "</td><td>" << m.divergence.event_index << "</td><td><code>"
        << escape(m.divergence.first) << "</code></td><td><code>" << escape(m.divergence.second)
        << "</code></td><td><code>" << escape(replay_command(r.scenario, m.seed, r.swarm, r.out_of_contract))
        << " --check-determinism</code></td></tr>\n";
  }
  out << "</table>\n";
}

bool has_story(const std::vector<FailureStory>& stories, std::uint64_t seed) {
  for (const FailureStory& story : stories) {
    if (story.seed == seed) {
      return true;
    }
  }
  return false;
}

void write_failures(const CampaignResult& r, const std::vector<FailureStory>& stories, std::ostream& out) {
  if (r.failures.empty()) {
    return;
  }
  out << "<h2>Failing seeds</h2>\n<table>\n<tr><th>seed</th><th>property</th><th>at</th><th>event</th>"
         "<th>what</th><th>commands</th></tr>\n";
  std::size_t shown = 0;
  for (const auto& f : r.failures) {
    if (shown == kHtmlFailuresShownMax) {
      break;
    }
    ++shown;
    out << "<tr><td>";
    if (has_story(stories, f.seed)) {
      out << "<a href=\"#seed-" << f.seed << "\">" << f.seed << "</a>";
    } else {
      out << f.seed;
    }
    out << "</td>";
    if (f.violation.has_value()) {
      out << "<td>" << escape(f.violation->property) << "</td><td>" << escape(sim::duration_text(f.violation->time_us))
          << "</td><td>" << f.violation->event_index << "</td><td>" << escape(f.violation->message) << "</td>";
    } else {
      out << "<td>run failure</td><td></td><td></td><td>" << escape(f.failure.value_or("?")) << "</td>";
    }
    out << "<td><code>" << escape(replay_command(r.scenario, f.seed, r.swarm, r.out_of_contract)) << "</code>";
    if (r.out_of_contract.empty()) {
      out << "<br><code>" << escape(shrink_command(r.scenario, f.seed, r.swarm)) << "</code>";
    }
    out << "</td></tr>\n";
  }
  out << "</table>\n";
  if (shown < r.failing_seeds()) {
    out << "<p>… and " << (r.failing_seeds() - shown) << " more failing seed(s)</p>\n";
  }
}

void write_stories(const std::vector<FailureStory>& stories, std::ostream& out) {
  if (stories.empty()) {
    return;
  }
  out << "<h2>Stories</h2>\n";
  for (const FailureStory& story : stories) {
    write_story_section(story, out);
  }
}

}  // namespace

void write_html_report(const CampaignResult& r, const std::vector<FailureStory>& stories, std::ostream& out) {
  const char* verdict = !r.passed() ? "FAILED" : r.interrupted_by != 0 ? "INTERRUPTED" : "PASSED";
  write_page_start("spotcheck " + r.scenario + ": " + verdict, out);
  out << "<h1 class=\"" << (r.passed() ? "passed" : "failed") << "\">spotcheck " << escape(r.scenario) << ": "
      << verdict << "</h1>\n";
  write_figures(r, out);
  if (r.interrupted_by != 0) {
    out << "<p><strong>Interrupted by signal " << r.interrupted_by << " after " << r.seeds_run
        << " seed(s)</strong>; the figures are of those seeds.</p>\n";
  }
  write_violations(r, out);
  write_failure_kinds_table(r, out);
  write_mismatches(r, out);
  write_failures(r, stories, out);
  write_stories(stories, out);
  write_page_end(out);
}

}  // namespace spotcheck::reports
