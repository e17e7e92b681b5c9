#include "tests/store_redis/reply_dropping_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace spotcheck::store::redis::testing {

namespace {

constexpr std::size_t kMaxPairs = 64;
constexpr int kPollIntervalMs = 20;

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

}  // namespace

ReplyDroppingProxy::ReplyDroppingProxy(int upstream_port) : _upstream_port(upstream_port) {
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

ReplyDroppingProxy::~ReplyDroppingProxy() {
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

void ReplyDroppingProxy::close_pair(Pair& pair) {
  if (pair.client_fd >= 0) {
    ::close(pair.client_fd);
  }
  if (pair.server_fd >= 0) {
    ::close(pair.server_fd);
  }
  pair.client_fd = -1;
  pair.server_fd = -1;
}

void ReplyDroppingProxy::run() {
  std::array<char, 64 * 1024> buffer{};
  // Bound: runs until the destructor sets _stop; each round waits at most kPollIntervalMs.
  while (!_stop.load()) {
    std::vector<pollfd> fds;
    fds.push_back(pollfd{_listen_fd, POLLIN, 0});
    for (const Pair& pair : _pairs) {
      fds.push_back(pollfd{pair.client_fd, POLLIN, 0});
      fds.push_back(pollfd{pair.server_fd, POLLIN, 0});
    }
    if (::poll(fds.data(), fds.size(), kPollIntervalMs) <= 0) {
      continue;
    }
    if ((fds[0].revents & POLLIN) != 0) {
      const int client = ::accept(_listen_fd, nullptr, nullptr);
      if (client >= 0) {
        const int server = connect_loopback(_upstream_port);
        if (server < 0 || _pairs.size() >= kMaxPairs) {
          ::close(client);
          if (server >= 0) {
            ::close(server);
          }
        } else {
          _pairs.push_back(Pair{client, server});
        }
      }
    }
    for (std::size_t i = 0; i + 1 < fds.size() && i / 2 < _pairs.size(); i += 2) {
      Pair& pair = _pairs[i / 2];
      const pollfd& from_client = fds[1 + i];
      const pollfd& from_server = fds[2 + i];
      if (pair.client_fd < 0) {
        continue;
      }
      if ((from_client.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::recv(pair.client_fd, buffer.data(), buffer.size(), 0);
        if (n <= 0 || !write_all(pair.server_fd, buffer.data(), static_cast<std::size_t>(n))) {
          close_pair(pair);
          continue;
        }
        if (_cut_after_request.load()) {
          close_pair(pair);
          continue;
        }
      }
      if ((from_server.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::recv(pair.server_fd, buffer.data(), buffer.size(), 0);
        if (n <= 0) {
          close_pair(pair);
          continue;
        }
        if (!_drop_replies.load() && !write_all(pair.client_fd, buffer.data(), static_cast<std::size_t>(n))) {
          close_pair(pair);
        }
      }
    }
    std::erase_if(_pairs, [](const Pair& pair) { return pair.client_fd < 0; });
  }
}

}  // namespace spotcheck::store::redis::testing
