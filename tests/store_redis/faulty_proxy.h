// A loopback TCP proxy in front of a redis-server that misbehaves on demand:
//   - drop_replies: loses replies after the server applied the request ("lost after apply");
//   - cut_after_request: closes the client's connection right after forwarding a request;
//   - delay_requests: holds requests for a while and then forwards them, even when the client
//     gave up and closed its connection meanwhile, so a write lands after its caller got
//     Indeterminate (spec §10: the write may still apply after the caller stopped waiting).
// Test-only; runs one thread with a bounded poll loop.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <string>
#include <thread>
#include <vector>

namespace spotcheck::store::redis::testing {

class FaultyProxy {
 public:
  explicit FaultyProxy(int upstream_port);
  ~FaultyProxy();
  FaultyProxy(const FaultyProxy&) = delete;
  FaultyProxy& operator=(const FaultyProxy&) = delete;

  int port() const { return _port; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(_port); }
  const std::string& error() const { return _error; }

  // Server-to-client bytes are discarded while set.
  void drop_replies(bool on) { _drop_replies.store(on); }
  // While set, each client connection is closed right after its next request was forwarded.
  void cut_after_request(bool on) { _cut_after_request.store(on); }
  // While positive, client-to-server bytes are held this long before they are forwarded (bytes
  // behind held ones wait their turn). A client that closes its connection meanwhile does not
  // cancel them: the proxy forwards them anyway and keeps the server side open until the server
  // answered (at most 2 s), discarding the answer.
  void delay_requests(std::chrono::milliseconds delay) { _delay_ms.store(delay.count()); }

  // Held chunks forwarded so far.
  int held_forwarded() const { return _held_forwarded.load(); }
  // Replies the server sent after their client had gone (a held request that was executed).
  int orphan_replies() const { return _orphan_replies.load(); }
  // Waits (at most `limit`) until orphan_replies() reaches `count`; true if it did.
  bool wait_for_orphan_replies(int count, std::chrono::milliseconds limit) const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Held {
    Clock::time_point due;
    std::string bytes;
  };
  struct Pair {
    int client_fd = -1;  // -1 once the client has gone
    int server_fd = -1;  // -1 once the pair is closed
    std::deque<Held> held;
    Clock::time_point orphan_deadline{};  // set when the client went with requests outstanding
  };
  void run();
  void accept_client();
  void from_client(Pair& pair, char* buffer, std::size_t size);
  void from_server(Pair& pair, char* buffer, std::size_t size);
  void release_due(Pair& pair, Clock::time_point now);
  void client_gone(Pair& pair, Clock::time_point now);
  int poll_timeout_ms(Clock::time_point now) const;
  static void close_pair(Pair& pair);

  int _upstream_port;
  int _listen_fd = -1;
  int _port = 0;
  std::string _error;
  std::atomic<bool> _stop{false};
  std::atomic<bool> _drop_replies{false};
  std::atomic<bool> _cut_after_request{false};
  std::atomic<long long> _delay_ms{0};
  std::atomic<int> _held_forwarded{0};
  std::atomic<int> _orphan_replies{0};
  std::vector<Pair> _pairs;  // owned by the proxy thread
  std::thread _thread;
};

}  // namespace spotcheck::store::redis::testing
