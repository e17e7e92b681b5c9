// Typed events: one struct per event kind whose fields are declared once, in a
// `fields(io, event)` function template (the pattern of impl/location/messaging/commands.cpp).
// The same declaration serves every side of an event:
//   - the emitter: emit_event(sink, kind, event) writes the fields in declared order (FieldWriter);
//   - the trace, its hash and its renderer: they see those fields as platform::Field, unchanged;
//   - the checkers: decode_event<E>(fields) reads them back into the struct (FieldDecoder),
//     in declared order, so reading an event is linear in its fields.
//
// A member is either text (std::string_view: it views the emitter's strings, or the trace's
// while an event is judged) or a number (std::int64_t). A group of fields present only in some
// events of a kind is declared with io.group(present, first_key): the writer writes the group
// when `present` is true; the decoder sets `present` when the event holds `first_key`.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "impl/check/check.h"
#include "impl/platform/event_sink.h"

namespace spotcheck::platform {

// An event's number fields are int64; the protocol's counters (generations, versions) are uint64
// values below 2^63, and this is the one place they cross.
inline std::int64_t as_i64(std::uint64_t value) {
  SPOTCHECK_ASSERT(value <= static_cast<std::uint64_t>(INT64_MAX));
  return static_cast<std::int64_t>(value);
}

// `fields(io, e)` is written once for a const event (writing) and a mutable one (decoding).
template <class M, class Event>
concept FieldsOf = std::same_as<std::remove_const_t<M>, Event>;

// Collects an event's fields into a fixed array (no allocation): at most N fields.
template <std::size_t N>
class FieldWriter {
 public:
  void operator()(std::string_view key, std::string_view value) { push(Field::str(key, value)); }
  void operator()(std::string_view key, std::int64_t value) { push(Field::num(key, value)); }
  bool group(bool present, std::string_view first_key) const {
    static_cast<void>(first_key);
    return present;
  }
  std::span<const Field> fields() const { return std::span<const Field>(_fields.data(), _size); }

 private:
  void push(Field field) {
    SPOTCHECK_ASSERT(_size < N);  // else the event struct declares more fields than its kFieldsMax
    _fields[_size++] = field;
  }
  std::array<Field, N> _fields{};
  std::size_t _size = 0;
};

// Reads an event's fields back into its struct. Fields are looked for at the next position first
// (the declared order), then anywhere. A missing field (or one of the other type) reads as empty
// or 0 and is remembered: ok() is false and missing() names the first one.
class FieldDecoder {
 public:
  explicit FieldDecoder(std::span<const Field> fields) : _fields(fields) {}

  void operator()(std::string_view key, std::string_view& value) {
    const Field* field = find(key, true);
    value = field != nullptr ? field->text : std::string_view();
  }
  void operator()(std::string_view key, std::int64_t& value) {
    const Field* field = find(key, false);
    value = field != nullptr ? field->number : 0;
  }
  bool group(bool& present, std::string_view first_key) {
    present = locate(first_key) != nullptr;
    return present;
  }

  bool ok() const { return _missing.empty(); }
  std::string_view missing() const { return _missing; }

 private:
  const Field* locate(std::string_view key) const {
    if (_next < _fields.size() && _fields[_next].key == key) {
      return &_fields[_next];
    }
    for (const Field& field : _fields) {  // bounded by the event's fields
      if (field.key == key) {
        return &field;
      }
    }
    return nullptr;
  }
  const Field* find(std::string_view key, bool text) {
    const Field* field = locate(key);
    if (field == nullptr || field->is_text != text) {
      if (_missing.empty()) {
        _missing = key;
      }
      return nullptr;
    }
    _next = static_cast<std::size_t>(field - _fields.data()) + 1;
    return field;
  }

  std::span<const Field> _fields;
  std::size_t _next = 0;
  std::string_view _missing;
};

// Emits `event` as `kind` with its declared fields, in order. E::kFieldsMax bounds them.
template <class E>
void emit_event(EventSink& sink, std::string_view kind, const E& event) {
  FieldWriter<E::kFieldsMax> writer;
  fields(writer, event);
  sink.emit(kind, writer.fields());
}

// Decodes an event of type E from its fields. ok() of the decoder tells whether every field was
// there; the result is valid only as long as the fields' texts are.
struct Decoded {
  bool ok = false;
  std::string missing;  // the first missing field's key, when !ok
};
template <class E>
Decoded decode_event(std::span<const Field> from, E& event) {
  FieldDecoder decoder(from);
  fields(decoder, event);
  return Decoded{decoder.ok(), std::string(decoder.missing())};
}

}  // namespace spotcheck::platform
