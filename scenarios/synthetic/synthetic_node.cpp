#include "scenarios/synthetic/synthetic_node.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "impl/check/check.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios::synthetic {
namespace {

using platform::RoutingId;

constexpr std::uint64_t kMaxMessagesPerRun = 1'000'000;
constexpr std::uint64_t kMaxRequestsPerRun = 1'000'000;
constexpr std::uint64_t kMaxTicksPerRun = 1'000'000;

// Wire format: "<kind> <nonce> <seq> <token>", kind R (request), A (answer), P (probe).
struct Message {
  char kind = 'R';
  std::uint64_t nonce = 0;
  std::uint64_t seq = 0;
  std::uint64_t token = 0;
};

std::string encode(const Message& message) {
  return std::string(1, message.kind) + " " + std::to_string(message.nonce) + " " + std::to_string(message.seq) +
         " " + std::to_string(message.token);
}

std::optional<Message> decode(std::string_view bytes) {
  Message message;
  if (bytes.size() < 7 || bytes[1] != ' ') {
    return std::nullopt;
  }
  message.kind = bytes[0];
  const char* cursor = bytes.data() + 2;
  const char* end = bytes.data() + bytes.size();
  for (std::uint64_t* target : {&message.nonce, &message.seq, &message.token}) {
    auto [next, error] = std::from_chars(cursor, end, *target);
    if (error != std::errc()) {
      return std::nullopt;
    }
    cursor = next == end ? end : next + 1;
  }
  return message;
}

// Per host run state; lives on main's stack, so it dies with the run.
class NodeRun {
 public:
  NodeRun(platform::Platform& p, const SyntheticConfig& config, const std::vector<RoutingId>& peers)
      : p_(p), config_(config), peers_(peers), nonce_(p.random.next_u64() >> 2) {}

  void boot() {
    platform::emit_event(p_.events, kinds::kSyntheticBoot, sim::events::SyntheticBoot{.nonce = static_cast<std::int64_t>(nonce_)});
    p_.tasks.spawn("receiver", [this] { receive_loop(); });
    p_.tasks.spawn("ticker", [this] { tick_loop(); });
  }

  void request_loop() {
    for (std::uint64_t round = 0; round < kMaxRequestsPerRun; ++round) {
      p_.clock.sleep_for(static_cast<platform::TimeUs>(p_.random.between(1, config_.request_gap_max_us)));
      const RoutingId peer = peers_[p_.random.below(peers_.size())];
      const std::uint64_t token = next_token_++;
      std::unique_ptr<platform::Gate> gate = p_.tasks.make_gate();
      pending_[token] = gate.get();
      send(peer, 'R', token);
      const bool answered = gate->wait_until(p_.clock.now_us() + config_.reply_timeout_us);
      pending_.erase(token);
      platform::emit_event(p_.events, kinds::kSyntheticReply,
                           sim::events::SyntheticReply{.token = static_cast<std::int64_t>(token),
                                                       .answered = answered ? 1 : 0});
      if (p_.random.chance(0.1)) {
        p_.tasks.yield();
      }
    }
  }

 private:
  void send(RoutingId to, char kind, std::uint64_t token) {
    std::uint64_t& next = next_seq_[to];
    if (config_.test_only_break_fifo && p_.random.chance(0.2)) {
      // Deliberately out of order: a probe with an older sequence number follows the message.
      const std::uint64_t older = ++next;
      const std::uint64_t newer = ++next;
      p_.transport.send(to, encode(Message{kind, nonce_, newer, token}));
      p_.transport.send(to, encode(Message{'P', nonce_, older, 0}));
      return;
    }
    p_.transport.send(to, encode(Message{kind, nonce_, ++next, token}));
  }

  void receive_loop() {
    for (std::uint64_t received = 0; received < kMaxMessagesPerRun; ++received) {
      std::optional<platform::Envelope> envelope = p_.transport.receive(platform::kNever);
      if (!envelope) {
        return;
      }
      const std::optional<Message> message = decode(envelope->bytes);
      SPOTCHECK_ASSERT_ABORT(message.has_value());
      if (!message) {
        continue;
      }
      platform::emit_event(p_.events, kinds::kSyntheticRecv,
                           sim::events::SyntheticRecv{.from = static_cast<std::int64_t>(envelope->from),
                                                      .nonce = static_cast<std::int64_t>(message->nonce),
                                                      .seq = static_cast<std::int64_t>(message->seq),
                                                      .kind = std::string_view(&message->kind, 1)});
      if (message->kind == 'R') {
        const RoutingId from = envelope->from;
        const std::uint64_t token = message->token;
        // Answer from a short-lived worker task after a small delay.
        p_.tasks.spawn("worker", [this, from, token] {
          p_.clock.sleep_for(static_cast<platform::TimeUs>(p_.random.between(0, config_.worker_delay_max_us)));
          send(from, 'A', token);
        });
      } else if (message->kind == 'A') {
        auto found = pending_.find(message->token);
        if (found != pending_.end()) {
          found->second->open();
        }
      }
    }
  }

  void tick_loop() {
    for (std::uint64_t tick = 0; tick < kMaxTicksPerRun; ++tick) {
      const auto jitter = static_cast<platform::TimeUs>(p_.random.between(0, config_.tick_period_us / 4));
      p_.clock.sleep_for(config_.tick_period_us + jitter);
      platform::emit_event(p_.events, kinds::kSyntheticTick, sim::events::SyntheticTick{.tick = static_cast<std::int64_t>(tick)});
    }
  }

  platform::Platform& p_;
  const SyntheticConfig& config_;
  const std::vector<RoutingId>& peers_;
  std::uint64_t nonce_;
  std::uint64_t next_token_ = 1;
  std::map<RoutingId, std::uint64_t> next_seq_;
  std::map<std::uint64_t, platform::Gate*> pending_;
};

}  // namespace

void run_synthetic_node(platform::Platform& platform, const SyntheticConfig& config,
                        const std::vector<RoutingId>& peers) {
  SPOTCHECK_ASSERT_ABORT(!peers.empty());
  NodeRun run(platform, config, peers);
  run.boot();
  run.request_loop();
  // Out of request budget: stay up (returning would end the host run).
  std::unique_ptr<platform::Gate> forever = platform.tasks.make_gate();
  forever->wait_until(platform::kNever);
}

}  // namespace spotcheck::scenarios::synthetic
