#include "reports/junit_xml.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "reports/markup_escape.h"

namespace spotcheck::reports {

using markup::escape;

void write_junit_xml(const CampaignResult& r, std::ostream& out) {
  std::size_t failures = 0;
  for (const auto& o : r.outcomes) {
    failures += o.ok() ? 0 : 1;
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f", r.wall_seconds);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites>\n";
  out << "  <testsuite name=\"spotcheck." << escape(r.scenario) << "\" tests=\"" << r.outcomes.size()
      << "\" failures=\"" << failures + r.mismatches.size() << "\" errors=\"0\" time=\"" << wall
      << "\">\n";
  for (const auto& o : r.outcomes) {
    out << "    <testcase classname=\"spotcheck." << escape(r.scenario) << "\" name=\"seed "
        << o.seed << "\"";
    if (o.ok()) {
      out << "/>\n";
      continue;
    }
    const std::string type = o.violation ? o.violation->property : "run-failure";
    const std::string message = o.violation ? o.violation->message : o.failure.value_or("");
    out << ">\n      <failure type=\"" << escape(type) << "\" message=\"" << escape(message)
        << "\">" << escape(replay_command(r.scenario, o.seed, r.swarm)) << "</failure>\n";
    out << "    </testcase>\n";
  }
  for (const auto& m : r.mismatches) {
    out << "    <testcase classname=\"spotcheck." << escape(r.scenario) << "\" name=\"determinism seed "
        << m.seed << "\">\n      <failure type=\"nondeterminism\" message=\"first differs at event "
        << m.divergence.event_index << "\">" << escape(m.divergence.first) << " / "
        << escape(m.divergence.second) << "</failure>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace spotcheck::reports
