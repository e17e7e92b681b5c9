#include "reports/story_html.h"

#include <string_view>

#include "reports/markup_escape.h"

namespace spotcheck::reports {

namespace {

using markup::escape;

constexpr std::string_view kLegend =
    "<p class=\"legend\">Time runs down, a lane per node and per store."
    "<span style=\"background:#6a3d9a\"></span>message<span style=\"background:#1f5fa8\"></span>store request"
    "<span style=\"background:#86a8d0\"></span>store reply<span style=\"border-top:2px dashed #d12\"></span>lost (×)"
    "<span style=\"background:#a9d3a9\"></span>owner lease (to ExpiresAt)<span style=\"background:#2e8b57\"></span>"
    "admission (to the local deadline)<span style=\"background:#ccc\"></span>pause<span "
    "style=\"background:#d12\"></span>the violating event. Hover an arrow or a bar for its details.</p>\n";

// The story's picture: its sequence diagram and the versions of the records it is about.
void write_picture(const FailureStory& story, std::ostream& out) {
  if (story.diagram.has_value()) {
    out << "<div class=\"diagram\">\n"
        << sequence_diagram_svg(*story.diagram, "diagram-seed-" + std::to_string(story.seed)) << "</div>\n"
        << kLegend;
  }
  if (story.versions.has_value()) {
    out << "<h4>Store records over time</h4>\n" << record_versions_table(*story.versions);
  }
}

void write_lines(const FailureStory& story, std::ostream& out) {
  out << "<pre>";
  for (const std::string& line : story.lines) {
    const std::string_view text = line;
    if (text.starts_with("  * #")) {
      out << "<span class=\"key\">" << escape(line) << "</span>\n";
    } else if (text.starts_with("  ! #")) {
      out << "<span class=\"fault\">" << escape(line) << "</span>\n";
    } else {
      out << escape(line) << "\n";
    }
  }
  out << "</pre>\n";
}

}  // namespace

void write_story_section(const FailureStory& story, std::ostream& out, const std::string& title) {
  out << "<section id=\"seed-" << story.seed << "\">\n<h3>"
      << escape(title.empty() ? "seed " + std::to_string(story.seed) : title) << "</h3>\n";
  write_picture(story, out);
  write_lines(story, out);
  out << "</section>\n";
}

}  // namespace spotcheck::reports
