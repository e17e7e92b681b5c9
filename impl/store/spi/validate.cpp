#include <algorithm>
#include <set>
#include <string>

#include "impl/store/spi/location_store.h"

namespace spotcheck::store {

const char* to_string(StoreErrorKind kind) {
  switch (kind) {
    case StoreErrorKind::kUnavailable:
      return "unavailable";
    case StoreErrorKind::kTimeout:
      return "timeout";
    case StoreErrorKind::kInvalidArgument:
      return "invalid-argument";
    case StoreErrorKind::kInternal:
      return "internal";
  }
  return "unknown";
}

namespace {

StoreError invalid(std::string message) {
  return StoreError{StoreErrorKind::kInvalidArgument, std::move(message)};
}

const Key& key_of(const Condition& c) {
  return std::visit([](const auto& x) -> const Key& { return x.key; }, c);
}
const Key& key_of(const Mutation& m) {
  return std::visit([](const auto& x) -> const Key& { return x.key; }, m);
}

}  // namespace

std::optional<StoreError> validate_key(const Key& key) {
  if (key.empty()) {
    return invalid("empty key");
  }
  if (key.size() > kMaxKeyBytes) {
    return invalid("key longer than " + std::to_string(kMaxKeyBytes) + " bytes");
  }
  return std::nullopt;
}

std::optional<StoreError> validate(const WriteRequest& request) {
  if (request.mutations.empty()) {
    return invalid("a write needs at least one mutation");
  }
  if (request.conditions.size() > kMaxConditions) {
    return invalid("too many conditions");
  }
  if (request.mutations.size() > kMaxMutations) {
    return invalid("too many mutations");
  }
  for (const auto& c : request.conditions) {
    if (auto e = validate_key(key_of(c))) {
      return e;
    }
    if (const auto* ev = std::get_if<ExpectVersion>(&c); ev != nullptr && ev->version.value == 0) {
      return invalid("expected version 0 is never issued; use ExpectAbsent");
    }
  }
  std::set<Key> seen;
  for (const auto& m : request.mutations) {
    const Key& key = key_of(m);
    if (auto e = validate_key(key)) {
      return e;
    }
    if (!seen.insert(key).second) {
      return invalid("a key appears in two mutations of one write");
    }
    if (const auto* put = std::get_if<Put>(&m); put != nullptr && put->value.size() > kMaxValueBytes) {
      return invalid("value larger than the provider limit");
    }
    if (const auto* inc = std::get_if<Increment>(&m); inc != nullptr && inc->min > inc->max) {
      return invalid("increment bounds are empty (min > max)");
    }
  }
  return std::nullopt;
}

std::optional<StoreError> validate(const ScanRequest& request) {
  if (request.max_entries < 1 || request.max_entries > kMaxScanPageEntries) {
    return invalid("max_entries must be 1..1000");
  }
  if (request.continuation.has_value() &&
      (request.continuation->empty() || request.continuation->size() > kMaxContinuationBytes)) {
    return invalid("a continuation is 1..4096 bytes");
  }
  if (!request.end.empty() && request.end < request.start) {
    return invalid("scan end precedes start");
  }
  return std::nullopt;
}

}  // namespace spotcheck::store
