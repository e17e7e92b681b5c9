// The record of one run. Every event is folded into a rolling 64-bit hash and its own hash is kept
// in a per-event log, so two runs can be compared event by event (first_divergence). With
// keep_events the events themselves are kept too (compactly: no formatting until rendered).
//
// Kinds and field keys passed with copy_strings=false must be string literals (the simulator's own
// events); protocol events are recorded with copy_strings=true and are copied into the trace.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/event_sink.h"
#include "sim/trace/hash.h"
#include "sim/trace/segmented_log.h"
#include "sim/trace/text_arena.h"
#include "sim/trace/trace_event.h"
#include "sim/trace/trace_kind.h"

namespace spotcheck::sim {

// Hash of one event's content (time, node, task, kind, fields).
std::uint64_t hash_event(TimeUs time_us, std::int32_t node, TaskId task, std::string_view kind,
                         std::span<const platform::Field> fields);
// The same for an event without fields whose kind was packed at compile time.
inline std::uint64_t hash_event(TimeUs time_us, std::int32_t node, TaskId task, const TraceKind& kind) {
  Hasher hasher;
  hasher.add(static_cast<std::uint64_t>(time_us));
  hasher.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(node)));
  hasher.add(task);
  hasher.add_kind(kind);
  return hasher.finish();
}

struct TraceConfig {
  // Keep every event (time, node, task, kind, fields) for rendering and inspection. Without it
  // only the per-event hash log is kept (8 bytes per event).
  bool keep_events = true;
};

class Trace {
 public:
  explicit Trace(TraceConfig config = {});

  // Appends one event and returns a view of it, valid until the next append.
  TraceEvent append(TimeUs time_us, std::int32_t node, TaskId task, std::string_view kind,
                    std::span<const platform::Field> fields, bool copy_strings);

  // Appends an event without fields whose kind was packed at compile time (the scheduler's task
  // wakes): the same hash and record as append(..., kind.text(), {}, false), with less work.
  // Returns the event's index (view(...) makes its TraceEvent when someone needs one).
  std::uint64_t append(TimeUs time_us, std::int32_t node, TaskId task, const TraceKind& kind) {
    const std::uint64_t event_hash = hash_event(time_us, node, task, kind);
    const std::uint64_t index = add_hash(event_hash);
    if (config_.keep_events) {
      records_.push_back(Record{time_us, task, node, 0, fields_.size(), kind.text()});
    }
    return index;
  }
  // The event appended as `index` by append(time_us, node, task, kind).
  TraceEvent view(std::uint64_t index, TimeUs time_us, std::int32_t node, TaskId task, const TraceKind& kind) const {
    return TraceEvent{index, time_us, node, task, kind.text(), {}, event_hashes_[index]};
  }

  std::uint64_t hash() const { return rolling_hash_; }
  std::uint64_t size() const { return event_hashes_.size(); }
  std::uint64_t event_hash(std::uint64_t index) const { return event_hashes_[index]; }  // asserts the range
  bool keeps_events() const { return config_.keep_events; }
  // Requires keeps_events().
  TraceEvent event(std::uint64_t index) const;
  // One line: "#12 t=1500us n1 task=4 send to=2 size_bytes=17". Without kept events: the hash.
  std::string render(std::uint64_t index) const;
  // Renders events [first, first + count) one per line (clamped to the trace).
  std::string render_range(std::uint64_t first, std::uint64_t count) const;

  void set_node_name(std::int32_t node, std::string name);
  std::string_view node_name(std::int32_t node) const;

 private:
  struct Record {
    TimeUs time_us;
    TaskId task;
    std::int32_t node;
    std::uint32_t field_count;
    std::uint64_t first_field;
    std::string_view kind;
  };

  // Folds one event's hash into the rolling hash and the hash log; returns the event's index.
  std::uint64_t add_hash(std::uint64_t event_hash) {
    const std::uint64_t index = event_hashes_.size();
    rolling_hash_ = mix64(rolling_hash_ + event_hash * 0x9e3779b97f4a7c15ULL + index);
    event_hashes_.push_back(event_hash);
    return index;
  }

  TraceConfig config_;
  std::uint64_t rolling_hash_ = 0;
  SegmentedLog<std::uint64_t> event_hashes_;
  SegmentedLog<Record> records_;
  std::vector<platform::Field> fields_;
  TextArena text_;
  std::vector<std::string> node_names_;
};

}  // namespace spotcheck::sim
