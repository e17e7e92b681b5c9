// A loopback TCP proxy in front of a redis-server that can lose replies after the server applied
// the request ("lost after apply") or cut the connection right after forwarding a request.
// Test-only; runs one thread with a bounded poll loop.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace spotcheck::store::redis::testing {

class ReplyDroppingProxy {
 public:
  explicit ReplyDroppingProxy(int upstream_port);
  ~ReplyDroppingProxy();
  ReplyDroppingProxy(const ReplyDroppingProxy&) = delete;
  ReplyDroppingProxy& operator=(const ReplyDroppingProxy&) = delete;

  int port() const { return _port; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(_port); }
  const std::string& error() const { return _error; }

  // Server-to-client bytes are discarded while set.
  void drop_replies(bool on) { _drop_replies.store(on); }
  // While set, each client connection is closed right after its next request was forwarded.
  void cut_after_request(bool on) { _cut_after_request.store(on); }

 private:
  struct Pair {
    int client_fd = -1;
    int server_fd = -1;
  };
  void run();
  void close_pair(Pair& pair);

  int _upstream_port;
  int _listen_fd = -1;
  int _port = 0;
  std::string _error;
  std::atomic<bool> _stop{false};
  std::atomic<bool> _drop_replies{false};
  std::atomic<bool> _cut_after_request{false};
  std::vector<Pair> _pairs;  // owned by the proxy thread
  std::thread _thread;
};

}  // namespace spotcheck::store::redis::testing
