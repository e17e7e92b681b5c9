#include "replay/diagram/message_log.h"

#include "impl/platform/event_kinds.h"
#include "sim/store_host/store_server.h"

namespace spotcheck::replay {

std::int64_t location_store_rid() { return static_cast<std::int64_t>(sim::kLocationStoreRoutingId); }
std::int64_t relocation_store_rid() { return static_cast<std::int64_t>(sim::kRelocationStoreRoutingId); }

namespace {

bool is_world(const TraceLine& line) { return line.node == "world"; }

}  // namespace

void MessageLog::read(const TraceLine& line) {
  if (line.kind == kinds::kNetPost || line.kind == kinds::kNetSend) {
    post(line);
  } else if (line.kind == kinds::kNetDeliver) {
    end(line, false);
  } else if (line.kind == kinds::kNetDrop) {
    end(line, true);
  } else if (line.kind == kinds::kNetDeferred) {
    if (auto it = _in_flight.find(number_field(line, "message").value_or(0)); it != _in_flight.end()) {
      it->second.why = "held while paused";
    }
  } else if (line.kind.starts_with("store.")) {
    store_event(line);
  }
}

void MessageLog::post(const TraceLine& line) {
  MessageArrow a;
  a.message = number_field(line, "message").value_or(0);
  a.to_rid = number_field(line, "to").value_or(0);
  // The store's replies are posted by the world; their sender shows at the delivery.
  a.from_rid = is_world(line) ? 0 : _names.rid_of(line.node).value_or(0);
  a.sent_index = line.index;
  a.sent_us = line.time_us;
  const bool to_store = !_names.is_process(a.to_rid);
  a.kind = to_store ? MessageKind::kStoreRequest : is_world(line) ? MessageKind::kStoreReply : MessageKind::kMessage;
  if (a.kind == MessageKind::kStoreReply) {
    if (const auto last = _last_request.find(a.to_rid);
        last != _last_request.end() && _arrows[last->second].ended_us == line.time_us) {
      a.answers = last->second;
      a.from_rid = _arrows[last->second].to_rid;
    }
  }
  _in_flight[a.message] = std::move(a);
}

void MessageLog::end(const TraceLine& line, bool lost) {
  const auto it = _in_flight.find(number_field(line, "message").value_or(0));
  if (it == _in_flight.end()) {
    return;
  }
  MessageArrow a = std::move(it->second);
  _in_flight.erase(it);
  if (const auto from = number_field(line, "from")) {
    a.from_rid = *from;
  }
  a.ended_index = line.index;
  a.ended_us = line.time_us;
  a.lost = lost;
  if (lost) {
    a.why = text_field(line, "why").value_or("lost");
  }
  const bool reached_store = a.kind == MessageKind::kStoreRequest && !lost;
  const std::int64_t caller = a.from_rid;
  if (finish(std::move(a)) && reached_store) {
    _last_request[caller] = _arrows.size() - 1;
  }
}

// What the store did with the request it just took (same instant), or the faults of the store host.
void MessageLog::store_event(const TraceLine& line) {
  const auto caller = _names.rid_of(_names.of_pid(number_field(line, "node")));
  if (!caller.has_value()) {
    return;
  }
  const auto last = _last_request.find(*caller);
  MessageArrow* request =
      last != _last_request.end() && _arrows[last->second].ended_us == line.time_us ? &_arrows[last->second] : nullptr;
  const std::string op = text_field(line, "op").value_or("");
  if (line.kind == kinds::kStoreApplied && request != nullptr) {
    if (request->writes.size() < kWritesShownMax) {
      request->writes.push_back(text_field(line, "mutation").value_or("?") + " " +
                                text_field(line, "key").value_or("?"));
    }
  } else if (line.kind == kinds::kStoreRefused && request != nullptr) {
    request->why = "refused";
  } else if (line.kind == kinds::kStoreRequestLost || line.kind == kinds::kStoreReplyLost) {
    const bool request_lost = line.kind == kinds::kStoreRequestLost;
    const std::int64_t store = request_lost
                                   ? (op.starts_with("payload_") ? relocation_store_rid() : location_store_rid())
                                   : (request != nullptr ? request->to_rid : location_store_rid());
    MessageArrow a;
    a.kind = request_lost ? MessageKind::kStoreRequest : MessageKind::kStoreReply;
    a.from_rid = request_lost ? *caller : store;
    a.to_rid = request_lost ? store : *caller;
    a.sent_index = a.ended_index = line.index;
    a.sent_us = a.ended_us = line.time_us;
    a.lost = true;
    a.why = (request_lost ? "request lost: " : "reply lost: ") + op;
    finish(std::move(a));
  }
}

bool MessageLog::finish(MessageArrow arrow) {
  if (arrow.sent_us < _from_us) {
    return false;
  }
  _arrows.push_back(std::move(arrow));
  return true;
}

}  // namespace spotcheck::replay
