// End-of-run audit of the operational queries (spec §7.4; issue 13): the answers of
// location::query::LocationQuery held against the store's own rows, read here independently:
//   * every authority row's lookup by ID gives its entry — ID, Actor/Spot, object kind, stable
//     type, ObjectGeneration, MeshName, Node RID, and the state the stored row and its owner's
//     lease row imply (Reserved -> Creating; Active with the owner's lease row of that
//     LeaseGeneration unexpired at StoreNow, and no DataLost recorded -> Ready; else Unavailable);
//   * an ID with no row is empty;
//   * the paged list of each object kind, walked in small pages through its continuations,
//     returns exactly that kind's entries, each once, every page within its bounds and every
//     continuation within 4,096 bytes.
// Use it on the world context after a run (the store still), on the store server's engine or any
// provider; it issues reads and scans only.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "impl/store/spi/location_store.h"

namespace spotcheck::properties {

struct QueryAuditResult {
  bool complete = false;  // false: the store could not be read (see error); nothing judged
  std::string error;
  std::size_t rows = 0;   // authority rows read
  std::size_t pages = 0;  // list pages walked
  std::optional<std::string> problem;  // the first disagreement

  bool ok() const { return complete && !problem.has_value(); }
  std::optional<std::string> violation() const;
};

QueryAuditResult audit_location_queries(store::LocationStore& store, store::DeadlineUs deadline_us);

}  // namespace spotcheck::properties
