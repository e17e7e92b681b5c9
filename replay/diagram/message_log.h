// Every message of a run as one arrow: a net.post / net.send paired with its net.deliver or
// net.drop (by the message number), between RoutingIds. The store servers are endpoints too: a
// store request is a message to one, its reply a message from it; the store's own events name what
// a request did (store.applied: the keys it wrote; store.refused) and the requests and replies the
// store-host faults lost without a message (store.request_lost, store.reply_lost).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/story/process_names.h"
#include "replay/story/trace_line.h"

namespace spotcheck::replay {

enum class MessageKind { kMessage, kStoreRequest, kStoreReply };

struct MessageArrow {
  std::int64_t message = 0;  // the network's number; 0 for a store request or reply lost without one
  MessageKind kind = MessageKind::kMessage;
  std::int64_t from_rid = 0;
  std::int64_t to_rid = 0;
  std::uint64_t sent_index = 0;
  std::int64_t sent_us = 0;
  std::uint64_t ended_index = 0;
  std::int64_t ended_us = 0;
  bool lost = false;
  std::string why;                     // a loss's reason, "refused", or "held while paused"
  std::vector<std::string> writes;     // a store request's applied mutations: "put authority/actor/player:0"
  std::optional<std::size_t> answers;  // a store reply: its request's place in MessageLog::arrows()
};

// The Location Store's server's RoutingId (sim::StoreServerConfig) and the Relocation Store's when
// it has a server of its own (the next one: scenarios/common/judged_world.cpp).
std::int64_t location_store_rid();
std::int64_t relocation_store_rid();

class MessageLog {
 public:
  // `names` reads the same lines (it must have read a process.add before the messages it names).
  // Keeps the arrows sent at or after `from_us`.
  MessageLog(const ProcessNames& names, std::int64_t from_us) : _names(names), _from_us(from_us) {}

  void read(const TraceLine& line);
  // The finished arrows (delivered or lost), in the order they ended.
  const std::vector<MessageArrow>& arrows() const { return _arrows; }

 private:
  void post(const TraceLine& line);
  void end(const TraceLine& line, bool lost);
  void store_event(const TraceLine& line);
  bool finish(MessageArrow arrow);  // false: sent before the window, not kept

  const ProcessNames& _names;
  std::int64_t _from_us = 0;
  std::map<std::int64_t, MessageArrow> _in_flight;    // by message number
  std::map<std::int64_t, std::size_t> _last_request;  // caller RoutingId -> its latest request that reached a store
  std::vector<MessageArrow> _arrows;
  static constexpr std::size_t kWritesShownMax = 4;
};

}  // namespace spotcheck::replay
