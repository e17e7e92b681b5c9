#include "sim/trace/trace.h"

#include <utility>

#include "impl/check/check.h"
#include "sim/trace/hash.h"

namespace spotcheck::sim {

std::uint64_t hash_event(TimeUs time_us, std::int32_t node, TaskId task, std::string_view kind,
                         std::span<const platform::Field> fields) {
  Hasher hasher;
  hasher.add(static_cast<std::uint64_t>(time_us));
  hasher.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(node)));
  hasher.add(task);
  hasher.add_bytes(kind);
  for (const platform::Field& field : fields) {
    hasher.add_bytes(field.key);
    if (field.is_text) {
      hasher.add(1);
      hasher.add_bytes(field.text);
    } else {
      hasher.add(static_cast<std::uint64_t>(field.number));
    }
  }
  return hasher.finish();
}

Trace::Trace(TraceConfig config) : config_(config) {}

TraceEvent Trace::append(TimeUs time_us, std::int32_t node, TaskId task, std::string_view kind,
                         std::span<const platform::Field> fields, bool copy_strings) {
  SPOTCHECK_ASSERT_ABORT(!kind.empty());
  SPOTCHECK_ASSERT_ABORT(fields.size() < (1U << 16));
  const std::uint64_t event_hash = hash_event(time_us, node, task, kind, fields);
  const std::uint64_t index = add_hash(event_hash);

  TraceEvent view{index, time_us, node, task, kind, fields, event_hash};
  if (!config_.keep_events) {
    return view;
  }
  const std::uint64_t first_field = fields_.size();
  for (const platform::Field& field : fields) {
    platform::Field stored = field;
    if (copy_strings) {
      stored.key = text_.store(field.key);
    }
    if (field.is_text) {
      stored.text = text_.store(field.text);
    }
    fields_.push_back(stored);
  }
  const std::string_view stored_kind = copy_strings ? text_.store(kind) : kind;
  records_.push_back(Record{time_us, task, node, static_cast<std::uint32_t>(fields.size()), first_field, stored_kind});
  view.kind = stored_kind;
  view.fields = std::span<const platform::Field>(fields_.data() + first_field, fields.size());
  return view;
}

TraceEvent Trace::event(std::uint64_t index) const {
  SPOTCHECK_ASSERT_ABORT(config_.keep_events);
  SPOTCHECK_ASSERT_ABORT(index < records_.size());
  const Record& record = records_[index];
  return TraceEvent{index,
                    record.time_us,
                    record.node,
                    record.task,
                    record.kind,
                    std::span<const platform::Field>(fields_.data() + record.first_field, record.field_count),
                    event_hashes_[index]};
}

void Trace::set_node_name(std::int32_t node, std::string name) {
  SPOTCHECK_ASSERT_ABORT(node >= 0);
  const auto slot = static_cast<std::size_t>(node);
  if (node_names_.size() <= slot) {
    node_names_.resize(slot + 1);
  }
  node_names_[slot] = std::move(name);
}

std::string_view Trace::node_name(std::int32_t node) const {
  if (node < 0 || static_cast<std::size_t>(node) >= node_names_.size()) {
    return "world";
  }
  return node_names_[static_cast<std::size_t>(node)];
}

}  // namespace spotcheck::sim
