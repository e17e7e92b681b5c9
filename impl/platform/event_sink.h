// Seam: observable protocol events. The simulator stamps each with (virtual time, node, task),
// folds it into the trace hash and hands it to the property checkers.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "impl/platform/marks.h"

namespace spotcheck::platform {

// One named field: either a number or text. Keys and kinds are string literals.
struct Field {
  std::string_view key;
  std::int64_t number = 0;
  std::string_view text;
  bool is_text = false;

  static constexpr Field num(std::string_view k, std::int64_t v) { return Field{k, v, {}, false}; }
  static constexpr Field str(std::string_view k, std::string_view v) { return Field{k, 0, v, true}; }
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // The fields in their declared order (the order is part of the event: the trace hash folds it).
  virtual void emit(std::string_view kind, std::span<const Field> fields) = 0;
  void emit(std::string_view kind, std::initializer_list<Field> fields) {
    emit(kind, std::span<const Field>(fields.begin(), fields.size()));
  }
  // A coverage mark fired (marks.h): counted by a simulated run, ignored elsewhere. Not an event.
  virtual void mark(Mark mark) { static_cast<void>(mark); }
};

inline void sometimes(EventSink& sink, Mark mark) { sink.mark(mark); }

}  // namespace spotcheck::platform
