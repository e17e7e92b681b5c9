#include "reports/shrunk_report.h"

#include "reports/html_page.h"
#include "reports/markup_escape.h"

namespace spotcheck::reports {

void write_shrunk_report(const ShrunkFailurePage& page, std::ostream& out) {
  using markup::escape;
  const std::string heading =
      "spotcheck shrink " + page.scenario + " seed " + std::to_string(page.seed) + ": " + page.property;
  write_page_start(heading, out);
  out << "<h1 class=\"failed\">" << escape(heading) << "</h1>\n";
  out << "<pre>" << escape(page.summary) << "</pre>\n";
  out << "<p>replay: <code>" << escape(page.replay_command) << "</code></p>\n";
  write_story_section(page.story, out, "the shrunk run of seed " + std::to_string(page.seed));
  write_page_end(out);
}

}  // namespace spotcheck::reports
