// Where the instants of a sequence diagram go down the page: one row per distinct instant of what
// is drawn, in time order, a little more room (and a "later" note) before a long quiet gap.
#pragma once

#include <cstdint>
#include <vector>

namespace spotcheck::reports {

struct DiagramRow {
  std::int64_t time_us = 0;
  int y = 0;
  std::int64_t quiet_before_us = 0;  // the gap before this row when it was long, else 0
};

class DiagramRows {
 public:
  static constexpr int kRowStep = 14;
  static constexpr int kQuietGapStep = 18;
  static constexpr std::int64_t kQuietGapUs = 200'000;

  // Rows for `times` (any order, repeats allowed) from y `top` down.
  DiagramRows(std::vector<std::int64_t> times, int top);

  // The y of the row at `time_us`, or of the first row after it (the last row past the end).
  int y(std::int64_t time_us) const;
  int bottom() const;
  const std::vector<DiagramRow>& rows() const { return _rows; }

 private:
  std::vector<DiagramRow> _rows;
  int _top = 0;
};

}  // namespace spotcheck::reports
