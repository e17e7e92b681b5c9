// Issue #10 item 2: every event of a real run matches the typed struct of its kind, field for
// field. For seeds of every built-in scenario (plain and swarm), each kept event is read back
// from its rendered line, decoded into its kind's struct and written again through the struct's
// fields(): the keys, their order, their types and their values must come out unchanged. A kind
// without a struct must carry no fields. So an emitter that writes a field its struct does not
// declare (or in another order) fails here, whichever layer it is in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/events/authority_events.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/location/events/messaging_events.h"
#include "impl/location/events/object_events.h"
#include "impl/location/events/relocation_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "faults/out_of_contract.h"
#include "replay/story/trace_line.h"
#include "scenarios/registry/registry.h"
#include "sim/events/harness_events.h"
#include "sim/events/sim_events.h"

namespace spotcheck {
namespace {

constexpr std::uint64_t kSeeds = 3;

// One field as the renderer printed it (sim/trace/render.cpp): key=123 or key="text".
struct Parsed {
  std::string key;
  bool is_text = false;
  std::string text;
  std::int64_t number = 0;
  friend bool operator==(const Parsed&, const Parsed&) = default;
};

struct ParsedEvent {
  std::string kind;
  std::vector<Parsed> fields;
};

int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// The header through replay/story's parse_trace_line; its key=value fields taken apart here, with
// the renderer's escapes undone (the story keeps them, so it has no such parser).
std::optional<ParsedEvent> parse_line(std::string_view text) {
  const std::optional<replay::TraceLine> line = replay::parse_trace_line(text);
  if (!line.has_value()) {
    return std::nullopt;
  }
  ParsedEvent event{line->kind, {}};
  const std::string_view rest = line->fields;
  std::size_t at = 0;
  while (at < rest.size()) {
    const std::size_t eq = rest.find('=', at);
    if (eq == std::string_view::npos) {
      return std::nullopt;
    }
    Parsed field;
    field.key = std::string(rest.substr(at, eq - at));
    at = eq + 1;
    if (at < rest.size() && rest[at] == '"') {
      field.is_text = true;
      for (++at; at < rest.size() && rest[at] != '"'; ++at) {
        if (rest[at] == '\\' && at + 1 < rest.size() && rest[at + 1] == 'x' && at + 3 < rest.size()) {
          field.text.push_back(static_cast<char>(hex_digit(rest[at + 2]) * 16 + hex_digit(rest[at + 3])));
          at += 3;
        } else if (rest[at] == '\\' && at + 1 < rest.size()) {
          field.text.push_back(rest[++at]);
        } else {
          field.text.push_back(rest[at]);
        }
      }
      at += 2;  // the closing quote and the space
    } else {
      const std::size_t end_of_value = std::min(rest.find(' ', at), rest.size());
      field.number = std::stoll(std::string(rest.substr(at, end_of_value - at)));
      at = end_of_value + 1;
    }
    event.fields.push_back(std::move(field));
  }
  return event;
}

std::vector<Parsed> parsed_of(std::span<const platform::Field> fields) {
  std::vector<Parsed> out;
  for (const platform::Field& f : fields) {
    out.push_back(Parsed{std::string(f.key), f.is_text, f.is_text ? std::string(f.text) : std::string(),
                         f.is_text ? 0 : f.number});
  }
  return out;
}

// Decodes `fields` as E and writes them again: equal when E declares exactly those fields.
template <class E>
bool round_trips(const std::vector<Parsed>& parsed) {
  std::vector<platform::Field> input;
  for (const Parsed& p : parsed) {
    input.push_back(p.is_text ? platform::Field::str(p.key, p.text) : platform::Field::num(p.key, p.number));
  }
  E event{};
  if (!platform::decode_event(input, event).ok) {
    return false;
  }
  platform::FieldWriter<E::kFieldsMax> writer;
  fields(writer, event);
  return parsed_of(writer.fields()) == parsed;
}

using RoundTrip = std::function<bool(const std::vector<Parsed>&)>;

template <class E>
RoundTrip as() {
  return [](const std::vector<Parsed>& parsed) { return round_trips<E>(parsed); };
}

std::map<std::string_view, std::vector<RoundTrip>> struct_of_kind() {
  namespace le = location::events;
  namespace se = sim::events;
  std::map<std::string_view, std::vector<RoundTrip>> table;
  auto add = [&table](std::initializer_list<std::string_view> kinds_of, RoundTrip trip) {
    for (std::string_view kind : kinds_of) {
      table[kind].push_back(trip);
    }
  };
  using namespace kinds;
  add({kLeaseRegistered, kLeaseRenewed}, as<le::LeaseAdopted>());
  add({kLeaseRegisterFailed}, as<le::LeaseRegisterFailed>());
  add({kLeaseStartupChecked}, as<le::LeaseStartupChecked>());
  add({kLeaseRenewFailed}, as<le::LeaseRenewFailed>());
  add({kLeaseLost}, as<le::LeaseLost>());
  add({kLeaseAdmissionClosed}, as<le::LeaseAdmissionClosed>());
  add({kLeaseAdmissionReopened}, as<le::LeaseAdmissionReopened>());
  add({kAdmissionRefused}, as<le::AdmissionRefused>());
  add({kGenerationExhausted}, as<le::GenerationExhausted>());
  add({kStoreIndeterminate}, as<le::StoreIndeterminate>());
  add({kAuthorityReserve, kAuthorityCommit, kAuthorityAbort, kAuthorityPreserve, kAuthorityNewOwner,
       kAuthorityDelete},
      as<le::AuthorityChanged>());
  add({kCapacityChanged}, as<le::CapacityChanged>());
  add({kCapacityRefused}, as<le::CapacityRefused>());
  add({kDescriptorPublished}, as<le::DescriptorPublished>());
  add({kDescriptorListRead}, as<le::DescriptorListRead>());
  add({kPlacementChosen}, as<le::PlacementChosen>());
  add({kPlacementNoCandidate}, as<le::PlacementNoCandidate>());
  add({kSweepFinished}, as<le::SweepFinished>());
  add({kCreationRequested}, as<le::CreationRequested>());
  add({kCreationCommandSent}, as<le::CreationCommandSent>());
  add({kCreationReplyDelivered}, as<le::CreationReplyDelivered>());
  add({kCreationResultReread}, as<le::CreationResultReread>());
  add({kCreationAbandonedCancelled}, as<le::CreationAbandonedCancelled>());
  add({kCreationFinished}, as<le::CreationFinished>());
  add({kCreationCommandReceived}, as<le::CreationCommandReceived>());
  add({kCreationVerifyFailed}, as<le::CreationVerifyFailed>());
  add({kCreationFactoryRun}, as<le::CreationFactoryRun>());
  add({kCreationFactoryReturned}, as<le::CreationFactoryReturned>());
  add({kCreationResult}, as<le::CreationResult>());
  add({kCreationReplySent}, as<le::CreationReplySent>());
  add({kFindResult}, as<le::FindResult>());
  add({kCloseRequested}, as<le::CloseRequested>());
  add({kCloseResult}, as<le::CloseResult>());
  add({kCloseReplyDelivered}, as<le::CloseReplyDelivered>());
  add({kCloseFinished}, as<le::CloseFinished>());
  add({kCreationResultExpired}, as<le::CreationResultExpired>());
  add({kInstanceRequestSent}, as<le::InstanceRequestSent>());
  add({kInstanceTypeSelected}, as<le::InstanceTypeSelected>());
  add({kInstanceRouted}, as<le::InstanceRouted>());
  add({kInstanceAuthorityRead}, as<le::InstanceAuthorityRead>());
  add({kInstanceResubmitted}, as<le::InstanceResubmitted>());
  add({kInstanceReplyDelivered}, as<le::InstanceReplyDelivered>());
  add({kInstanceRequestReceived}, as<le::InstanceRequestReceived>());
  add({kInstancePayloadStored}, as<le::InstancePayloadStored>());
  add({kInstanceReserved}, as<le::InstanceReserved>());
  add({kInstanceReserveLost}, as<le::InstanceReserveLost>());
  add({kInstanceFactoryRun}, as<le::InstanceFactoryRun>());
  add({kInstanceReady}, as<le::InstanceReady>());
  add({kInstanceFirstMessageRun, kInstanceMessageRun}, as<le::InstanceMessageRun>());
  add({kInstanceEndOfUseRecorded}, as<le::InstanceEndOfUseRecorded>());
  add({kInstancePayloadReleased}, as<le::InstancePayloadReleased>());
  add({kInstanceOutcome}, as<le::InstanceOutcome>());
  add({kInstanceClosing}, as<le::InstanceClosing>());
  add({kInstanceClosed}, as<le::InstanceClosed>());
  add({kInstanceReincarnating}, as<le::InstanceReincarnating>());
  add({kInstanceCloseAwaited}, as<le::InstanceCloseAwaited>());
  add({kInstanceRecovered}, as<le::InstanceRecovered>());
  add({kInstanceDataLost}, as<le::InstanceDataLost>());
  add({kMessagingUndecodable}, as<le::MessagingUndecodable>());
  add({kMessagingLateReply}, as<le::MessagingLateReply>());
  add({kObjectActivated, kObjectDeactivated}, as<le::ObjectHosted>());
  add({kObjectTurn}, as<le::ObjectTurn>());
  add({kObjectTurnRefused, kObjectMessageRefused}, as<le::ObjectRefused>());
  add({kObjectTimerStarted}, as<le::ObjectTimerStarted>());
  add({kObjectMessageSent}, as<le::ObjectMessageSent>());
  add({kObjectMessageAnswered}, as<le::ObjectMessageAnswered>());
  add({kCacheFilled}, as<le::RouteCacheFilled>());
  add({kCacheHit, kCacheDropped}, as<le::RouteCacheUse>());
  add({kRelocationRejected, kRelocationStarted, kRelocationCaptured, kRelocationRelayReady, kRelocationHandedOver,
       kRelocationCancelled, kRelocationReady, kRelocationFailed},
      as<le::RelocationProgress>());
  add({kRelocationMessageMoved, kRelocationWorkReturned, kRelocationMessageLate}, as<le::RelocationMessage>());
  add({kRequestStart}, as<se::RequestStart>());
  add({kRequestStart}, as<se::AuthorityRequestStart>());  // the authority workload's order
  add({kRequestEnd}, as<se::RequestEnd>());
  add({kObjectWork}, as<se::ObjectWork>());
  add({kNodeGaveUp}, as<se::NodeGaveUp>());
  add({kFaultsPlan}, as<se::FaultsPlan>());
  add({kSyntheticBoot}, as<se::SyntheticBoot>());
  add({kSyntheticReply}, as<se::SyntheticReply>());
  add({kSyntheticRecv}, as<se::SyntheticRecv>());
  add({kSyntheticTick}, as<se::SyntheticTick>());
  add({kProcessAdd}, as<se::ProcessAdd>());
  add({kProcessStart, kProcessKill, kProcessExit}, as<se::ProcessRun>());
  add({kProcessCrash}, as<se::ProcessCrash>());
  add({kProcessPause}, as<se::ProcessPause>());
  add({kProcessUnpause}, as<se::ProcessUnpause>());
  add({kClockDrift}, as<se::ClockDrift>());
  add({kClockStepped}, as<se::ClockStepped>());
  add({kSpawn}, as<se::Spawn>());
  add({kSpawnRefused}, as<se::SpawnRefused>());
  add({kAction}, as<se::Action>());
  add({kViolation}, as<se::Violation>());
  add({kFailure}, as<se::Failure>());
  add({kNetLink}, as<se::NetLink>());
  add({kNetStall}, as<se::NetStall>());
  add({kNetPartition}, as<se::NetPartition>());
  add({kNetHeal, kNetDisconnect, kNetReconnect}, as<se::NetPair>());
  add({kNetDrop}, as<se::NetDrop>());
  add({kNetSend, kNetPost}, as<se::NetSend>());
  add({kNetDeliver, kNetDeferred}, as<se::NetDeliver>());
  add({kStoreRequestLost, kStoreReplyLost, kStoreRefused, kStoreStalled, kStoreScanExpired}, as<se::StoreOp>());
  add({kStoreReplyDelayed, kStoreWriteHeld, kStoreWriteLate, kStorePausedCaller, kStoreFrozeCaller}, as<se::StoreHold>());
  add({kStoreStallEnd}, as<se::StoreStallEnd>());
  add({kStoreOutageBegin, kStoreOutageEnd, kStoreStallBegin}, as<se::StoreOutage>());
  add({kStorePayloadApplied}, as<se::StorePayloadApplied>());
  add({kStorePayloadDamaged}, as<se::StorePayloadDamaged>());
  add({kStoreApplied}, as<se::StoreApplied>());
  add({kStoreClockJumped}, as<se::StoreClockJumped>());
  add({kStoreWritesLost}, as<se::StoreWritesLost>());
  add({kStoreWriteLost}, as<se::StoreWriteLost>());
  return table;
}

TEST(TypedEvents, EveryEventOfEveryBuiltInScenarioMatchesItsStruct) {
  const auto table = struct_of_kind();
  std::set<std::string> kinds_seen;
  std::uint64_t events = 0;
  for (const scenarios::Scenario* scenario : scenarios::builtin_scenarios().all()) {
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      // Plain, swarm, and (the scenarios that take them) with every out-of-contract fault on.
      for (const int variant : {0, 1, 2}) {
        const bool swarm = variant == 1;
        if (variant == 2 && !scenario->takes_out_of_contract()) {
          continue;
        }
        scenarios::SeedRequest request{seed, swarm, true};
        request.out_of_contract = variant == 2 ? faults::all_out_of_contract() : 0;
        const scenarios::SeedOutcome outcome = scenario->run(request);
        ASSERT_FALSE(outcome.event_lines.empty()) << scenario->name();
        for (const std::string& line : outcome.event_lines) {
          const std::optional<ParsedEvent> parsed = parse_line(line);
          ASSERT_TRUE(parsed.has_value()) << line;
          ++events;
          kinds_seen.insert(parsed->kind);
          const auto entry = table.find(parsed->kind);
          if (entry == table.end()) {
            EXPECT_TRUE(parsed->fields.empty()) << "a kind without a struct carries fields: " << line;
            continue;
          }
          bool matched = false;
          for (const RoundTrip& trip : entry->second) {
            matched = matched || trip(parsed->fields);
          }
          EXPECT_TRUE(matched) << scenario->name() << " seed " << seed << (swarm ? " --swarm" : "")
                               << (variant == 2 ? " --out-of-contract all" : "")
                               << ": the struct of " << parsed->kind << " does not write this event back: " << line;
        }
      }
    }
  }
  // The runs reach every layer's kinds (so the check above is not vacuous).
  for (std::string_view kind : {kinds::kAuthorityNewOwner, kinds::kCreationFactoryRun, kinds::kInstanceMessageRun,
                                kinds::kLeaseRenewed, kinds::kProcessKill, kinds::kNetDrop, kinds::kStoreReplyLost,
                                kinds::kRequestEnd, kinds::kObjectWork, kinds::kSyntheticRecv, kinds::kClockStepped,
                                kinds::kStoreClockJumped, kinds::kStoreWritesLost, kinds::kStoreWriteLost}) {
    EXPECT_TRUE(kinds_seen.count(std::string(kind)) > 0) << kind;
  }
  EXPECT_GT(events, 10'000u);
}

TEST(TypedEvents, AnEventWithAFieldItsStructDoesNotDeclareDoesNotRoundTrip) {
  const std::vector<Parsed> lost = {{"owner", true, "o", 0}, {"lease_gen", false, "", 1},
                                    {"reason", true, "r", 0}, {"now_us", false, "", 5}};
  EXPECT_TRUE(round_trips<location::events::LeaseLost>(lost));
  std::vector<Parsed> extra = lost;
  extra.push_back({"extra", false, "", 1});
  EXPECT_FALSE(round_trips<location::events::LeaseLost>(extra));
  std::vector<Parsed> reordered = {lost[1], lost[0], lost[2], lost[3]};
  EXPECT_FALSE(round_trips<location::events::LeaseLost>(reordered));
  EXPECT_EQ(parse_line("#3 t=5us node-0 task=2 lease.lost owner=\"o\" lease_gen=1 reason=\"r\" now_us=5")->fields,
            lost);
}

}  // namespace
}  // namespace spotcheck
