// The simulated store server's faults that apply a request late (sim/store_host): a write held
// past its caller's deadline lands after the caller gave up — before or after its re-read — and a
// stalling outage queues requests and applies them in arrival order when it ends. Every write
// the store applies is recorded as store.applied.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/store_host/store_server.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::sim {
namespace {

using platform::millis;
using platform::seconds;

store::WriteRequest put_absent(const std::string& key, const std::string& value) {
  store::WriteRequest request;
  request.conditions.push_back(store::ExpectAbsent{key});
  request.mutations.push_back(store::Put{key, value});
  return request;
}

struct Fixture {
  World world{testing::quiet_config(7)};
  StoreServer store{world, StoreServerConfig{}};
  std::vector<std::string> seen;  // what the node's main saw, in order

  // Runs `body` as the main of one node process, with its Location Store client.
  void run(std::function<void(store::LocationStore&, platform::Platform&)> body) {
    ProcessId node = 0;
    node = world.add_process("n", 1, [this, &node, body = std::move(body)](platform::Platform& p) {
      auto client = store.location_client(node);
      body(*client, p);
    });
    world.start(node);
    world.run_until(seconds(30), 1'000'000);
  }
};

std::string read_text(const store::ReadResult& read) {
  if (std::holds_alternative<store::Missing>(read)) {
    return "missing";
  }
  if (const auto* found = std::get_if<store::Found>(&read)) {
    return "found " + found->value;
  }
  return "error";
}

TEST(StoreHost, ALateWriteLandsAfterItsCallersReRead) {
  Fixture f;
  f.store.set_faults(StoreFaults{.late_apply = 1.0, .late_apply_max_us = seconds(5)});
  f.run([&f](store::LocationStore& client, platform::Platform& p) {
    const store::WriteResult write = client.write(put_absent("k", "v"), p.clock.now_us() + millis(100));
    f.seen.push_back(std::holds_alternative<store::Indeterminate>(write) ? "indeterminate" : "other");
    f.store.set_faults(StoreFaults{});
    f.seen.push_back(read_text(client.read("k", p.clock.now_us() + millis(100))));  // the re-read: not yet
    p.clock.sleep_until(p.clock.now_us() + seconds(10));
    f.seen.push_back(read_text(client.read("k", p.clock.now_us() + millis(100))));  // landed since
  });
  EXPECT_EQ(f.seen, (std::vector<std::string>{"indeterminate", "missing", "found v"}));
  const auto late = testing::events_of_kind(f.world.trace(), "store.write_late");
  ASSERT_EQ(late.size(), 1u);
  EXPECT_GT(*late[0].number("hold_us"), millis(100));
  const auto applied = testing::events_of_kind(f.world.trace(), "store.applied");
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_GT(applied[0].time_us, late[0].time_us + millis(100));
  EXPECT_EQ(applied[0].text("key"), "k");
  EXPECT_EQ(applied[0].text("mutation"), "put");
  EXPECT_EQ(applied[0].number("old_version"), 0);
  EXPECT_GT(*applied[0].number("new_version"), 0);
  EXPECT_EQ(applied[0].text("value"), "v");
}

TEST(StoreHost, EveryMutationOfAnAppliedWriteIsRecordedInOrder) {
  Fixture f;
  f.run([&f](store::LocationStore& client, platform::Platform& p) {
    store::WriteRequest request = put_absent("row", "v");
    request.mutations.push_back(store::Increment{"counter", 1, 0, 10});
    request.mutations.push_back(store::Delete{"gone"});
    const store::WriteResult write = client.write(request, p.clock.now_us() + millis(100));
    f.seen.push_back(std::holds_alternative<store::Applied>(write) ? "applied" : "other");
    const store::WriteResult again = client.write(
        store::WriteRequest{{}, {store::Increment{"counter", 2, 0, 10}}}, p.clock.now_us() + millis(100));
    f.seen.push_back(std::holds_alternative<store::Applied>(again) ? "applied" : "other");
  });
  EXPECT_EQ(f.seen, (std::vector<std::string>{"applied", "applied"}));
  const auto applied = testing::events_of_kind(f.world.trace(), "store.applied");
  ASSERT_EQ(applied.size(), 4u);
  const std::vector<std::string> keys{"row", "counter", "gone", "counter"};
  const std::vector<std::string> mutations{"put", "increment", "delete", "increment"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(applied[i].text("key"), keys[i]);
    EXPECT_EQ(applied[i].text("mutation"), mutations[i]);
    EXPECT_EQ(applied[i].number("part"), static_cast<std::int64_t>(i) + 1);
    EXPECT_EQ(applied[i].number("mutations"), 3);
    EXPECT_EQ(applied[i].index + 1, i < 2 ? applied[i + 1].index : applied[i].index + 1);  // back to back
  }
  EXPECT_EQ(applied[0].text("value"), "v");
  EXPECT_EQ(applied[1].number("delta"), 1);
  EXPECT_EQ(applied[1].number("counter"), 1);
  EXPECT_EQ(applied[2].number("new_version"), 0);  // a delete leaves no version
  // The second write found the version the first left on the counter, and added its delta.
  EXPECT_EQ(applied[3].number("old_version"), applied[1].number("new_version"));
  EXPECT_EQ(applied[3].number("delta"), 2);
  EXPECT_EQ(applied[3].number("counter"), 3);
  EXPECT_EQ(applied[3].number("part"), 1);
  EXPECT_EQ(applied[3].number("mutations"), 1);
}

TEST(StoreHost, AStallQueuesRequestsAndAppliesThemInOrderWhenItEnds) {
  Fixture f;
  f.world.at(millis(1), [&f] { f.store.begin_outage(OutageMode::kStall); });
  f.world.at(seconds(2), [&f] { f.store.end_outage(); });
  f.run([&f](store::LocationStore& client, platform::Platform& p) {
    p.clock.sleep_until(millis(10));
    const store::WriteResult first = client.write(put_absent("k", "first"), p.clock.now_us() + millis(100));
    f.seen.push_back(std::holds_alternative<store::Indeterminate>(first) ? "indeterminate" : "other");
    // The second write queues behind the first: its condition fails once the first applied.
    const store::WriteResult second = client.write(put_absent("k", "second"), p.clock.now_us() + seconds(5));
    f.seen.push_back(std::holds_alternative<store::Conflict>(second) ? "conflict" : "other");
    f.seen.push_back(read_text(client.read("k", p.clock.now_us() + millis(100))));
  });
  EXPECT_EQ(f.seen, (std::vector<std::string>{"indeterminate", "conflict", "found first"}));
  EXPECT_EQ(testing::events_of_kind(f.world.trace(), "store.stalled").size(), 2u);
  const auto end = testing::events_of_kind(f.world.trace(), "store.stall_end");
  ASSERT_EQ(end.size(), 1u);
  EXPECT_EQ(end[0].number("queued"), 2);
  EXPECT_TRUE(testing::events_of_kind(f.world.trace(), "store.refused").empty());
}

TEST(StoreHost, ARefusingOutageAppliesNothing) {
  Fixture f;
  f.world.at(millis(1), [&f] { f.store.begin_outage(); });
  f.world.at(seconds(2), [&f] { f.store.end_outage(); });
  f.run([&f](store::LocationStore& client, platform::Platform& p) {
    p.clock.sleep_until(millis(10));
    const store::WriteResult write = client.write(put_absent("k", "v"), p.clock.now_us() + millis(100));
    f.seen.push_back(std::holds_alternative<store::StoreError>(write) ? "refused" : "other");
    p.clock.sleep_until(seconds(3));
    f.seen.push_back(read_text(client.read("k", p.clock.now_us() + millis(100))));
  });
  EXPECT_EQ(f.seen, (std::vector<std::string>{"refused", "missing"}));
  EXPECT_TRUE(testing::events_of_kind(f.world.trace(), "store.applied").empty());
}

// store-renew-lost: every owner lease renew (one Put of an owner-lease row) meets one of the four
// fates — lost, applied with its reply lost, refused, applied late — while reads and other writes
// are served.
TEST(StoreHost, RenewLossHitsOnlyOwnerLeaseRenewsAndReadsStillSucceed) {
  Fixture f;
  f.store.set_faults(StoreFaults{.renew_loss = 1.0});
  const std::string lease_key = std::string("owner-lease") + '\0' + "owner-a";
  f.run([&f, &lease_key](store::LocationStore& client, platform::Platform& p) {
    // A registration-like write (two mutations) and a plain write are served.
    store::WriteRequest registration = put_absent(lease_key, "v0");
    registration.mutations.push_back(store::Increment{"counter", 1, 0, 100});
    const bool registered = std::holds_alternative<store::Applied>(client.write(registration, p.clock.now_us() + millis(100)));
    f.seen.push_back(registered ? "registered" : "registration failed");
    f.seen.push_back(std::holds_alternative<store::Applied>(client.write(put_absent("other", "x"), p.clock.now_us() + millis(100)))
                         ? "other applied" : "other failed");
    for (int i = 0; i < 12; ++i) {
      store::WriteRequest renew;
      renew.mutations.push_back(store::Put{lease_key, "v" + std::to_string(i + 1)});
      const store::WriteResult result = client.write(renew, p.clock.now_us() + millis(100));
      f.seen.push_back(std::holds_alternative<store::Applied>(result)        ? "renew applied"
                       : std::holds_alternative<store::Indeterminate>(result) ? "renew indeterminate"
                                                                               : "renew refused");
      f.seen.push_back(read_text(client.read(lease_key, p.clock.now_us() + millis(100))).substr(0, 5));
      p.clock.sleep_for(millis(200));  // past any lost request's deadline
    }
  });
  ASSERT_EQ(f.seen.size(), 2u + 24u);
  EXPECT_EQ(f.seen[0], "registered");
  EXPECT_EQ(f.seen[1], "other applied");
  int refused = 0, indeterminate = 0;
  for (std::size_t i = 2; i < f.seen.size(); i += 2) {
    EXPECT_NE(f.seen[i], "renew applied");
    refused += f.seen[i] == "renew refused";
    indeterminate += f.seen[i] == "renew indeterminate";
    EXPECT_EQ(f.seen[i + 1], "found");  // the read is served every time
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(indeterminate, 0);
  // A lost reply still applied: the store's account holds some of the renews.
  int renews_applied = 0;
  for (const auto& applied : testing::events_of_kind(f.world.trace(), "store.applied")) {
    renews_applied += applied.text("key") == "owner-lease/owner-a" && applied.text("mutation") == "put";
  }
  EXPECT_GT(renews_applied, 1);  // the registration and at least one renew whose reply was lost
}

// node-pause-on-reply: the reply reaches the node, then the node freezes before the waiting task
// acts on it; the task then takes the reply, even though the freeze outlasted the request's deadline.
TEST(StoreHost, PauseOnReplyFreezesTheCallerAfterTheReplyReachedIt) {
  Fixture f;
  f.store.set_faults(StoreFaults{.pause_on_reply = 1.0, .pause_on_reply_max_us = seconds(3)});
  TimeUs sent_us = 0;
  TimeUs answered_us = 0;
  f.run([&](store::LocationStore& client, platform::Platform& p) {
    sent_us = p.clock.now_us();
    const store::WriteResult write = client.write(put_absent("k", "v"), sent_us + millis(500));
    answered_us = p.clock.now_us();
    f.seen.push_back(std::holds_alternative<store::Applied>(write) ? "applied" : "other");
  });
  ASSERT_EQ(f.seen, std::vector<std::string>{"applied"});  // taken, though the deadline passed frozen
  EXPECT_GE(answered_us - sent_us, seconds(1));             // frozen at least the shortest pause
  ASSERT_EQ(testing::events_of_kind(f.world.trace(), "store.paused_caller").size(), 1u);
  const auto applied = testing::events_of_kind(f.world.trace(), "store.applied");
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_LT(applied[0].time_us, sent_us + millis(10));  // applied before the freeze
}

// node-freeze-drop: the node freezes with its request in flight, and the request (nothing
// applied) or the reply of the write the store applied is lost. Each write waits out its deadline
// frozen and ends Indeterminate; both halves of the fault show up over a few writes.
TEST(StoreHost, FreezeDropLosesTheRequestOrItsReplyAndFreezesTheCaller) {
  Fixture f;
  f.store.set_faults(StoreFaults{.freeze_drop = 1.0, .freeze_drop_max_us = seconds(2)});
  constexpr int kWrites = 8;
  std::vector<TimeUs> waited_us;
  f.run([&](store::LocationStore& client, platform::Platform& p) {
    for (int i = 0; i < kWrites; ++i) {
      const TimeUs sent_us = p.clock.now_us();
      const store::WriteResult write =
          client.write(put_absent("k" + std::to_string(i), "v"), sent_us + millis(500));
      waited_us.push_back(p.clock.now_us() - sent_us);
      f.seen.push_back(std::holds_alternative<store::Indeterminate>(write) ? "indeterminate" : "answered");
    }
  });
  ASSERT_EQ(f.seen, std::vector<std::string>(kWrites, "indeterminate"));  // never answered
  for (const TimeUs waited : waited_us) {
    EXPECT_GE(waited, seconds(1));  // frozen at least the shortest freeze
  }
  const auto frozen = testing::events_of_kind(f.world.trace(), "store.froze_caller");
  const auto requests_lost = testing::events_of_kind(f.world.trace(), "store.request_lost");
  const auto replies_lost = testing::events_of_kind(f.world.trace(), "store.reply_lost");
  const auto applied = testing::events_of_kind(f.world.trace(), "store.applied");
  EXPECT_EQ(frozen.size(), static_cast<std::size_t>(kWrites));
  EXPECT_EQ(requests_lost.size() + replies_lost.size(), static_cast<std::size_t>(kWrites));
  EXPECT_EQ(applied.size(), replies_lost.size());  // a lost reply's write applied; a lost request's did not
  EXPECT_GT(requests_lost.size(), 0u);
  EXPECT_GT(replies_lost.size(), 0u);
}

// store-scan-expired: pages of 1-3 entries however many were asked for, and a page asked for with
// a continuation is ScanExpired at the rate; a first page never is.
TEST(StoreHost, ScanExpiryServesSmallPagesAndForgetsContinuedScans) {
  Fixture f;
  std::vector<std::size_t> page_sizes;
  f.run([&](store::LocationStore& client, platform::Platform& p) {
    for (int i = 0; i < 10; ++i) {
      const store::WriteResult write = client.write(put_absent("k" + std::to_string(i), "v"), p.clock.now_us() + millis(500));
      ASSERT_TRUE(std::holds_alternative<store::Applied>(write));
    }
    f.store.set_faults(StoreFaults{.scan_expiry = 1.0});
    store::ScanRequest request{"k", "l", std::nullopt, 100};
    const store::ScanResult first = client.scan(request, p.clock.now_us() + millis(500));
    ASSERT_TRUE(std::holds_alternative<store::ScanPage>(first));
    const auto& page = std::get<store::ScanPage>(first);
    page_sizes.push_back(page.entries.size());
    ASSERT_TRUE(page.continuation.has_value());  // 10 keys do not fit a page of at most 3
    request.continuation = page.continuation;
    const store::ScanResult second = client.scan(request, p.clock.now_us() + millis(500));
    f.seen.push_back(std::holds_alternative<store::ScanExpired>(second) ? "expired" : "other");
    f.store.set_faults(StoreFaults{});
    request.continuation.reset();
    const store::ScanResult whole = client.scan(request, p.clock.now_us() + millis(500));
    ASSERT_TRUE(std::holds_alternative<store::ScanPage>(whole));
    page_sizes.push_back(std::get<store::ScanPage>(whole).entries.size());
  });
  ASSERT_EQ(f.seen, std::vector<std::string>{"expired"});
  ASSERT_EQ(page_sizes.size(), 2u);
  EXPECT_GE(page_sizes[0], 1u);
  EXPECT_LE(page_sizes[0], 3u);
  EXPECT_EQ(page_sizes[1], 10u);  // fault off: the page size asked for
  EXPECT_EQ(testing::events_of_kind(f.world.trace(), "store.scan_expired").size(), 1u);
}

}  // namespace
}  // namespace spotcheck::sim

namespace spotcheck::sim {
namespace {

// Two servers (issue 11): the Location Store on one, the Relocation Store on another whose clock
// runs 1.5 s ahead. An outage of the second refuses payload requests while Location Store writes
// go through; its outage events name it.
TEST(StoreHost, TwoServersKeepTheirOwnClocksAndFailApart) {
  World world{testing::quiet_config(7)};
  StoreServer location{world, StoreServerConfig{}};
  StoreServerConfig second;
  second.routing_id = location.routing_id() + 1;
  second.name = "relocation-store";
  second.clock_offset_ms = 1'500;
  StoreServer relocation{world, second};
  std::vector<std::string> seen;
  std::int64_t location_now = 0;
  std::int64_t relocation_now = 0;
  ProcessId node = 0;
  node = world.add_process("n", 1, [&](platform::Platform& p) {
    auto locations = location.location_client(node);
    auto payloads = relocation.relocation_client(node);
    const store::WriteResult write = locations->write(put_absent("k", "v"), p.clock.now_us() + millis(100));
    const auto* applied = std::get_if<store::Applied>(&write);
    location_now = applied != nullptr ? applied->now_ms : -1;
    const store::PutResult put = payloads->put(store::PayloadPut{"ref-1", "bytes", 0}, p.clock.now_us() + millis(100));
    const auto* stored = std::get_if<store::Stored>(&put);
    relocation_now = stored != nullptr ? stored->now_ms : -1;
    p.clock.sleep_until(seconds(1));
    seen.push_back(std::holds_alternative<store::StoreError>(
                       payloads->put(store::PayloadPut{"ref-2", "bytes", 0}, p.clock.now_us() + millis(100)))
                       ? "payload refused"
                       : "payload stored");
    seen.push_back(std::holds_alternative<store::Applied>(
                       locations->write(put_absent("k2", "v"), p.clock.now_us() + millis(100)))
                       ? "location applied"
                       : "location failed");
  });
  world.at(millis(500), [&] { relocation.begin_outage(); });
  world.at(seconds(2), [&] { relocation.end_outage(); });
  world.start(node);
  world.run_until(seconds(5), 1'000'000);
  EXPECT_EQ(seen, (std::vector<std::string>{"payload refused", "location applied"}));
  ASSERT_GT(location_now, 0);
  EXPECT_NEAR(static_cast<double>(relocation_now - location_now), 1'500.0, 5.0);
  const auto begins = testing::events_of_kind(world.trace(), "store.outage_begin");
  ASSERT_EQ(begins.size(), 1u);
  EXPECT_EQ(begins[0].text("server"), std::optional<std::string_view>("relocation-store"));
}

}  // namespace
}  // namespace spotcheck::sim

namespace spotcheck::sim {
namespace {

// Out of contract (faults/out_of_contract.h): a jump moves StoreNow forward at once and for good,
// and names its server.
TEST(StoreHost, AClockJumpMovesStoreNowForwardAndStays) {
  World world{testing::quiet_config(7)};
  StoreServer store{world, StoreServerConfig{}};
  std::vector<std::int64_t> before_after;
  world.at(seconds(1), [&] { before_after.push_back(store.store_now_ms()); });
  world.at(seconds(1), [&] { store.jump_clock(20'000); });
  world.at(seconds(1), [&] { before_after.push_back(store.store_now_ms()); });
  world.at(seconds(2), [&] { before_after.push_back(store.store_now_ms()); });
  world.run_until(seconds(3), 1'000);
  ASSERT_EQ(before_after.size(), 3u);
  EXPECT_EQ(before_after[1] - before_after[0], 20'000);
  EXPECT_EQ(before_after[2] - before_after[1], 1'000);
  const auto jumps = testing::events_of_kind(world.trace(), "store.clock_jumped");
  ASSERT_EQ(jumps.size(), 1u);
  EXPECT_EQ(jumps[0].text("server"), std::optional<std::string_view>("store"));
  EXPECT_EQ(jumps[0].number("by_ms"), std::optional<std::int64_t>(20'000));
}

// Out of contract: a failover to a replica 1.5 s behind loses the writes of the last 1.5 s, though
// their callers were told they applied: each key goes back to what it held before, and the version
// counter goes back too, so the next write is given a StoreVersion a lost write had been given.
TEST(StoreHost, LostWritesGoBackToTheReplicasStateAndTheirVersionsAreIssuedAgain) {
  Fixture f;
  f.store.keep_write_journal(seconds(2));
  std::vector<std::uint64_t> versions;
  auto put = [&](store::LocationStore& s, platform::Platform& p, store::WriteRequest request) {
    const store::WriteResult result = s.write(request, p.clock.now_us() + millis(100));
    const auto* applied = std::get_if<store::Applied>(&result);
    versions.push_back(applied != nullptr ? applied->outcomes[0].version.value : 0);
  };
  f.world.at(seconds(3), [&] { f.seen.push_back("lost " + std::to_string(f.store.lose_writes(millis(1'500)))); });
  f.run([&](store::LocationStore& s, platform::Platform& p) {
    put(s, p, put_absent("kept", "1"));   // at 0: older than the replica's lag
    p.clock.sleep_until(seconds(2));
    put(s, p, put_absent("new", "2"));    // at 2 s: lost
    store::WriteRequest overwrite;
    overwrite.mutations.push_back(store::Put{"kept", "3"});
    put(s, p, overwrite);                 // lost: "kept" goes back to "1"
    p.clock.sleep_until(seconds(4));
    f.seen.push_back("kept " + read_text(s.read("kept", p.clock.now_us() + millis(100))));
    f.seen.push_back("new " + read_text(s.read("new", p.clock.now_us() + millis(100))));
    put(s, p, put_absent("other", "4"));  // given the version "new" had been given
  });
  EXPECT_EQ(f.seen, (std::vector<std::string>{"lost 2", "kept found 1", "new missing"}));
  ASSERT_EQ(versions.size(), 4u);
  EXPECT_EQ(versions[3], versions[1]) << "the version counter went back with the lost writes";
  EXPECT_EQ(testing::events_of_kind(f.world.trace(), "store.writes_lost").size(), 1u);
  EXPECT_EQ(testing::events_of_kind(f.world.trace(), "store.write_lost").size(), 2u);
}

}  // namespace
}  // namespace spotcheck::sim

namespace spotcheck::sim {
namespace {

// store-payload-damage: a payload's first read (its writer's verification) is never damaged; a
// later read may be, once per payload — invisible for a while (then back), lost, or corrupted —
// each recorded as store.payload_damaged.
TEST(StoreHost, PayloadDamageSparesTheFirstReadAndStrikesEachPayloadAtMostOnce) {
  World world{testing::quiet_config(11)};
  StoreServer store{world, StoreServerConfig{}};
  StoreFaults faults;
  faults.payload_damage = 1.0;
  store.set_faults(faults);
  constexpr int kPayloads = 30;
  std::vector<std::string> first;   // each payload's first read
  std::vector<std::string> second;  // its second read
  std::vector<std::string> later;   // its read 1 s later
  ProcessId node = 0;
  node = world.add_process("n", 1, [&](platform::Platform& p) {
    auto payloads = store.relocation_client(node);
    const auto text = [&](const std::string& ref) {
      const store::GetResult got = payloads->get(ref, p.clock.now_us() + millis(100));
      if (const auto* found = std::get_if<store::PayloadFound>(&got)) {
        return found->payload == "payload-" + ref ? std::string("same") : std::string("other");
      }
      return std::holds_alternative<store::PayloadMissing>(got) ? std::string("missing") : std::string("error");
    };
    for (int i = 0; i < kPayloads; ++i) {
      const std::string ref = "ref-" + std::to_string(i);
      payloads->put(store::PayloadPut{ref, "payload-" + ref, 0}, p.clock.now_us() + millis(100));
      first.push_back(text(ref));
      second.push_back(text(ref));
    }
    p.clock.sleep_for(seconds(1));
    for (int i = 0; i < kPayloads; ++i) {
      later.push_back(text("ref-" + std::to_string(i)));
    }
  });
  world.start(node);
  world.run_until(seconds(10), 1'000'000);
  ASSERT_EQ(later.size(), static_cast<std::size_t>(kPayloads));
  const auto damaged = testing::events_of_kind(world.trace(), "store.payload_damaged");
  ASSERT_EQ(damaged.size(), static_cast<std::size_t>(kPayloads)) << "each payload's second read, once";
  int invisible = 0;
  int lost = 0;
  int corrupted = 0;
  for (int i = 0; i < kPayloads; ++i) {
    EXPECT_EQ(first[i], "same") << i;
    const std::optional<std::string_view> how = damaged[i].text("how");
    ASSERT_TRUE(how.has_value());
    if (*how == "invisible") {
      ++invisible;
      EXPECT_EQ(second[i], "missing") << i;
      EXPECT_EQ(later[i], "same") << i << ": back after at most 500 ms, and never damaged again";
    } else if (*how == "lost") {
      ++lost;
      EXPECT_EQ(second[i], "missing") << i;
      EXPECT_EQ(later[i], "missing") << i;
    } else {
      ASSERT_EQ(*how, "corrupted");
      ++corrupted;
      EXPECT_EQ(second[i], "other") << i;
      EXPECT_EQ(later[i], "other") << i;
    }
  }
  EXPECT_GT(invisible, 0);
  EXPECT_GT(lost, 0);
  EXPECT_GT(corrupted, 0);
  EXPECT_EQ(world.marks()[static_cast<std::size_t>(platform::Mark::kPayloadDamageHit)],
            static_cast<std::uint64_t>(kPayloads));
}

}  // namespace
}  // namespace spotcheck::sim
