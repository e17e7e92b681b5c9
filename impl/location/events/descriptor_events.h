// The typed descriptor, placement and shutdown-sweep events (docs/events.md "Descriptors and
// placement", "Shutdown cleanup"): one struct per kind, its fields declared once in fields().
// Emitted by descriptor/descriptor_publisher.cpp (descriptor.published),
// descriptor/descriptor_list.cpp (descriptor.list_read), placement/placement.cpp (placement.*) and
// shutdown/owner_sweep.cpp (sweep.finished); read back by properties/checkers/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// descriptor.published: one write of this node's descriptor, applied or not.
struct DescriptorPublished {
  static constexpr std::size_t kFieldsMax = 11;
  std::string_view mesh;
  std::string_view rid;
  std::int64_t revision = 0;  // DescriptorRevision
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t lifecycle_gen = 0;
  std::string_view state;    // the lifecycle state written
  std::string_view outcome;  // applied | conflict | indeterminate | a store error kind
  std::int64_t version = 0;       // StoreVersion after an applied write, else 0
  std::int64_t store_now_ms = 0;  // StoreNow of the write's answer, else 0
  std::int64_t resolved = 0;      // 1: an Indeterminate write established applied by a re-read
};
template <class Io, platform::FieldsOf<DescriptorPublished> E>
void fields(Io& io, E& e) {
  io("mesh", e.mesh);
  io("rid", e.rid);
  io("revision", e.revision);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("lifecycle_gen", e.lifecycle_gen);
  io("state", e.state);
  io("outcome", e.outcome);
  io("version", e.version);
  io("store_now_ms", e.store_now_ms);
  io("resolved", e.resolved);
}

// descriptor.list_read: one same-point-in-time read of a Mesh's descriptors.
struct DescriptorListRead {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view mesh;
  std::int64_t count = 0;  // descriptors decoded
  std::int64_t valid = 0;  // of them, with a live owner lease
  std::int64_t undecodable = 0;
  std::int64_t pages = 0;
  std::int64_t store_now_ms = 0;
};
template <class Io, platform::FieldsOf<DescriptorListRead> E>
void fields(Io& io, E& e) {
  io("mesh", e.mesh);
  io("count", e.count);
  io("valid", e.valid);
  io("undecodable", e.undecodable);
  io("pages", e.pages);
  io("store_now_ms", e.store_now_ms);
}

// placement.chosen: the weighted pick of a target node.
struct PlacementChosen {
  static constexpr std::size_t kFieldsMax = 9;
  std::string_view mesh;
  std::string_view rid;
  std::string_view owner;  // the target's OwnerId and LeaseGeneration, as its descriptor says
  std::int64_t lease_gen = 0;
  std::int64_t weight = 0;
  std::int64_t candidates = 0;
  std::int64_t total_weight = 0;
  std::string_view object_kind;
  std::string_view stable_type;
};
template <class Io, platform::FieldsOf<PlacementChosen> E>
void fields(Io& io, E& e) {
  io("mesh", e.mesh);
  io("rid", e.rid);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("weight", e.weight);
  io("candidates", e.candidates);
  io("total_weight", e.total_weight);
  io("object_kind", e.object_kind);
  io("stable_type", e.stable_type);
}

// placement.no_candidate: no Serving node with lease, weight and capacity.
struct PlacementNoCandidate {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view object_kind;
  std::string_view stable_type;
  std::int64_t nodes = 0;  // descriptors considered
};
template <class Io, platform::FieldsOf<PlacementNoCandidate> E>
void fields(Io& io, E& e) {
  io("object_kind", e.object_kind);
  io("stable_type", e.stable_type);
  io("nodes", e.nodes);
}

// sweep.finished: the §11 sweep of a host run's own rows at shutdown.
struct SweepFinished {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t candidates = 0;
  std::int64_t deleted = 0;
  std::int64_t changed = 0;
  std::int64_t failed = 0;
};
template <class Io, platform::FieldsOf<SweepFinished> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("candidates", e.candidates);
  io("deleted", e.deleted);
  io("changed", e.changed);
  io("failed", e.failed);
}

}  // namespace spotcheck::location::events
