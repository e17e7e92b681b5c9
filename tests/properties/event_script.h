// Hand-built event histories for the property checkers: builds sim::TraceEvent values directly
// (index, virtual time, node, kind, fields) and feeds them to an observer, plus builders for the
// Location runtime's events (docs/events.md) with sensible defaults.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "impl/platform/event_fields.h"
#include "impl/platform/event_sink.h"
#include "sim/trace/observer.h"
#include "sim/trace/trace_event.h"

namespace spotcheck::properties::testing {

using platform::TimeUs;

// The store clock the tests use: StoreNow = kEpochMs + t/1000.
inline constexpr std::int64_t kEpochMs = 1'000'000;
inline std::int64_t store_ms(TimeUs t_us) { return kEpochMs + t_us / 1000; }

// One field with owned text.
struct F {
  std::string key;
  std::int64_t number = 0;
  std::string text;
  bool is_text = false;
  static F n(std::string key, std::int64_t value) { return F{std::move(key), value, {}, false}; }
  static F s(std::string key, std::string value) { return F{std::move(key), 0, std::move(value), true}; }
};

// A row as authority.* events describe it.
struct Row {
  std::string kind = "actor";
  std::string id = "player:1";
  std::int64_t object_gen = 1;
  std::int64_t owner_gen = 1;
  std::string owner = "owner-a";
  std::int64_t lease_gen = 1;
  std::string state = "active";
  std::string object_kind = "actor";
  std::string stable_type = "Player";
  std::string mesh = "sim";
  std::string rid = "00a1";
};

struct Write {
  std::string op{};  // reserve | commit | abort | preserve | new_owner | delete
  Row row{};
  std::string outcome = "applied";
  std::string cause{};
  std::int64_t store_now_ms = 0;
  bool resolved = false;
  std::string by_owner{};  // defaults to row.owner
  std::int64_t by_lease_gen = 0;
  std::string via = "explicit";
  std::int64_t version = 7;  // the StoreVersion after, reported when applied
  std::optional<std::int64_t> sent_us{};  // the performer's local send time, when reported
  // new_owner only
  std::string prev_owner{};
  std::int64_t prev_lease_gen = 0;
  std::int64_t prev_owner_gen = 0;
  std::string prev_mesh{};
  std::string prev_rid{};
};

std::vector<F> authority_fields(const Write& write);

// An event's fields as its typed struct writes them (the protocol's keys, order and types), owned.
std::vector<F> owned(std::span<const platform::Field> fields);
template <class E>
std::vector<F> owned_fields(const E& event) {
  platform::FieldWriter<E::kFieldsMax> writer;
  fields(writer, event);
  return owned(writer.fields());
}

// The fencing margin every scripted lease event reports: a lease adopted at t with ExpiresAt E
// allows admission deadlines up to t + (E - StoreNow(t)) - 1 s (spec §5).
inline constexpr TimeUs kScriptFencingMarginUs = 1'000'000;

class Script {
 public:
  explicit Script(sim::TraceObserver& observer) : _observer(observer) {}

  // Builds the next event at (t_us, node) and feeds it; returns the observer's verdict.
  std::optional<std::string> feed(TimeUs t_us, std::int32_t node, const std::string& kind, std::vector<F> fields);

  // ---- Location runtime events, at (t_us, node) ----
  std::optional<std::string> registered(TimeUs t_us, std::int32_t node, const std::string& owner,
                                        std::int64_t lease_gen, std::int64_t expires_ms,
                                        std::int64_t deadline_us = 0, const std::string& kind = "lease.registered");
  std::optional<std::string> renewed(TimeUs t_us, std::int32_t node, const std::string& owner, std::int64_t lease_gen,
                                     std::int64_t expires_ms);
  std::optional<std::string> lost(TimeUs t_us, std::int32_t node, const std::string& owner, std::int64_t lease_gen);
  // The authority event; store_now_ms defaults to the store clock at t_us; by defaults to the owner.
  std::optional<std::string> write(TimeUs t_us, std::int32_t node, Write write);
  // The authority event followed by the capacity.changed events its allocation implies.
  std::optional<std::string> write_with_capacity(TimeUs t_us, std::int32_t node, Write write);
  std::optional<std::string> capacity(TimeUs t_us, std::int32_t node, const std::string& mesh, const std::string& rid,
                                      const std::string& counter, std::int64_t delta, std::int64_t value,
                                      const std::string& spot_kind = "", const std::string& stable_type = "");
  std::optional<std::string> work(TimeUs t_us, std::int32_t node, const Row& row);
  std::optional<std::string> kill(TimeUs t_us, std::int32_t node);
  std::optional<std::string> start(TimeUs t_us, std::int32_t node);

  std::uint64_t next_index() const { return _next_index; }
  TimeUs last_time_us() const { return _last_time_us; }

 private:
  sim::TraceObserver& _observer;
  std::uint64_t _next_index = 0;
  TimeUs _last_time_us = 0;
};

// A typical new_owner Write: `from` row moved to `to_owner` on (to_mesh, to_rid).
Write new_owner(const Row& from, const std::string& to_owner, std::int64_t to_lease_gen, const std::string& to_rid);

}  // namespace spotcheck::properties::testing
