#include "properties/registry.h"

#include "properties/checkers/at_most_once_checker.h"
#include "properties/checkers/capacity_checker.h"
#include "properties/checkers/creation_checker.h"
#include "properties/checkers/creation_liveness_checker.h"
#include "properties/checkers/fencing_checker.h"
#include "properties/checkers/first_message_checker.h"
#include "properties/checkers/generations_checker.h"
#include "properties/checkers/liveness_checker.h"
#include "properties/checkers/object_messages_checker.h"
#include "properties/checkers/object_timers_checker.h"
#include "properties/checkers/route_cache_checker.h"
#include "properties/checkers/single_owner_checker.h"
#include "properties/checkers/store_truth_checker.h"

namespace spotcheck::properties {

namespace {

template <class Checker>
std::unique_ptr<PropertyChecker> make(const PropertyOptions& options) {
  return std::make_unique<Checker>(options);
}

constexpr PropertyInfo kProperties[] = {
    {SingleOwnerChecker::kName,
     "no two host runs hold Active authority for one object and accept work; no owner act outside its lease",
     &make<SingleOwnerChecker>},
    {GenerationsChecker::kName,
     "ObjectGeneration from one never-reused sequence, kept by NewOwner; owner gen +1 per owner change; "
     "LeaseGeneration unique and non-zero; exhaustion changes nothing",
     &make<GenerationsChecker>},
    {FencingChecker::kName, "no store write succeeds on behalf of an expired or superseded owner lease",
     &make<FencingChecker>},
    {CapacityChecker::kName, "capacity counters change exactly by the allocations of applied authority writes",
     &make<CapacityChecker>},
    {CreationChecker::kName,
     "one Creating per ID at a time; one factory run per (ID, ObjectGeneration) but crash retries; a final result "
     "stored at most once per request (source host run, OperationId) and delivered at most once per exchange",
     &make<CreationChecker>},
    {AtMostOnceChecker::kName,
     "an accepted OperationId (source RID, source host run, OperationId) runs at most once anywhere — any node, "
     "host run or incarnation — and its reply is delivered at most once",
     &make<AtMostOnceChecker>},
    {FirstMessageChecker::kName,
     "on every in-process instance of an Instance Spot, the restored one included, the first message runs before "
     "any other message (§7.1)",
     &make<FirstMessageChecker>},
    {ObjectMessagesChecker::kName,
     "one sender's regular messages to one object run in the order sent, none twice, never on an instance of "
     "another ObjectGeneration; a send reported ran did run",
     &make<ObjectMessagesChecker>},
    {ObjectTimersChecker::kName,
     "every timer callback an instance starts runs at most once, wherever its object moved, and is lost only "
     "with what held it (its instance removed, its turn refused, its move failed, its process died)",
     &make<ObjectTimersChecker>},
    {RouteCacheChecker::kName,
     "the location cache holds only Ready locations and never answers past RouteCacheMaxAge or its owner's last "
     "admission time (§7.3)",
     &make<RouteCacheChecker>},
    {StoreTruthChecker::kName,
     "every authority row change the store applied is a legal §6.1 transition, and every write the protocol "
     "calls applied is one the store applied",
     &make<StoreTruthChecker>},
    {LivenessChecker::kName, "after faults stop, every request ends (success or typed error) before its deadline",
     &make<LivenessChecker>},
    {CreationLivenessChecker::kName,
     "once faults stop and the world settles, a GetOrCreate no other call of its ID competes with answers with "
     "the object (existing, created, or the factory's rejected / failed), not a typed error",
     &make<CreationLivenessChecker>},
};

}  // namespace

std::span<const PropertyInfo> all_properties() {
  return kProperties;
}

const PropertyInfo* find_property(std::string_view name) {
  for (const PropertyInfo& info : kProperties) {
    if (info.name == name) {
      return &info;
    }
  }
  return nullptr;
}

}  // namespace spotcheck::properties
