#include "impl/records/enums.h"

#include <array>
#include <cstddef>
#include <utility>

namespace spotcheck::records {
namespace {

template <class E, std::size_t N>
std::optional<E> find_spelling(const std::array<std::pair<E, std::string_view>, N>& table,
                               std::string_view text) {
  for (const auto& [value, spelling] : table) {
    if (spelling == text) {
      return value;
    }
  }
  return std::nullopt;
}

template <class E, std::size_t N>
std::string_view spelling_of(const std::array<std::pair<E, std::string_view>, N>& table,
                             E value) {
  for (const auto& [candidate, spelling] : table) {
    if (candidate == value) {
      return spelling;
    }
  }
  return "?";
}

constexpr std::array<std::pair<ObjectKind, std::string_view>, 3> kObjectKinds{{
    {ObjectKind::kActor, "actor"},
    {ObjectKind::kUserSpot, "userSpot"},
    {ObjectKind::kInstanceSpot, "instanceSpot"},
}};
constexpr std::array<std::pair<AllocationState, std::string_view>, 2> kAllocationStates{{
    {AllocationState::kReserved, "reserved"},
    {AllocationState::kActive, "active"},
}};
constexpr std::array<std::pair<DescriptorState, std::string_view>, 7> kDescriptorStates{{
    {DescriptorState::kPreparing, "preparing"},
    {DescriptorState::kServing, "serving"},
    {DescriptorState::kRelocating, "relocating"},
    {DescriptorState::kRelocated, "relocated"},
    {DescriptorState::kDraining, "draining"},
    {DescriptorState::kStopped, "stopped"},
    {DescriptorState::kError, "error"},
}};
constexpr std::array<std::pair<ObjectRole, std::string_view>, 3> kObjectRoles{{
    {ObjectRole::kNone, "none"},
    {ObjectRole::kClient, "client"},
    {ObjectRole::kServer, "server"},
}};
constexpr std::array<std::pair<CapabilityPolicy, std::string_view>, 4> kPolicies{{
    {CapabilityPolicy::kUnspecified, "unspecified"},
    {CapabilityPolicy::kDisabled, "disabled"},
    {CapabilityPolicy::kRecreate, "recreate"},
    {CapabilityPolicy::kSnapshot, "snapshot"},
}};

}  // namespace

std::string_view to_string(ObjectKind value) { return spelling_of(kObjectKinds, value); }
std::string_view to_string(AllocationState value) { return spelling_of(kAllocationStates, value); }
std::string_view to_string(DescriptorState value) { return spelling_of(kDescriptorStates, value); }
std::string_view to_string(ObjectRole value) { return spelling_of(kObjectRoles, value); }
std::string_view to_string(CapabilityPolicy value) { return spelling_of(kPolicies, value); }

std::optional<ObjectKind> parse_object_kind(std::string_view text) {
  return find_spelling(kObjectKinds, text);
}
std::optional<AllocationState> parse_allocation_state(std::string_view text) {
  return find_spelling(kAllocationStates, text);
}
std::optional<DescriptorState> parse_descriptor_state(std::string_view text) {
  return find_spelling(kDescriptorStates, text);
}
std::optional<ObjectRole> parse_object_role(std::string_view text) {
  return find_spelling(kObjectRoles, text);
}
std::optional<CapabilityPolicy> parse_capability_policy(std::string_view text) {
  return find_spelling(kPolicies, text);
}

}  // namespace spotcheck::records
