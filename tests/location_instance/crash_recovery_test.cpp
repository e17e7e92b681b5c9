// Spec §7.1, the table "When the process terminated": a target node dies at each crash point of
// Instance Spot cold activation, and the restarted Framework (a later host run of the same node)
// handles what the dead run left — by its startup recovery (InstanceTarget::recover_earlier_runs)
// or when a request meets the row:
//   after the payload, before Creating -> no row points at the payload: nothing to recover;
//   after Creating, before Ready       -> the same record cancelled (Abort), the payload released;
//   after Ready, before the first message -> the row taken over (NewOwner, same ObjectGeneration),
//                                         the instance made again and the stored first message
//                                         run before any new message; end of use, payload released;
//   Ready, first message completed      -> the row taken over and deleted (the instance died).
// Every property judges every test (fixture.h): no owner act outside its lease, store truth.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/location/instance/instance_request.h"
#include "impl/platform/event_kinds.h"
#include "sim/store_host/store_server.h"
#include "sim/trace/observer.h"
#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

// The node-crash-point fault by hand: node `pid` dies at the first event of `kind` it emits.
class CrashAtFirst final : public sim::TraceObserver {
 public:
  CrashAtFirst(sim::World& world, sim::ProcessId pid, std::string_view kind) : _world(world), _pid(pid), _kind(kind) {}
  std::optional<std::string> on_event(const sim::TraceEvent& event) override {
    if (!_fired && event.kind == _kind && event.node == static_cast<std::int32_t>(_pid)) {
      _fired = true;
      _world.crash(_pid, _kind);
    }
    return std::nullopt;
  }
  bool fired() const { return _fired; }

 private:
  sim::World& _world;
  sim::ProcessId _pid;
  std::string _kind;
  bool _fired = false;
};

class CrashRecovery : public InstanceTest {
 protected:
  // A client sends "hello" to a new Chat Spot; the server dies at the first `kind` event and
  // comes back 1 s later as a new host run (published, its target attached).
  void crash_at(std::string_view kind) {
    make({client(), server({"Chat"})});
    CrashAtFirst fault(cluster->world(), cluster->pid(kServer), kind);
    cluster->world().add_observer(fault);
    cluster->send_from(kClient, cluster->call(std::string(kSpot), std::string("Chat"), "hello"));
    const bool fired = cluster->run_until([&] { return fault.fired(); }, seconds(30));
    cluster->world().remove_observer(fault);
    ASSERT_TRUE(fired) << "no " << kind;
    earlier = cluster->spot_row(std::string(kSpot));
    restart_server();
  }
  void restart_server() {
    sim::World& world = cluster->world();
    const sim::ProcessId pid = cluster->pid(kServer);
    world.at(world.now_us() + seconds(1), [&world, pid] {
      if (world.process_state(pid) == sim::ProcessState::dead) {
        world.start(pid);
      }
    });
    ASSERT_TRUE(cluster->run_until([this] { return cluster->target(kServer) != nullptr &&
                                                    cluster->world().process_run(cluster->pid(kServer)) >= 2; },
                                   seconds(30)));
  }
  // The restarted run's startup recovery, run to its end.
  void recover() {
    const TimeUs ttl_us = cluster->location_config().owner_lease_ttl_us;
    cluster->run_on(kServer, [this, ttl_us](creation::CreationNode& node) {
      cluster->target(kServer)->recover_earlier_runs(node.platform().clock.now_us() + 4 * ttl_us);
    });
  }
  std::size_t recovered(std::string_view action) {
    return cluster->events(kinds::kInstanceRecovered, "action", action).size();
  }

  std::optional<records::AuthorityRecord> earlier;  // the row as the dead run left it
};

TEST_F(CrashRecovery, AfterThePayloadNothingPointsAtItAndANewRequestCreates) {
  crash_at(kinds::kInstancePayloadStored);
  EXPECT_FALSE(earlier.has_value()) << "no Creating recorded";
  recover();
  EXPECT_TRUE(cluster->events(kinds::kInstanceRecovered).empty());
  EXPECT_EQ(cluster->store().relocation_engine().payload_count(), 1u) << "kept until its retention ends";
  const InstanceOutcome out = send(kClient, std::string(kSpot), std::string("Chat"), "again");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kCreated) << out.message;
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], std::vector<std::string>{"again"});
}

TEST_F(CrashRecovery, AfterCreatingTheSameRecordIsCancelledAndThePayloadReleased) {
  crash_at(kinds::kInstanceReserved);
  ASSERT_TRUE(earlier.has_value());
  EXPECT_EQ(earlier->allocation.state, records::AllocationState::kReserved);
  recover();
  EXPECT_EQ(recovered("creating_cancelled"), 1u);
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value());
  EXPECT_EQ(cluster->events(kinds::kInstancePayloadReleased, "reason", "recovery_cancelled").size(), 1u);
  EXPECT_EQ(cluster->store().relocation_engine().payload_count(), 0u);
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty()) << "the dead run's factory made nothing";
}

TEST_F(CrashRecovery, AfterReadyTheStoredFirstMessageRunsOnTheRestoredInstanceFirst) {
  crash_at(kinds::kInstanceReady);
  ASSERT_TRUE(earlier.has_value());
  ASSERT_EQ(earlier->allocation.state, records::AllocationState::kActive);
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty()) << "died before the first message";
  recover();
  EXPECT_EQ(recovered("first_message_restored"), 1u);
  const std::optional<records::AuthorityRecord> row = cluster->spot_row(std::string(kSpot));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->object_generation, earlier->object_generation) << "NewOwner keeps the ObjectGeneration";
  EXPECT_EQ(row->authority_owner_generation, earlier->authority_owner_generation + 1);
  EXPECT_NE(row->owner_id, earlier->owner_id) << "owned by the restarted host run";
  EXPECT_TRUE(row->payload.empty()) << "end of use recorded";
  EXPECT_EQ(cluster->store().relocation_engine().payload_count(), 0u);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], std::vector<std::string>{"hello"});
  const InstanceOutcome later = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  EXPECT_EQ(later.kind, InstanceOutcomeKind::kDelivered) << later.message;
  EXPECT_EQ(later.object_generation, earlier->object_generation);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], (std::vector<std::string>{"hello", "b"}));
}

// No startup scan: the next request meets the row and restores it before its own message runs.
TEST_F(CrashRecovery, ARequestMeetingTheRowRestoresTheFirstMessageBeforeItsOwn) {
  crash_at(kinds::kInstanceReady);
  ASSERT_TRUE(earlier.has_value());
  const InstanceOutcome later = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  EXPECT_EQ(later.kind, InstanceOutcomeKind::kDelivered) << later.message;
  EXPECT_EQ(later.object_generation, earlier->object_generation);
  EXPECT_EQ(recovered("first_message_restored"), 1u);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], (std::vector<std::string>{"hello", "b"}));
}

// Killed after the first message completed: the instance died with its run; the row is taken
// over and deleted, and the next request makes a new incarnation (a new ObjectGeneration).
TEST_F(CrashRecovery, ACompletedRowIsRemovedAndTheNextRequestMakesANewGeneration) {
  make({client(), server({"Chat"})});
  const InstanceOutcome first = send(kClient, std::string(kSpot), std::string("Chat"), "hello");
  ASSERT_EQ(first.kind, InstanceOutcomeKind::kCreated) << first.message;
  cluster->world().kill(cluster->pid(kServer));
  restart_server();
  recover();
  EXPECT_EQ(recovered("completed_removed"), 1u);
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value());
  const InstanceOutcome next = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  EXPECT_EQ(next.kind, InstanceOutcomeKind::kCreated) << next.message;
  EXPECT_GT(next.object_generation, first.object_generation);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 2);
}

// The restarted run waits until the dead run's owner lease has ended before it touches the row.
TEST_F(CrashRecovery, NothingIsRecoveredWhileTheEarlierLeaseIsValid) {
  crash_at(kinds::kInstanceReserved);
  const TimeUs restarted_us = cluster->world().now_us();
  recover();
  const std::vector<sim::TraceEvent> done = cluster->events(kinds::kInstanceRecovered);
  ASSERT_EQ(done.size(), 1u);
  const std::vector<sim::TraceEvent> crashes = cluster->events(kinds::kProcessCrash);
  ASSERT_EQ(crashes.size(), 1u);
  // The lease was renewed at most one renew interval before the crash: it ends later than that.
  const TimeUs ttl_us = cluster->location_config().owner_lease_ttl_us;
  const TimeUs renew_us = cluster->location_config().renew_interval_us;
  EXPECT_GE(done[0].time_us, crashes[0].time_us + ttl_us - renew_us) << "restarted at " << restarted_us;
}

// §10 DataLost. The server dies after Ready, before its first message; the stored request the row
// points at is then damaged by the store (store-payload-damage, by hand) before the restart.
class DataLost : public CrashRecovery {
 protected:
  using Damage = sim::StoreServer::PayloadDamage;
  void crash_after_ready_then(Damage how, TimeUs invisible_for_us = 0) {
    crash_at(kinds::kInstanceReady);
    ASSERT_TRUE(earlier.has_value());
    const std::optional<RecoveryPointer> pointer = parse_recovery_pointer(earlier->payload);
    ASSERT_TRUE(pointer.has_value());
    reference = pointer->reference;
    ASSERT_TRUE(cluster->store().damage_payload(cluster->pid(kServer), reference, how, invisible_for_us, 40));
  }
  std::vector<sim::TraceEvent> data_lost(std::string_view action) {
    return cluster->events(kinds::kInstanceDataLost, "action", action);
  }
  std::string reference;
};

TEST_F(DataLost, AStoredFirstMessageGoneForGoodIsDataLostRecordedInTheRowNeverGuessed) {
  crash_after_ready_then(Damage::kLost);
  recover();
  EXPECT_EQ(recovered("data_lost"), 1u);
  ASSERT_EQ(data_lost("recorded").size(), 1u);
  EXPECT_EQ(cluster->world().marks()[static_cast<std::size_t>(platform::Mark::kRecoveryDataLost)], 1u);
  EXPECT_EQ(cluster->events(kinds::kInstanceDataLost, "reason", "missing").size(), 1u);
  const std::optional<records::AuthorityRecord> row = cluster->spot_row(std::string(kSpot));
  ASSERT_TRUE(row.has_value()) << "the error is recorded in the current location record, not deleted";
  EXPECT_TRUE(is_data_lost(row->payload)) << row->payload;
  EXPECT_EQ(row->object_generation, earlier->object_generation);
  EXPECT_EQ(row->authority_owner_generation, earlier->authority_owner_generation + 1) << "taken over, never reverted";
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty()) << "nothing ran from a guessed payload";
  const InstanceOutcome later = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  EXPECT_EQ(later.kind, InstanceOutcomeKind::kDataLost) << later.message;
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty());
}

TEST_F(DataLost, OtherBytesUnderTheReferenceAreDataLostAndNothingIsRestoredFromThem) {
  crash_after_ready_then(Damage::kCorrupted);
  recover();
  EXPECT_EQ(recovered("data_lost"), 1u);
  EXPECT_EQ(cluster->events(kinds::kInstanceDataLost, "reason", "checksum").size(), 1u);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1) << "only the dead run's factory ran";
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty());
  const std::optional<records::AuthorityRecord> row = cluster->spot_row(std::string(kSpot));
  ASSERT_TRUE(row.has_value());
  EXPECT_TRUE(is_data_lost(row->payload)) << row->payload;
}

// Sets off a damage when the restarted run's NewOwner of the row is reported: right before the
// restore reads the stored request.
class DamageAtNewOwner final : public sim::TraceObserver {
 public:
  DamageAtNewOwner(sim::StoreServer& store, sim::ProcessId pid, std::string reference, TimeUs invisible_for_us)
      : _store(store), _pid(pid), _reference(std::move(reference)), _invisible_for_us(invisible_for_us) {}
  std::optional<std::string> on_event(const sim::TraceEvent& event) override {
    if (!_fired && event.kind == kinds::kAuthorityNewOwner && event.node == static_cast<std::int32_t>(_pid)) {
      _fired = _store.damage_payload(_pid, _reference, sim::StoreServer::PayloadDamage::kInvisible, _invisible_for_us);
    }
    return std::nullopt;
  }
  bool fired() const { return _fired; }

 private:
  sim::StoreServer& _store;
  sim::ProcessId _pid;
  std::string _reference;
  TimeUs _invisible_for_us;
  bool _fired = false;
};

// Invisible for 300 ms as the restore begins: it re-reads (about 800 ms of re-reads) and finds
// the stored request again.
TEST_F(DataLost, ATemporarilyInvisibleStoredFirstMessageIsReadAgainAndRestored) {
  crash_at(kinds::kInstanceReady);
  ASSERT_TRUE(earlier.has_value());
  const std::optional<RecoveryPointer> pointer = parse_recovery_pointer(earlier->payload);
  ASSERT_TRUE(pointer.has_value());
  DamageAtNewOwner fault(cluster->store(), cluster->pid(kServer), pointer->reference, millis(300));
  cluster->world().add_observer(fault);
  recover();
  cluster->world().remove_observer(fault);
  ASSERT_TRUE(fault.fired());
  const auto mark = [this](platform::Mark m) { return cluster->world().marks()[static_cast<std::size_t>(m)]; };
  EXPECT_EQ(mark(platform::Mark::kPayloadFoundOnReread), 1u) << "read missing first, then found again";
  EXPECT_TRUE(data_lost("recorded").empty());
  EXPECT_EQ(recovered("first_message_restored"), 1u);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], std::vector<std::string>{"hello"});
}

// The application Closes the DataLost incarnation: its row goes, and the next request makes a
// new incarnation (a new ObjectGeneration) from its own first message.
TEST_F(DataLost, ClosingTheDataLostIncarnationLetsTheNextRequestCreateANewOne) {
  crash_after_ready_then(Damage::kLost);
  recover();
  ASSERT_EQ(data_lost("recorded").size(), 1u);
  InstanceOutcome closed;
  cluster->run_on(kServer, [&](creation::CreationNode&) { closed = cluster->target(kServer)->close(std::string(kSpot)); });
  EXPECT_EQ(closed.kind, InstanceOutcomeKind::kDelivered) << closed.message;
  EXPECT_EQ(data_lost("closed").size(), 1u);
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value());
  const InstanceOutcome next = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  EXPECT_EQ(next.kind, InstanceOutcomeKind::kCreated) << next.message;
  EXPECT_GT(next.object_generation, earlier->object_generation);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], std::vector<std::string>{"b"});
}

}  // namespace
}  // namespace spotcheck::location::instance::testing
