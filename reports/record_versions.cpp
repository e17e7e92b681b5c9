#include "reports/record_versions.h"

#include "reports/markup_escape.h"
#include "sim/time/time_text.h"

namespace spotcheck::reports {

namespace {

using markup::escape;

std::string version_text(std::int64_t version, const char* none) {
  return version == 0 ? std::string(none) : "v" + std::to_string(version);
}

std::string change_row(const RecordChange& c) {
  return "<td>#" + std::to_string(c.index) + "</td><td>" + escape(sim::seconds_exact(c.time_us)) + "</td><td>" +
         escape(c.node) + "</td><td class=\"mutation " + escape(c.mutation) + "\">" + escape(c.mutation) + "</td><td>" +
         version_text(c.old_version, "absent") + " &#8594; " + version_text(c.new_version, "absent") + "</td>";
}

std::string record_rows(const RecordHistory& r) {
  const std::size_t rows = r.changes.size() + (r.earlier_left_out > 0 ? 1 : 0);
  std::string out =
      "<tr><th rowspan=\"" + std::to_string(rows == 0 ? 1 : rows) + "\"><code>" + escape(r.key) + "</code></th>";
  bool first = true;
  auto open = [&] {
    out += first ? "" : "<tr>";
    first = false;
  };
  if (r.earlier_left_out > 0) {
    open();
    out += "<td colspan=\"5\">… " + std::to_string(r.earlier_left_out) + " earlier write(s)</td></tr>\n";
  }
  for (const RecordChange& c : r.changes) {
    open();
    out += change_row(c) + "</tr>\n";
  }
  if (first) {
    out += "<td colspan=\"5\"></td></tr>\n";
  }
  return out;
}

}  // namespace

std::string record_versions_table(const RecordVersions& v) {
  if (v.records.empty()) {
    return "<p class=\"record-versions\">no store record names the violation's objects or host runs</p>\n";
  }
  std::string out =
      "<table class=\"record-versions\">\n<tr><th>record</th><th>event</th><th>time</th><th>node</th>"
      "<th>write</th><th>version</th></tr>\n";
  for (const RecordHistory& r : v.records) {
    out += record_rows(r);
  }
  out += "</table>\n";
  if (v.records_left_out > 0) {
    out += "<p>… and " + std::to_string(v.records_left_out) + " more record(s)</p>\n";
  }
  return out;
}

}  // namespace spotcheck::reports
