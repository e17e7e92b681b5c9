// The SPI as a node process sees the simulated store: every call crosses the simulated link.
#include <cassert>
#include <memory>
#include <optional>
#include <variant>

#include "sim/store_host/store_server.h"

namespace spotcheck::sim {

namespace {

template <class Result>
struct Pending {
  std::optional<Result> result;
  std::unique_ptr<platform::Gate> gate;
};

// Posts `apply` to the store and parks the calling task until the reply or the deadline.
template <class Result>
std::optional<Result> call(StoreServer& server, ProcessId node, const char* operation, store::DeadlineUs deadline_us,
                           RequestKind kind, std::function<Result()> apply) {
  platform::Platform& platform = server.world().platform(node);
  auto pending = std::make_shared<Pending<Result>>();
  pending->gate = platform.tasks.make_gate();
  server.post<Result>(node, operation, deadline_us, kind, std::move(apply), [pending](Result result) {
    // A reply after the caller gave up finds the gate with nobody waiting; it is ignored.
    if (!pending->result.has_value()) {
      pending->result = std::move(result);
      pending->gate->open();
    }
  });
  pending->gate->wait_until(deadline_us);
  return std::move(pending->result);
}

// An owner lease renew: one Put of an owner-lease row and nothing else (a registration also
// increments the lease-generation counter; a release deletes). The key layout is the store's
// (impl/location/keys), seen here as the world sees any stored key.
bool renews_a_lease(const store::WriteRequest& request) {
  static constexpr std::string_view kOwnerLeasePrefix{"owner-lease\0", 12};
  if (request.mutations.size() != 1) {
    return false;
  }
  const auto* put = std::get_if<store::Put>(&request.mutations.front());
  return put != nullptr && std::string_view(put->key).starts_with(kOwnerLeasePrefix);
}

bool deletes_a_record(const store::WriteRequest& request) {
  for (const store::Mutation& mutation : request.mutations) {
    if (std::holds_alternative<store::Delete>(mutation)) {
      return true;
    }
  }
  return false;
}

class SimLocationStore final : public store::LocationStore {
 public:
  SimLocationStore(StoreServer& server, ProcessId node) : _server(server), _node(node) {}

  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    auto& engine = _server.location_engine();
    auto result = call<store::ReadResult>(_server, _node, "read", deadline_us, RequestKind::kRead,
                                          [&engine, key] { return engine.read(key, platform::kNever); });
    if (!result.has_value()) {
      return store::StoreError{store::StoreErrorKind::kTimeout, "no reply before the deadline"};
    }
    return std::move(*result);
  }

  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override {
    if (auto invalid = store::validate(request)) {
      return *invalid;  // nothing is sent
    }
    // The store may hold a deleting write (StoreFaults::delete_hold_max_us).
    const RequestKind kind = deletes_a_record(request) ? RequestKind::kDeletingWrite
                             : renews_a_lease(request) ? RequestKind::kLeaseRenew
                                                       : RequestKind::kWrite;
    auto result = call<store::WriteResult>(_server, _node, "write", deadline_us, kind,
                                           [&server = _server, node = _node, request] {
                                             return server.apply_location_write(node, request);
                                           });
    if (!result.has_value()) {
      return store::Indeterminate{"no reply before the deadline"};
    }
    return std::move(*result);
  }

  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    if (auto invalid = store::validate(request)) {
      return *invalid;
    }
    auto result = call<store::ScanResult>(_server, _node, "scan", deadline_us, RequestKind::kRead,
                                          [&server = _server, node = _node, request] {
                                            return server.serve_location_scan(node, request);
                                          });
    if (!result.has_value()) {
      return store::StoreError{store::StoreErrorKind::kTimeout, "no reply before the deadline"};
    }
    return std::move(*result);
  }

 private:
  StoreServer& _server;
  ProcessId _node;
};

class SimRelocationStore final : public store::RelocationStore {
 public:
  SimRelocationStore(StoreServer& server, ProcessId node) : _server(server), _node(node) {}

  store::PutResult put(const store::PayloadPut& request, store::DeadlineUs deadline_us) override {
    auto result = call<store::PutResult>(_server, _node, "payload_put", deadline_us, RequestKind::kWrite,
                                         [&server = _server, node = _node, request] { return server.apply_payload_put(node, request); });
    if (!result.has_value()) {
      return store::Indeterminate{"no reply before the deadline"};
    }
    return std::move(*result);
  }

  store::GetResult get(const store::Key& reference, store::DeadlineUs deadline_us) override {
    auto result = call<store::GetResult>(_server, _node, "payload_get", deadline_us, RequestKind::kRead,
                                         [&server = _server, node = _node, reference] {
                                           return server.serve_payload_get(node, reference);
                                         });
    if (!result.has_value()) {
      return store::StoreError{store::StoreErrorKind::kTimeout, "no reply before the deadline"};
    }
    return std::move(*result);
  }

  store::DeleteResult remove(const store::Key& reference, store::DeadlineUs deadline_us) override {
    auto result = call<store::DeleteResult>(_server, _node, "payload_remove", deadline_us, RequestKind::kWrite,
                                            [&server = _server, node = _node, reference] {
                                              return server.apply_payload_remove(node, reference);
                                            });
    if (!result.has_value()) {
      return store::Indeterminate{"no reply before the deadline"};
    }
    return std::move(*result);
  }

 private:
  StoreServer& _server;
  ProcessId _node;
};

}  // namespace

std::unique_ptr<store::LocationStore> StoreServer::location_client(ProcessId node) {
  return std::make_unique<SimLocationStore>(*this, node);
}

std::unique_ptr<store::RelocationStore> StoreServer::relocation_client(ProcessId node) {
  return std::make_unique<SimRelocationStore>(*this, node);
}

}  // namespace spotcheck::sim
