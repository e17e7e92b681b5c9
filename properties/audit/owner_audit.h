// End-of-run audit of the authority rows a real store holds (spec §3.4, §6.1): every row decodes,
// is Reserved or Active, names exactly one owner host run, and no two rows share an
// ObjectGeneration; and the store agrees with the trace: each object's row is the one the last
// applied authority change reported (same owner host run, generations and state), an object the
// trace deleted has no row, and no row exists the trace never created. A disagreement on an object
// whose write may have applied unseen (ActivityLog::uncertain: a lost reply) is reported apart,
// not as a violation.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "impl/store/spi/location_store.h"
#include "properties/audit/activity_log.h"

namespace spotcheck::properties {

struct OwnerAuditResult {
  bool complete = false;  // false: the store could not be read (see error); nothing judged
  std::string error;
  std::size_t rows = 0;
  std::size_t active_rows = 0;
  std::size_t reserved_rows = 0;
  std::vector<std::string> problems;    // violations, one line each
  std::vector<std::string> unresolved;  // differences explained by a lost reply on that object

  bool ok() const { return complete && problems.empty(); }
  // The first problem (or the read error); nullopt when ok().
  std::optional<std::string> violation() const;
};

// `judge_untouched_rows`: also flag rows of objects the trace never mentions (off when the run
// adopted a namespace holding earlier data).
OwnerAuditResult audit_owner_rows(store::LocationStore& store, const ActivityLog& log, store::DeadlineUs deadline_us,
                                  bool judge_untouched_rows = true);

}  // namespace spotcheck::properties
