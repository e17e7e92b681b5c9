#include "reports/diagram_rows.h"

#include <algorithm>

namespace spotcheck::reports {

DiagramRows::DiagramRows(std::vector<std::int64_t> times, int top) : _top(top) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  int y = top;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::int64_t gap = i == 0 ? 0 : times[i] - times[i - 1];
    const bool quiet = gap > kQuietGapUs;
    if (i > 0) {
      y += kRowStep + (quiet ? kQuietGapStep : 0);
    }
    _rows.push_back(DiagramRow{times[i], y, quiet ? gap : 0});
  }
}

int DiagramRows::y(std::int64_t time_us) const {
  if (_rows.empty()) {
    return _top;
  }
  const auto at = std::lower_bound(_rows.begin(), _rows.end(), time_us,
                                   [](const DiagramRow& row, std::int64_t t) { return row.time_us < t; });
  return at == _rows.end() ? _rows.back().y : at->y;
}

int DiagramRows::bottom() const { return _rows.empty() ? _top : _rows.back().y; }

}  // namespace spotcheck::reports
