#include "reports/html_page.h"

#include "reports/markup_escape.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::reports {

namespace {

constexpr std::string_view kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:90em}"
    "h1.passed{color:#176117}h1.failed{color:#a11}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;"
    "text-align:left;vertical-align:top}th{background:#f3f3f3}"
    "code,pre{font-family:ui-monospace,monospace;font-size:.9em}"
    "pre{background:#f8f8f8;padding:1em;overflow-x:auto}"
    ".key{background:#fde2e2;font-weight:bold}.fault{color:#8a4b00}"
    ".diagram{overflow-x:auto}.legend{font-size:.85em;color:#444}.legend span{display:inline-block;"
    "width:1.6em;height:.7em;margin:0 .3em 0 1em;vertical-align:middle}"
    ".record-versions td.mutation.delete,.record-versions td.mutation.lost{color:#a11}";

}  // namespace

void write_page_start(std::string_view title, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << markup::escape(title)
      << "</title>\n<style>" << kStyle << kSequenceDiagramStyle << "</style>\n</head>\n<body>\n";
}

void write_page_end(std::ostream& out) { out << "</body>\n</html>\n"; }

}  // namespace spotcheck::reports
