// OwnerId (spec §3.1): a non-reusable value the Framework creates once per host run — a lowercase
// canonical UUID v4 string drawn from platform::Random (122 random bits).
#pragma once

#include <string>
#include <string_view>

#include "impl/platform/random.h"

namespace spotcheck::location {

// "xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx", N in {8,9,a,b}.
std::string new_owner_id(platform::Random& random);

// True for a lowercase canonical UUID v4 string.
bool is_uuid_v4(std::string_view text);

}  // namespace spotcheck::location
