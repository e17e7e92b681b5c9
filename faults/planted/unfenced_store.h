// The store half of the planted bug "unfenced-writes" (impl/planted/planted_bugs.h): a Location
// Store decorator that drops the condition on the writer's own owner lease record from every
// authority write, so the store applies a write of an expired or superseded host run (spec §5:
// "every authority write is conditioned on the writer's own owner lease record"). The other half,
// skipping the admission check before the write, is a SPOTCHECK_PLANTED branch in authority_ops.
//
// Why here and not in faults/: faults/ breaks the world within (or, reported apart, outside) the
// contract, and a campaign must pass through it; planted/ breaks the protocol at one of its seams,
// and a campaign must catch it. Built only with SPOTCHECK_PLANTED_BUGS.
#pragma once

#include <memory>

#include "impl/planted/planted_bugs.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::planted {

// The host run's store client, with the store-seam bugs of `bugs` planted (today only
// kUnfencedWrites). Without one of them, or without SPOTCHECK_PLANTED_BUGS, `inner` itself.
std::unique_ptr<store::LocationStore> plant_at_store_seam(std::unique_ptr<store::LocationStore> inner,
                                                          const PlantedBugs& bugs);

}  // namespace spotcheck::planted
