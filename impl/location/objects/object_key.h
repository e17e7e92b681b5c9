// The key of one Actor or Spot in the object runtime: its authority kind and global ID (§3.4).
#pragma once

#include <compare>
#include <string>

#include "impl/records/enums.h"
#include "impl/records/keys.h"

namespace spotcheck::location::objects {

struct ObjectKey {
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;
  friend auto operator<=>(const ObjectKey&, const ObjectKey&) = default;
  friend bool operator==(const ObjectKey&, const ObjectKey&) = default;
};

}  // namespace spotcheck::location::objects
