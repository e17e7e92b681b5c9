// The Restore payload (impl/location/relocation/relocation_payload.h, spec §1.3 step 3, §2): the
// saved work in queue order, the timers not yet run with their identity and time left, and under
// PreserveStateWith the application state — read back exactly; anything else is refused whole.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "impl/location/messaging/commands.h"
#include "impl/location/relocation/relocation_payload.h"

namespace spotcheck::location::relocation {
namespace {

using objects::MovedTimer;
using objects::TimerId;

objects::QueuedMessage queued(std::uint64_t seq) {
  messaging::ObjectMessage m;
  m.request = seq;
  m.op_id = messaging::OperationId{1, seq};
  m.source_rid_hex = messaging::routing_id_hex(0xa1);
  m.source = messaging::WireHostRun{"sender", 1};
  m.target = messaging::WireHostRun{"owner", 2};
  m.id = "player:1";
  m.object_generation = 4;
  m.owner_generation = 1;
  m.sequence = seq;
  m.payload = "m" + std::to_string(seq);
  return objects::QueuedMessage{0xa1, std::move(m)};
}

const std::vector<MovedTimer> kTimers{MovedTimer{TimerId{"owner", 2, 7, 1}, 0, "due"},
                                      MovedTimer{TimerId{"owner", 2, 7, 3}, 450'000, "later"}};

TEST(RelocationPayload, WorkTimersAndStateReadBackExactly) {
  const std::string state("player:1=12\0\xff", 13);  // any bytes
  const std::optional<RestorePayload> read = decode_payload(encode_payload({queued(1), queued(2)}, kTimers, state));
  ASSERT_TRUE(read.has_value());
  ASSERT_EQ(read->work.size(), 2u);
  const std::optional<objects::QueuedMessage> second = queued_of(read->work[1]);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->message, queued(2).message) << "the queue's order and every field kept";
  EXPECT_EQ(read->timers, kTimers);
  EXPECT_EQ(read->state, state);
}

TEST(RelocationPayload, WithoutStateItCarriesNone) {
  // RecreateOnRelocation: no application state travels, and the target can tell.
  const std::optional<RestorePayload> read = decode_payload(encode_payload({}, {}, std::nullopt));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->work.empty());
  EXPECT_TRUE(read->timers.empty());
  EXPECT_FALSE(read->state.has_value());
  const std::optional<RestorePayload> empty = decode_payload(encode_payload({}, {}, std::string()));
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->state, std::string()) << "an empty state is a state";
}

TEST(RelocationPayload, AnythingMalformedIsRefusedWhole) {
  for (const char* bad : {
           R"([])",                                                            // the old array form
           R"({"work": []})",                                                  // no timers
           R"({"work": [], "timers": [{"owner": "o", "leaseGen": 1, "stream": 1, "seq": 0, "remainingUs": 0,
               "payload": ""}]})",                                             // timer number 0
           R"({"work": [], "timers": [{"owner": "o", "leaseGen": 1, "stream": 1, "seq": 1, "remainingUs": -5,
               "payload": ""}]})",                                             // negative time left
           R"({"work": [], "timers": [{"owner": 3, "leaseGen": 1, "stream": 1, "seq": 1, "remainingUs": 0,
               "payload": ""}]})",                                             // an owner not text
           R"({"work": ["not a command"], "timers": []})",                     // work that is no command 52
           R"({"work": [], "timers": [], "state": "***"})",                    // state not base64
           R"({"work": [], "timers": [], "state": 5})",                        // state not text
           "{",                                                                // not JSON
       }) {
    EXPECT_FALSE(decode_payload(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace spotcheck::location::relocation
