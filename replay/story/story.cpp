#include "replay/story/story.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "replay/story/process_names.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

namespace {

constexpr std::size_t kLineCharsMax = 220;

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

using properties::ViolationSubjects;

// What the violating event and the cited events name themselves, added to the violation's
// subjects (the suite could read the cited events only where its trace kept them).
void add_named_by(ViolationSubjects& s, const TraceLine& line) {
  if (const auto id = text_field(line, ViolationSubjects::kObjectField)) {
    s.add_object(*id);
  }
  for (const std::string_view key : ViolationSubjects::kHostRunFields) {
    if (const auto owner = text_field(line, key)) {
      s.add_host_run(*owner);
    }
  }
}

// The OwnerIds (UUID-shaped: 8-4-4-4-12 hex digits) a violation message names: a checker that
// judges store writes (store-truth) names its host runs only in its sentence. Read only when the
// violating and cited events name no subject.
std::vector<std::string> owner_ids_in(std::string_view message) {
  constexpr std::string_view kShape = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  std::vector<std::string> ids;
  for (std::size_t at = 0; at + kShape.size() <= message.size(); ++at) {
    bool fits = at == 0 || !hex(message[at - 1]);
    for (std::size_t i = 0; fits && i < kShape.size(); ++i) {
      fits = kShape[i] == '-' ? message[at + i] == '-' : hex(message[at + i]);
    }
    fits = fits && (at + kShape.size() == message.size() || !hex(message[at + kShape.size()]));
    if (fits) {
      ids.emplace_back(message.substr(at, kShape.size()));
      at += kShape.size() - 1;
    }
  }
  return ids;
}

bool is_node_fault(const std::string& kind) {
  return kind == kinds::kProcessKill || kind == kinds::kProcessPause || kind == kinds::kProcessUnpause ||
         kind == kinds::kProcessStart || kind == kinds::kProcessExit || kind == kinds::kClockDrift ||
         kind == kinds::kNodeGaveUp;
}

// Whether `kind` is one of `kinds_of_interest`.
bool one_of(std::string_view kind, std::initializer_list<std::string_view> kinds_of_interest) {
  return std::find(kinds_of_interest.begin(), kinds_of_interest.end(), kind) != kinds_of_interest.end();
}

bool is_world_fault(const std::string& kind) {
  return kind == kinds::kStoreOutageBegin || kind == kinds::kStoreOutageEnd || kind == kinds::kFaultsStopped ||
         kind == kinds::kNetHealAll;
}

bool is_store_fault(const std::string& kind) {
  return kind == kinds::kStoreRequestLost || kind == kinds::kStoreReplyLost || kind == kinds::kStoreReplyDelayed ||
         kind == kinds::kStoreRefused || kind == kinds::kStoreWriteHeld;
}

// The nodes a fault event hit ("" when none of them is a node).
std::vector<std::string> fault_targets(const TraceLine& line, const ProcessNames& names) {
  if (is_node_fault(line.kind)) {
    return {line.node};
  }
  if (is_store_fault(line.kind)) {
    return {names.of_pid(number_field(line, "node"))};
  }
  if (line.kind == kinds::kNetPartition || line.kind == kinds::kNetDrop) {
    return {names.of_rid(number_field(line, "from")), names.of_rid(number_field(line, "to"))};
  }
  if (line.kind == kinds::kNetHeal) {
    return {names.of_rid(number_field(line, "a")), names.of_rid(number_field(line, "b"))};
  }
  return {};
}

// The store's own account of a write to a subject's record (store.applied, the store host's
// ground truth): a subject object's authority row ("authority/<kind>/<id>") or a subject host
// run's owner lease row ("owner-lease/<OwnerId>"). These are the writes the story's protocol
// events read and claim.
bool store_write_about_subjects(const TraceLine& line, const ViolationSubjects& s) {
  if (line.kind != kinds::kStoreApplied) {
    return false;
  }
  const std::optional<std::string> key = text_field(line, "key");
  if (!key.has_value()) {
    return false;
  }
  constexpr std::string_view kAuthority = "authority/";
  constexpr std::string_view kLease = "owner-lease/";
  if (key->starts_with(kAuthority)) {
    const std::size_t slash = key->find('/', kAuthority.size());
    return slash != std::string::npos && contains(s.objects, key->substr(slash + 1));
  }
  return key->starts_with(kLease) && contains(s.host_runs, key->substr(kLease.size()));
}

// The OwnerId of an owner lease row's store write, or nullopt.
std::optional<std::string> lease_row_owner(const TraceLine& line) {
  constexpr std::string_view kLease = "owner-lease/";
  const std::optional<std::string> key = text_field(line, "key");
  if (line.kind != kinds::kStoreApplied || !key.has_value() || !key->starts_with(kLease)) {
    return std::nullopt;
  }
  return key->substr(kLease.size());
}

bool about_subjects(const TraceLine& line, const ViolationSubjects& s) {
  if (const auto id = text_field(line, ViolationSubjects::kObjectField); id && contains(s.objects, *id)) {
    return true;
  }
  const bool lease_event =
      line.kind.starts_with("lease.") || line.kind.starts_with("descriptor.") || line.kind == kinds::kNodeGaveUp;
  if (const auto owner = text_field(line, "owner"); lease_event && owner && contains(s.host_runs, *owner)) {
    return true;
  }
  return false;
}

// The events up to the violating one (an end-of-run violation: the whole trace), the names of the
// processes they add, and the subjects widened by what the key events name.
struct StoryInput {
  std::vector<TraceLine> lines;
  ProcessNames names;
  ViolationSubjects subjects;
};

bool is_key(const TraceLine& line, const scenarios::Violation& violation, const ViolationSubjects& s) {
  return line.index == violation.event_index || s.cites(line.index);
}

StoryInput read_story_input(const std::vector<std::string>& event_lines, const scenarios::Violation& violation) {
  StoryInput input{{}, {}, violation.subjects};
  for (const std::string& text : event_lines) {
    auto line = parse_trace_line(text);
    if (!line.has_value() || line->index > violation.event_index) {
      continue;
    }
    input.names.read(*line);
    if (is_key(*line, violation, input.subjects)) {
      add_named_by(input.subjects, *line);
    }
    input.lines.push_back(std::move(*line));
  }
  // A violating event that names no subject (a store write judged by store-truth): the host runs
  // its sentence names.
  if (input.subjects.objects.empty() && input.subjects.host_runs.empty()) {
    for (const std::string& owner : owner_ids_in(violation.message)) {
      input.subjects.add_host_run(owner);
    }
  }
  return input;
}

// The events about the subjects and the faults that hit their nodes, the store or the whole world.
struct Relevant {
  std::vector<StoryEvent> events;
  std::vector<std::vector<std::string>> fault_targets;  // per event: the nodes a fault hit
  std::set<std::string> nodes;
};

Relevant relevant_events(const StoryInput& input, const scenarios::Violation& violation) {
  Relevant relevant;
  // Pass 1: the events about the subjects, and the nodes they happened on.
  std::vector<bool> taken(input.lines.size(), false);
  for (std::size_t i = 0; i < input.lines.size(); ++i) {
    const TraceLine& line = input.lines[i];
    if (is_key(line, violation, input.subjects) || about_subjects(line, input.subjects)) {
      taken[i] = true;
      if (line.node != "world") {
        relevant.nodes.insert(line.node);
      }
    }
  }
  std::vector<bool> store_write(input.lines.size(), false);
  for (std::size_t i = 0; i < input.lines.size(); ++i) {
    store_write[i] = !taken[i] && store_write_about_subjects(input.lines[i], input.subjects);
  }
  // Pass 2: add the faults that hit those nodes, the store or the whole world.
  for (std::size_t i = 0; i < input.lines.size(); ++i) {
    const TraceLine& line = input.lines[i];
    bool fault = is_world_fault(line.kind);
    for (const std::string& target : fault_targets(line, input.names)) {
      fault = fault || relevant.nodes.count(target) > 0;
    }
    if (taken[i] || fault || store_write[i]) {
      relevant.events.push_back(
          StoryEvent{line, is_key(line, violation, input.subjects), fault && !taken[i], store_write[i] && !fault});
      relevant.fault_targets.push_back(fault && !taken[i] ? fault_targets(line, input.names) : std::vector<std::string>{});
    }
  }
  return relevant;
}

// The (record key, StoreVersion) a protocol event reports it applied or adopted: an authority.*
// event's row, a lease.registered / lease.renewed's lease row.
std::optional<std::pair<std::string, std::int64_t>> claimed_write(const TraceLine& line) {
  const std::optional<std::int64_t> version = number_field(line, "version");
  if (!version.has_value()) {
    return std::nullopt;
  }
  if (line.kind.starts_with("authority.")) {
    const auto kind = text_field(line, "kind");
    const auto id = text_field(line, ViolationSubjects::kObjectField);
    if (kind && id) {
      return std::make_pair("authority/" + *kind + "/" + *id, *version);
    }
  }
  if (line.kind == kinds::kLeaseRegistered || line.kind == kinds::kLeaseRenewed) {
    if (const auto owner = text_field(line, "owner")) {
      return std::make_pair("owner-lease/" + *owner, *version);
    }
  }
  return std::nullopt;
}

// Folds the store's writes a protocol event of the story confirms (same key and StoreVersion):
// the story keeps the store's account where it tells something the protocol's events do not — a
// write applied late, unseen, or never reported. Returns how many it folded.
std::uint64_t fold_confirmed_writes(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold) {
  std::set<std::pair<std::string, std::int64_t>> claimed;
  for (const StoryEvent& e : relevant) {
    if (auto write = claimed_write(e.line)) {
      claimed.insert(std::move(*write));
    }
  }
  std::uint64_t folded = 0;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const StoryEvent& e = relevant[i];
    if (!e.store || e.key || fold[i]) {
      continue;
    }
    const auto key = text_field(e.line, "key");
    const auto version = number_field(e.line, "new_version");
    if (key && version && claimed.contains({*key, *version})) {
      fold[i] = true;
      ++folded;
    }
  }
  return folded;
}

// The events of requests that changed nothing — they used their object, or found it owned
// elsewhere, or made only Instance Spot exchanges the story folds (`routine_ops`, by OperationId)
// — by index into `relevant`: a request's events are those of its task from its request.start to
// its request.end.
// Whether a request's event only read: found its object, used or filled a route cache, sent a
// message (its run is the owner's), or asked GetOrCreate for an object that existed. A cache event
// counts only off the nodes of the key events (there the cache is what the story is about).
bool read_only_event(const TraceLine& line, const std::set<std::string>& key_nodes) {
  const std::string_view kind = line.kind;
  if (kind == kinds::kCacheHit || kind == kinds::kCacheFilled || kind == kinds::kCacheDropped) {
    return !key_nodes.contains(line.node);
  }
  if (kind == kinds::kCreationFinished) {
    return text_field(line, "outcome") == "existing";
  }
  if (kind == kinds::kObjectMessageAnswered) {  // a lost or refused message is the story's
    const std::optional<std::string> outcome = text_field(line, "outcome");
    return outcome == "ran" || outcome == "sent";
  }
  return one_of(kind, {kinds::kRequestStart, kinds::kRequestEnd, kinds::kFindResult, kinds::kCreationRequested,
                       kinds::kObjectMessageSent, kinds::kInstanceTypeSelected});
}

// A request that only asked and was answered — its events are the request, a creation call and its
// end, an Instance Spot type choice, a find — has a signature "<mode> <outcome>"; nullopt for any
// other request.
std::optional<std::string> answer_signature(const std::vector<StoryEvent>& relevant,
                                            const std::vector<std::size_t>& events) {
  std::string mode;
  std::string outcome;
  for (const std::size_t j : events) {
    const TraceLine& line = relevant[j].line;
    if (line.kind == kinds::kCreationRequested) {
      mode = text_field(line, "mode").value_or("");
    } else if (line.kind == kinds::kCreationFinished || line.kind == kinds::kRequestEnd) {
      outcome = text_field(line, "outcome").value_or(outcome);
    } else if (line.kind != kinds::kRequestStart && line.kind != kinds::kInstanceTypeSelected &&
               line.kind != kinds::kFindResult) {
      return std::nullopt;
    }
  }
  if (outcome.empty()) {
    return std::nullopt;
  }
  return (mode.empty() ? std::string("request") : mode) + " " + outcome;
}

void fold_routine_requests(const std::vector<StoryEvent>& relevant, const std::set<std::string>& routine_ops,
                           std::vector<bool>& fold, Story& story) {
  // Requests that only asked and were answered, by signature: all but the last of each are folded.
  std::map<std::string, std::vector<std::vector<std::size_t>>> answered;
  std::set<std::string> key_nodes;
  for (const StoryEvent& e : relevant) {
    if (e.key) {
      key_nodes.insert(e.line.node);
    }
  }
  // A request ends at its request.end, or (when the story holds no request.end of it) at its task's
  // next request.start; `outcome` is its request.end's, if any.
  // `ended`: false for a request still open where the story ends (then only a request whose every
  // exchange was folded is: its answer came).
  auto close = [&](const std::vector<std::size_t>& events, const std::optional<std::string>& outcome, bool ended) {
    bool no_key = true;
    bool routine_op = false;
    bool other_op = false;
    bool read_only = true;
    for (const std::size_t j : events) {
      no_key = no_key && !relevant[j].key;
      const std::optional<std::string> op = text_field(relevant[j].line, "op_id");
      if (op.has_value() && relevant[j].line.kind.starts_with("instance.")) {
        (routine_ops.contains(*op) ? routine_op : other_op) = true;
      }
      read_only = read_only && read_only_event(relevant[j].line, key_nodes);
    }
    const bool instance_request = routine_op && !other_op;  // every exchange it made was folded
    read_only = read_only && ended;
    // "rejected": a move the relocation policies refused before Capture (§2) changed nothing.
    const bool unchanged = outcome == "used" || outcome == "owned-elsewhere" || outcome == "rejected";
    if (no_key && (unchanged || instance_request || read_only)) {
      for (const std::size_t j : events) {
        story.folded_request_events += fold[j] ? 0 : 1;  // an exchange's events are counted there
        fold[j] = true;
      }
      ++story.folded_requests;
    } else if (const auto signature = answer_signature(relevant, events); ended && no_key && signature.has_value()) {
      answered[*signature].push_back(events);
    }
  };
  std::map<std::pair<std::string, std::uint64_t>, std::vector<std::size_t>> open;  // (node, task) -> events
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    if (!line.task.has_value()) {
      continue;
    }
    const auto task = std::make_pair(line.node, *line.task);
    if (line.kind == kinds::kRequestStart) {
      if (const auto it = open.find(task); it != open.end()) {
        close(it->second, std::nullopt, true);
      }
      open[task] = {i};
      continue;
    }
    const auto it = open.find(task);
    if (it == open.end()) {
      continue;
    }
    it->second.push_back(i);
    if (line.kind == kinds::kRequestEnd) {
      close(it->second, text_field(line, "outcome"), true);
      open.erase(it);
    }
  }
  for (const auto& [task, events] : open) {
    close(events, std::nullopt, false);
  }
  for (const auto& [signature, requests] : answered) {
    for (std::size_t r = 0; r + 1 < requests.size(); ++r) {
      for (const std::size_t j : requests[r]) {
        story.folded_repeated_request_events += fold[j] ? 0 : 1;
        fold[j] = true;
      }
    }
    if (requests.size() > 1) {
      story.folded_repeated_requests += requests.size() - 1;
      story.folded_repeated_signatures += (story.folded_repeated_signatures.empty() ? "" : ", ") + signature + " x" +
                                    std::to_string(requests.size() - 1);
    }
  }
}

// The events an Instance Spot exchange that ran nothing and changed nothing may have: the request
// and its answer, a route, a resubmission, the client's authority reads, a first-message payload
// stored and released again (an activation that never reserved).
bool idle_exchange_kind(std::string_view kind) {
  return one_of(kind, {kinds::kInstanceRequestSent, kinds::kInstanceRequestReceived, kinds::kInstanceOutcome,
                       kinds::kInstanceReplyDelivered, kinds::kInstanceRouted, kinds::kInstanceResubmitted,
                       kinds::kInstanceAuthorityRead, kinds::kInstancePayloadStored, kinds::kInstancePayloadReleased});
}

// The events of an Instance Spot cold activation that went as it should (§7.1), by OperationId: the
// request and its answer, the payload stored, the Reserve, the factory, the first message run, the
// payload released once its use ended. (Its authority writes and instance.ready carry no
// OperationId: they stay in the story.)
bool activation_kind(std::string_view kind) {
  return one_of(kind, {kinds::kInstanceRequestSent, kinds::kInstanceRequestReceived, kinds::kInstancePayloadStored,
                       kinds::kInstanceReserved, kinds::kInstanceFactoryRun, kinds::kInstanceFirstMessageRun,
                       kinds::kInstancePayloadReleased, kinds::kInstanceOutcome, kinds::kInstanceReplyDelivered});
}

// Instance Spot exchanges (§7.1) a story can fold, none of their events key: those that went as
// they should (a request sent once, received, run once on a Ready instance, its outcome and reply
// `delivered`, nothing else about its OperationId) and those that ran nothing and changed nothing
// (answered — an error, a timeout — with only idle_exchange_kind events). Folds their events and
// returns their OperationIds (the client request that made one is folded too).
std::set<std::string> fold_routine_instance_exchanges(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold,
                                                      Story& story) {
  struct Exchange {
    std::vector<std::size_t> events;
    int sent = 0;
    int runs = 0;
    bool answered = false;         // a reply_delivered, whatever its outcome
    bool delivered = false;        // ... `delivered`
    bool off_routine = false;      // a key event, an outcome other than delivered, or any other kind
    bool off_idle = false;         // a key event or a kind that runs or changes something
    bool created = false;          // a reply_delivered `created`: a cold activation (§7.1)
    bool off_activation = false;   // a key event or a kind a cold activation does not have
  };
  std::map<std::string, Exchange> exchanges;  // by op_id (ordered)
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    if (fold[i]) {
      continue;
    }
    const std::optional<std::string> op = text_field(line, "op_id");
    if (!op.has_value() || op->empty() || !(line.kind.starts_with("instance.") || line.kind.starts_with("authority."))) {
      continue;
    }
    Exchange& exchange = exchanges[*op];
    exchange.events.push_back(i);
    const bool delivered = text_field(line, "outcome") == "delivered";
    exchange.sent += line.kind == kinds::kInstanceRequestSent ? 1 : 0;
    exchange.runs += line.kind == kinds::kInstanceMessageRun ? 1 : 0;
    exchange.answered = exchange.answered || line.kind == kinds::kInstanceReplyDelivered;
    exchange.delivered = exchange.delivered || (line.kind == kinds::kInstanceReplyDelivered && delivered);
    const bool routine_kind = line.kind == kinds::kInstanceRequestSent ||
                              line.kind == kinds::kInstanceRequestReceived || line.kind == kinds::kInstanceMessageRun ||
                              ((line.kind == kinds::kInstanceOutcome || line.kind == kinds::kInstanceReplyDelivered) &&
                               delivered);
    exchange.off_routine = exchange.off_routine || relevant[i].key || !routine_kind;
    exchange.off_idle = exchange.off_idle || relevant[i].key || !idle_exchange_kind(line.kind);
    exchange.created = exchange.created ||
                       (line.kind == kinds::kInstanceReplyDelivered && text_field(line, "outcome") == "created");
    exchange.off_activation = exchange.off_activation || relevant[i].key || !activation_kind(line.kind);
  }
  std::set<std::string> foldable;
  for (const auto& [op, exchange] : exchanges) {
    const bool routine = !exchange.off_routine && exchange.sent == 1 && exchange.runs == 1 && exchange.delivered;
    const bool idle = !exchange.off_idle && exchange.answered;
    const bool activation = !exchange.off_activation && exchange.created && exchange.sent == 1;
    if (!routine && !idle && !activation) {
      continue;
    }
    for (const std::size_t i : exchange.events) {
      fold[i] = true;
    }
    foldable.insert(op);
    (routine ? story.folded_instance_requests : idle ? story.folded_idle_instance_requests : story.folded_instance_activations) += 1;
    (routine  ? story.folded_instance_request_events
     : idle   ? story.folded_idle_instance_request_events
              : story.folded_instance_activation_events) += exchange.events.size();
  }
  return foldable;
}

// The events of regular messages that went as they should — sent, run once, and answered `ran`
// (or, for a Send, `sent` and run) — none of them key: object.message_sent, object.turn and
// object.message_answered of one OperationId. A lost, refused, unanswered or twice-run message
// keeps its events.
void fold_routine_messages(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold, Story& story) {
  struct Message {
    std::vector<std::size_t> events;
    int turns = 0;
    std::string answer;
    bool key = false;
  };
  std::map<std::string, Message> messages;  // by op_id (ordered: nothing depends on hash order)
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    const bool sent = line.kind == kinds::kObjectMessageSent;
    const bool turn = line.kind == kinds::kObjectTurn;
    const bool answered = line.kind == kinds::kObjectMessageAnswered;
    if (fold[i] || !(sent || turn || answered)) {
      continue;
    }
    const std::optional<std::string> op = text_field(line, "op_id");
    if (!op.has_value() || op->empty()) {
      continue;  // a timer's turn
    }
    Message& message = messages[*op];
    message.events.push_back(i);
    message.turns += turn ? 1 : 0;
    message.key = message.key || relevant[i].key;
    if (answered) {
      message.answer = text_field(line, "outcome").value_or("");
    }
  }
  for (const auto& [op, message] : messages) {
    // A turn alone: the sender's side is not about the story's subjects (a handler's Send).
    const bool turn_alone = message.events.size() == 1 && message.answer.empty();
    const bool routine =
        !message.key && message.turns == 1 && (message.answer == "ran" || message.answer == "sent" || turn_alone);
    if (!routine) {
      continue;
    }
    for (const std::size_t i : message.events) {
      fold[i] = true;
    }
    ++story.folded_messages;
    story.folded_message_events += message.events.size();
  }
}

// Creations that went as they should (§7): every creation.* event of one OperationId, none key, its
// result `created` and nothing but the usual steps (no verify failure, re-read, expiry or abandoned
// cancel). The authority writes it made stay in the story (they have no OperationId): its Reserve
// and Commit tell what the ceremony did. Returns how many it folded; their events go to `events`.
std::uint64_t fold_routine_creations(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold,
                                     std::uint64_t& events) {
  struct Creation {
    std::vector<std::size_t> events;
    bool created = false;
    bool other = false;
  };
  std::map<std::string, Creation> creations;  // by op_id (ordered)
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    if (fold[i] || !line.kind.starts_with("creation.")) {
      continue;
    }
    const std::optional<std::string> op = text_field(line, "op_id");
    if (!op.has_value() || op->empty()) {
      continue;
    }
    Creation& creation = creations[*op];
    creation.events.push_back(i);
    creation.created = creation.created || (line.kind == kinds::kCreationFinished &&
                                            text_field(line, "outcome") == "created");
    const bool usual = one_of(line.kind, {kinds::kCreationRequested, kinds::kCreationCommandSent,
                                          kinds::kCreationCommandReceived, kinds::kCreationFactoryRun,
                                          kinds::kCreationFactoryReturned, kinds::kCreationResult,
                                          kinds::kCreationReplySent, kinds::kCreationReplyDelivered,
                                          kinds::kCreationFinished});
    creation.other = creation.other || relevant[i].key || !usual;
  }
  std::uint64_t folded = 0;
  for (const auto& [op, creation] : creations) {
    if (creation.other || !creation.created) {
      continue;
    }
    for (const std::size_t i : creation.events) {
      fold[i] = true;
    }
    ++folded;
    events += creation.events.size();
  }
  return folded;
}

// Relocations that went as they should (§1.3): one binding's relocation.started, captured,
// relay_ready, handed_over (settled: no `why`) and ready, and its message_moved, nothing else of
// the binding (no cancel, failure, returned work, late relay) and none of them key. Their
// relocation.* events fold, and so does the request that made the move (its request.start and its
// request.end "handed_over" on the same task); the target's NewOwner and the instances' deactivation
// and activation stay: they tell where the object went. Returns how many moves it folded; their
// events go to `events`.
std::uint64_t fold_routine_moves(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold,
                                 std::uint64_t& events) {
  struct Move {
    std::vector<std::size_t> indexes;
    std::optional<std::size_t> started;
    bool handed_over = false;
    bool ready = false;
    bool spoiled = false;
  };
  std::map<std::string, Move> moves;  // by binding
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    if (fold[i] || !line.kind.starts_with("relocation.")) {
      continue;
    }
    const std::optional<std::string> binding = text_field(line, "binding");
    if (!binding.has_value() || binding->empty()) {
      continue;
    }
    Move& move = moves[*binding];
    move.indexes.push_back(i);
    move.spoiled = move.spoiled || relevant[i].key;
    if (line.kind == kinds::kRelocationStarted) {
      move.started = i;
    } else if (line.kind == kinds::kRelocationHandedOver) {
      move.handed_over = text_field(line, "why").value_or("").empty();
      move.spoiled = move.spoiled || !move.handed_over;
    } else if (line.kind == kinds::kRelocationReady) {
      move.ready = true;
    } else if (line.kind != kinds::kRelocationCaptured && line.kind != kinds::kRelocationRelayReady &&
               line.kind != kinds::kRelocationMessageMoved) {
      move.spoiled = true;  // cancelled, failed, work returned, a late relay
    }
  }
  std::uint64_t folded = 0;
  for (const auto& [binding, move] : moves) {
    if (move.spoiled || !move.started.has_value() || !move.handed_over || !move.ready) {
      continue;
    }
    for (const std::size_t i : move.indexes) {
      fold[i] = true;
      ++events;
    }
    // The request that made it: the task's request.start before the move and its request.end after.
    const TraceLine& started = relevant[*move.started].line;
    auto same_task = [&](std::size_t i) {
      return relevant[i].line.node == started.node && relevant[i].line.task == started.task && !relevant[i].key;
    };
    for (std::size_t i = *move.started; i-- > 0;) {
      if (same_task(i) && relevant[i].line.kind == kinds::kRequestStart) {
        events += fold[i] ? 0 : 1;
        fold[i] = true;
        break;
      }
    }
    for (std::size_t i = *move.started + 1; i < relevant.size(); ++i) {
      if (same_task(i) && relevant[i].line.kind == kinds::kRequestEnd) {
        if (text_field(relevant[i].line, "outcome") == "handed_over") {
          events += fold[i] ? 0 : 1;
          fold[i] = true;
        }
        break;
      }
    }
    ++folded;
  }
  return folded;
}

// Timer callbacks started or run (object.timer_started; object.turn, turn "timer"), none of them
// key: work the object does on its own, which the story's requests and messages did not ask for (a
// timer an object-timers violation is about is cited, so key). Returns how many it folded.
std::uint64_t fold_timer_turns(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold) {
  std::uint64_t folded = 0;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    const TraceLine& line = relevant[i].line;
    const bool timer_turn = line.kind == kinds::kObjectTurn && text_field(line, "turn") == "timer";
    if (!fold[i] && !relevant[i].key && (timer_turn || line.kind == kinds::kObjectTimerStarted)) {
      fold[i] = true;
      ++folded;
    }
  }
  return folded;
}

bool failed_publish(const TraceLine& line) {
  if (line.kind != kinds::kDescriptorPublished) {
    return false;
  }
  const std::optional<std::string> outcome = text_field(line, "outcome");
  return outcome == "conflict" || outcome == "store_error";
}

std::optional<std::string> owner_field(const TraceLine& line) { return text_field(line, "owner"); }

// Folds every event `repeat` picks of a host run (`owner_of`) but its last (key events and folded
// ones aside); returns how many it folded.
template <class Repeat, class OwnerOf = decltype(&owner_field)>
std::uint64_t fold_all_but_last(const std::vector<StoryEvent>& relevant, std::vector<bool>& fold, Repeat repeat,
                                OwnerOf owner_of = &owner_field) {
  std::uint64_t folded = 0;
  std::set<std::string> seen_later;
  for (std::size_t i = relevant.size(); i-- > 0;) {
    const TraceLine& line = relevant[i].line;
    const auto owner = owner_of(line);
    if (!repeat(line) || !owner || relevant[i].key || fold[i]) {
      continue;
    }
    if (!seen_later.insert(*owner).second) {
      fold[i] = true;
      ++folded;
    }
  }
  return folded;
}

// Folds the faults that hit only nodes none of the events left happened on (the folds above took
// those nodes' part away); a fault on the store or the whole world stays. Returns the nodes left.
std::set<std::string> fold_faults_elsewhere(const std::vector<StoryEvent>& relevant,
                                            const std::vector<std::vector<std::string>>& targets,
                                            std::vector<bool>& fold, Story& story) {
  std::set<std::string> nodes;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    if (!fold[i] && !relevant[i].fault && !relevant[i].store && relevant[i].line.node != "world") {
      nodes.insert(relevant[i].line.node);
    }
  }
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    if (fold[i] || !relevant[i].fault || relevant[i].key || targets[i].empty()) {
      continue;
    }
    const bool elsewhere = std::none_of(targets[i].begin(), targets[i].end(),
                                        [&nodes](const std::string& node) { return nodes.contains(node); });
    if (elsewhere) {
      fold[i] = true;
      ++story.folded_faults_elsewhere;
    }
  }
  return nodes;
}

// Folds routine Instance Spot exchanges and the requests that made them, routine requests, routine
// regular messages, every lease renewal of a host run but its last, every failed publish attempt
// of a host run but its last, and then the faults on nodes no event left happened on (key events
// stay). Counts what it folded, and the nodes left, into `story`; returns the events left.
std::vector<StoryEvent> fold_routine(std::vector<StoryEvent> relevant, const std::vector<std::vector<std::string>>& targets,
                                     Story& story) {
  std::vector<bool> fold(relevant.size(), false);
  const std::set<std::string> routine_ops = fold_routine_instance_exchanges(relevant, fold, story);
  fold_routine_requests(relevant, routine_ops, fold, story);
  story.folded_creations = fold_routine_creations(relevant, fold, story.folded_creation_events);
  story.folded_renewals =
      fold_all_but_last(relevant, fold, [](const TraceLine& line) { return line.kind == kinds::kLeaseRenewed; });
  story.folded_publish_retries = fold_all_but_last(relevant, fold, failed_publish);
  story.folded_confirmed_writes = fold_confirmed_writes(relevant, fold);
  fold_routine_messages(relevant, fold, story);
  story.folded_timer_turns = fold_timer_turns(relevant, fold);
  story.folded_moves = fold_routine_moves(relevant, fold, story.folded_move_events);
  // The store's account of those renewals: every write of a host run's lease row but its last.
  story.folded_lease_writes = fold_all_but_last(
      relevant, fold, [](const TraceLine& line) { return lease_row_owner(line).has_value(); }, &lease_row_owner);
  const std::set<std::string> nodes = fold_faults_elsewhere(relevant, targets, fold, story);
  story.nodes.assign(nodes.begin(), nodes.end());
  std::vector<StoryEvent> left;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    if (!fold[i]) {
      left.push_back(std::move(relevant[i]));
    }
  }
  return left;
}

// A store or network fault the story may tell as part of a run: not key, the world's (a node's own
// kill, start or pause stays one line, and the picture draws its span), and not a boundary the
// reader needs (an outage's begin and end, faults stopping, the network healed).
bool collapsible_fault(const StoryEvent& e) {
  const std::string& kind = e.line.kind;
  return e.fault && !e.key && e.line.node == "world" && kind != kinds::kFaultsStopped && kind != kinds::kNetHealAll &&
         kind != kinds::kStoreOutageBegin && kind != kinds::kStoreOutageEnd;
}

// Every run of at least kFaultRunMin collapsible faults in a row is told as one line: kind
// "faults", the count, the last index and the kinds with their counts. Returns how many fault
// events went into such lines.
constexpr std::size_t kFaultRunMin = 3;

std::uint64_t collapse_fault_runs(std::vector<StoryEvent>& events) {
  std::vector<StoryEvent> out;
  std::uint64_t collapsed = 0;
  for (std::size_t i = 0; i < events.size();) {
    std::size_t end = i;
    while (end < events.size() && collapsible_fault(events[end])) {
      ++end;
    }
    if (end - i < kFaultRunMin) {
      for (const std::size_t stop = std::max(end, i + 1); i < stop; ++i) {
        out.push_back(std::move(events[i]));
      }
      continue;
    }
    std::map<std::string, std::uint64_t> kinds_seen;
    for (std::size_t j = i; j < end; ++j) {
      ++kinds_seen[events[j].line.kind];
    }
    std::string kinds_text;
    for (const auto& [kind, count] : kinds_seen) {
      kinds_text += (kinds_text.empty() ? "" : ", ") + kind + " x" + std::to_string(count);
    }
    StoryEvent run = events[i];
    run.line.kind = "faults";
    run.line.task.reset();
    run.line.fields = "count=" + std::to_string(end - i) + " last=\"#" + std::to_string(events[end - 1].line.index) +
                      "\" kinds=\"" + kinds_text + "\"";
    out.push_back(std::move(run));
    collapsed += end - i;
    i = end;
  }
  events = std::move(out);
  return collapsed;
}

// Every key event, and the latest others up to the bound, in trace order.
std::vector<StoryEvent> keep_within_bound(std::vector<StoryEvent> relevant, std::size_t events_max) {
  std::size_t keys = 0;
  for (const auto& e : relevant) {
    keys += e.key ? 1 : 0;
  }
  std::size_t others_left = events_max > keys ? events_max - keys : 0;
  std::vector<bool> keep(relevant.size(), false);
  for (std::size_t i = relevant.size(); i-- > 0;) {
    if (relevant[i].key) {
      keep[i] = true;
    } else if (others_left > 0) {
      keep[i] = true;
      --others_left;
    }
  }
  std::vector<StoryEvent> kept;
  for (std::size_t i = 0; i < relevant.size(); ++i) {
    if (keep[i]) {
      kept.push_back(std::move(relevant[i]));
    }
  }
  SPOTCHECK_ASSERT_ABORT(kept.size() <= std::max(events_max, keys));
  return kept;
}

}  // namespace

Story tell_story(const std::vector<std::string>& event_lines, const scenarios::Violation& violation,
                 std::size_t events_max) {
  SPOTCHECK_ASSERT_ABORT(events_max >= 1);
  const StoryInput input = read_story_input(event_lines, violation);
  Relevant relevant = relevant_events(input, violation);
  Story story;
  story.objects = input.subjects.objects;
  story.owners = input.subjects.host_runs;
  std::vector<StoryEvent> events = fold_routine(std::move(relevant.events), relevant.fault_targets, story);
  for (const StoryEvent& e : events) {
    story.store_writes += e.store ? 1 : 0;
  }
  story.collapsed_faults = collapse_fault_runs(events);
  story.relevant = events.size();
  story.events = keep_within_bound(std::move(events), events_max);
  story.left_out = story.relevant - story.events.size();
  return story;
}

void print_story(const Story& story, const scenarios::Violation& violation, std::ostream& out) {
  auto join = [](const std::vector<std::string>& values) {
    std::string text;
    for (const auto& v : values) {
      text += (text.empty() ? "" : ", ") + v;
    }
    return text.empty() ? std::string("-") : text;
  };
  out << "story of the violation (" << violation.property << " at " << sim::seconds_exact(violation.time_us) << ", event #"
      << violation.event_index << ")\n";
  out << "  objects: " << join(story.objects) << "\n";
  out << "  host runs: " << join(story.owners) << "\n";
  out << "  nodes: " << join(story.nodes) << "\n";
  // The optional parts, each only when it folded something; the block only when anything folded.
  std::ostringstream parts;
  if (story.folded_publish_retries > 0) {
    parts << "; " << story.folded_publish_retries << " failed descriptor publish attempt(s) before each host run's last";
  }
  if (story.folded_confirmed_writes > 0) {
    parts << "; " << story.folded_confirmed_writes << " store write(s) an event of the story reports (same key, StoreVersion)";
  }
  if (story.folded_lease_writes > 0) {
    parts << "; " << story.folded_lease_writes << " store write(s) of a lease row before each host run's last";
  }
  if (story.folded_messages > 0) {
    parts << "; " << story.folded_messages << " regular message(s) sent, run once and answered ran (or a Send run), "
        << story.folded_message_events << " event(s)";
  }
  if (story.folded_instance_requests > 0) {
    parts << "; " << story.folded_instance_requests
        << " Instance Spot request(s) sent once, run once on a Ready instance and delivered, "
        << story.folded_instance_request_events << " event(s)";
  }
  if (story.folded_idle_instance_requests > 0) {
    parts << "; " << story.folded_idle_instance_requests
        << " Instance Spot request(s) answered that ran nothing and changed nothing (an error, a route, a timeout), "
        << story.folded_idle_instance_request_events << " event(s)";
  }
  if (story.folded_repeated_requests > 0) {
    parts << "; " << story.folded_repeated_requests << " request(s) answered the same way as a later one ("
        << story.folded_repeated_signatures << "), " << story.folded_repeated_request_events << " event(s)";
  }
  if (story.folded_creations > 0) {
    parts << "; " << story.folded_creations << " creation(s) that went as they should (their Reserve and Commit shown), "
        << story.folded_creation_events << " event(s)";
  }
  if (story.folded_instance_activations > 0) {
    parts << "; " << story.folded_instance_activations
        << " Instance Spot cold activation(s) that went as they should (their authority writes and Ready shown), "
        << story.folded_instance_activation_events << " event(s)";
  }
  if (story.folded_moves > 0) {
    parts << "; " << story.folded_moves << " relocation(s) that went as they should, " << story.folded_move_events
          << " event(s)";
  }
  if (story.folded_timer_turns > 0) {
    parts << "; " << story.folded_timer_turns << " timer callback(s) started or run";
  }
  if (story.folded_faults_elsewhere > 0) {
    parts << "; " << story.folded_faults_elsewhere << " fault(s) on nodes no event left happened on";
  }
  if (story.folded_requests + story.folded_renewals > 0 || !parts.view().empty()) {
    out << "  (folded: " << story.folded_requests
        << " request(s) that changed nothing (used, owned elsewhere, only read, an Instance Spot message delivered), "
        << story.folded_request_events << " event(s); " << story.folded_renewals
        << " lease renewal(s) before each host run's last" << parts.view() << ")\n";
  }
  if (story.collapsed_faults > 0) {
    out << "  (" << story.collapsed_faults << " store and network fault(s) told as runs: one \"faults\" line per "
        << kFaultRunMin << " or more in a row)\n";
  }
  if (story.left_out > 0) {
    out << "  (" << story.left_out << " earlier event(s) of " << story.relevant << " left out)\n";
  }
  for (const StoryEvent& e : story.events) {
    std::string text = "#" + std::to_string(e.line.index) + "  " + sim::seconds_exact(e.line.time_us) + "  " + e.line.node +
                       "  " + e.line.kind + (e.line.fields.empty() ? "" : " " + e.line.fields);
    if (text.size() > kLineCharsMax) {
      text = text.substr(0, kLineCharsMax - 3) + "...";
    }
    out << (e.key ? "  * " : e.fault ? "  ! " : e.store ? "  = " : "    ") << text << "\n";
  }
  if (story.events.empty()) {
    out << "  (no event of the trace names the violation's subjects)\n";
  }
  out << "  * the violating event or one the message cites;  ! a fault on an involved node, the store or the world;"
         "  = the store's own account of a write to a subject's record\n";
}

}  // namespace spotcheck::replay
