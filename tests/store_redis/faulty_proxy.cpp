#include "tests/store_redis/faulty_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace spotcheck::store::redis::testing {

namespace {

constexpr std::size_t kMaxPairs = 64;
constexpr int kPollIntervalMs = 20;
// How long the server side of a pair whose client has gone stays open for the server's answer.
constexpr std::chrono::seconds kOrphanLinger{2};

int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    return -1;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool readable(const pollfd& p) { return (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0; }

}  // namespace

FaultyProxy::FaultyProxy(int upstream_port) : _upstream_port(upstream_port) {
  _listen_fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (_listen_fd < 0 || ::bind(_listen_fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(_listen_fd, 16) != 0 || ::getsockname(_listen_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    _error = std::string("proxy listen failed: ") + std::strerror(errno);
    return;
  }
  _port = ntohs(address.sin_port);
  _thread = std::thread([this] { run(); });
}

FaultyProxy::~FaultyProxy() {
  _stop.store(true);
  if (_thread.joinable()) {
    _thread.join();
  }
  for (Pair& pair : _pairs) {
    close_pair(pair);
  }
  if (_listen_fd >= 0) {
    ::close(_listen_fd);
  }
}

bool FaultyProxy::wait_for_orphan_replies(int count, std::chrono::milliseconds limit) const {
  const auto until = Clock::now() + limit;
  // Bound: `limit`.
  while (_orphan_replies.load() < count) {
    if (Clock::now() >= until) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void FaultyProxy::close_pair(Pair& pair) {
  if (pair.client_fd >= 0) {
    ::close(pair.client_fd);
  }
  if (pair.server_fd >= 0) {
    ::close(pair.server_fd);
  }
  pair.client_fd = -1;
  pair.server_fd = -1;
  pair.held.clear();
}

void FaultyProxy::accept_client() {
  const int client = ::accept(_listen_fd, nullptr, nullptr);
  if (client < 0) {
    return;
  }
  const int server = connect_loopback(_upstream_port);
  if (server < 0 || _pairs.size() >= kMaxPairs) {
    ::close(client);
    if (server >= 0) {
      ::close(server);
    }
    return;
  }
  _pairs.push_back(Pair{client, server, {}, {}});
}

void FaultyProxy::client_gone(Pair& pair, Clock::time_point now) {
  ::close(pair.client_fd);
  pair.client_fd = -1;
  if (pair.held.empty()) {
    close_pair(pair);
    return;
  }
  pair.orphan_deadline = now + kOrphanLinger;  // extended once the last held chunk is forwarded
}

void FaultyProxy::from_client(Pair& pair, char* buffer, std::size_t size) {
  const ssize_t n = ::recv(pair.client_fd, buffer, size, 0);
  const Clock::time_point now = Clock::now();
  if (n <= 0) {
    client_gone(pair, now);
    return;
  }
  const long long delay_ms = _delay_ms.load();
  if (delay_ms > 0 || !pair.held.empty()) {
    pair.held.push_back(Held{now + std::chrono::milliseconds(delay_ms), std::string(buffer, static_cast<std::size_t>(n))});
    return;
  }
  if (!write_all(pair.server_fd, buffer, static_cast<std::size_t>(n)) || _cut_after_request.load()) {
    close_pair(pair);
  }
}

void FaultyProxy::from_server(Pair& pair, char* buffer, std::size_t size) {
  const ssize_t n = ::recv(pair.server_fd, buffer, size, 0);
  if (n <= 0) {
    close_pair(pair);
    return;
  }
  if (pair.client_fd < 0) {
    _orphan_replies.fetch_add(1);
    if (pair.held.empty()) {
      close_pair(pair);
    }
    return;
  }
  if (!_drop_replies.load() && !write_all(pair.client_fd, buffer, static_cast<std::size_t>(n))) {
    close_pair(pair);
  }
}

void FaultyProxy::release_due(Pair& pair, Clock::time_point now) {
  // Bound: the pair's held chunks.
  while (!pair.held.empty() && pair.held.front().due <= now) {
    const std::string& bytes = pair.held.front().bytes;
    if (!write_all(pair.server_fd, bytes.data(), bytes.size())) {
      close_pair(pair);
      return;
    }
    pair.held.pop_front();
    _held_forwarded.fetch_add(1);
    if (pair.client_fd < 0) {
      pair.orphan_deadline = now + kOrphanLinger;
    }
  }
  if (pair.client_fd < 0 && pair.held.empty() && now >= pair.orphan_deadline) {
    close_pair(pair);
  }
}

int FaultyProxy::poll_timeout_ms(Clock::time_point now) const {
  auto wait = std::chrono::milliseconds(kPollIntervalMs);
  for (const Pair& pair : _pairs) {
    if (!pair.held.empty()) {
      const auto until = std::chrono::ceil<std::chrono::milliseconds>(pair.held.front().due - now);
      wait = std::clamp(until, std::chrono::milliseconds(0), wait);
    }
  }
  return static_cast<int>(wait.count());
}

void FaultyProxy::run() {
  std::array<char, 64 * 1024> buffer{};
  // Bound: runs until the destructor sets _stop; each round waits at most kPollIntervalMs.
  while (!_stop.load()) {
    std::vector<pollfd> fds;
    fds.push_back(pollfd{_listen_fd, POLLIN, 0});
    for (const Pair& pair : _pairs) {
      fds.push_back(pollfd{pair.client_fd, POLLIN, 0});  // a negative fd is ignored by poll
      fds.push_back(pollfd{pair.server_fd, POLLIN, 0});
    }
    const int ready = ::poll(fds.data(), fds.size(), poll_timeout_ms(Clock::now()));
    const std::size_t known = _pairs.size();  // accept_client() may add one
    if (ready > 0 && (fds[0].revents & POLLIN) != 0) {
      accept_client();
    }
    for (std::size_t i = 0; i < known; ++i) {
      Pair& pair = _pairs[i];
      if (ready > 0 && pair.client_fd >= 0 && readable(fds[1 + 2 * i])) {
        from_client(pair, buffer.data(), buffer.size());
      }
      if (ready > 0 && pair.server_fd >= 0 && readable(fds[2 + 2 * i])) {
        from_server(pair, buffer.data(), buffer.size());
      }
      if (pair.server_fd >= 0) {
        release_due(pair, Clock::now());
      }
    }
    std::erase_if(_pairs, [](const Pair& pair) { return pair.server_fd < 0; });
  }
}

}  // namespace spotcheck::store::redis::testing
