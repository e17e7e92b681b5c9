// Property `object-messages` (spec §5, §7.1, #13 "Per-object FIFO"): the regular messages one
// sender (one stream of sends of one host run, e.g. a client task) sends to one object run in the
// order it sent them, none twice, and never
// on an instance of another ObjectGeneration than the one they were sent to; and a send the
// sender reports `ran` did run.
//
// Judged from the object runtime's own events: object.turn (a message turn names its sender's
// host run and sequence number, the ObjectGeneration it was sent to and the instance's) and
// object.message_answered (the sender's account). Per (sender host run, kind, ID) the sequence
// numbers of the turns that ran strictly increase (per sender stream): a number again is a message run twice, a lower
// one a message run out of order. That a message lost by the network or a crash never runs is
// allowed (the sender reports no_reply and never sends it again).
//
// Online and linear: one entry per (sender host run, object) — its last sequence run — and one
// per message that ran, until its sender's answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class ObjectMessagesChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "object-messages";

  explicit ObjectMessagesChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  std::optional<std::string> on_turn(const sim::TraceEvent& event);
  std::optional<std::string> on_answered(const sim::TraceEvent& event);

  struct LastRun {
    std::int64_t seq = 0;
    std::uint64_t event = 0;
  };
  StringMap<LastRun> _last_run;  // (sender host run, kind, id) -> the last message turn of it
  StringSet _ran;                // (sender host run, kind, id, seq) that ran
};

}  // namespace spotcheck::properties
