// Property `fencing` (spec §5, §6.1, design "Properties"): no store write succeeds on behalf of an
// expired or superseded owner lease.
//
// Judged from applied authority.* events (and lease.renewed / descriptor.published when they
// carry `resolved`), as docs/events.md allows:
//   * a write with resolved=0 carries its apply instant (store_now_ms); it must lie before the
//     latest ExpiresAt the performing host run (by_owner) adopted, and not after the instant its
//     lease.lost was emitted; a resolved=1 write only has an upper bound and is not judged here;
//   * a host run with no registered lease never gets a write applied;
//   * an applied write was sent (sent_us, the performer's clock) before the latest admission
//     deadline its lease observations allow: local_before + (ExpiresAt - StoreNow) - margin;
//   * superseded owner: every write is conditioned on the row version it read, so each owner epoch
//     (object, ObjectGeneration, AuthorityOwnerGeneration) is ended by exactly one write (NewOwner,
//     Abort or Delete) and no write on it applies after that end.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "properties/common/authority_event.h"
#include "properties/common/epoch_ledger.h"
#include "properties/common/lease_book.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class FencingChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "fencing";

  explicit FencingChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  std::optional<std::string> on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> on_lease_renewed(const sim::TraceEvent& event);
  std::optional<std::string> on_descriptor(const sim::TraceEvent& event);
  // The lease of `writer` at a write that applied at `apply_ms` (exact).
  std::optional<std::string> check_lease(const std::function<std::string()>& subject, const HostRunRef& writer,
                                         std::int64_t apply_ms) const;
  std::optional<std::string> check_sent_in_time(const std::function<std::string()>& subject,
                                               const AuthorityEvent& change) const;
  std::optional<std::string> check_superseded(const sim::TraceEvent& event, const AuthorityEvent& change);

  LeaseBook _leases;
  EpochLedger _epochs;
};

}  // namespace spotcheck::properties
