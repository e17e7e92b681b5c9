// The top level the three descriptor records share (spec §3.4): {"descriptor": {...},
// "descriptorRevision", "leaseGeneration", "ownerId", "recordVersion"}. The three top-level
// values repeat fields of `descriptor` and must equal them. Internal to impl/records.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/record_error.h"

namespace spotcheck::records::detail {

inline constexpr std::array<std::string_view, 5> kEnvelopeKeys{
    "descriptor", "descriptorRevision", "leaseGeneration", "ownerId", "recordVersion"};
inline constexpr ObjectSchema kEnvelope{"", kEnvelopeKeys};

// The copies a descriptor record keeps once (in `descriptor`) and writes twice.
struct EnvelopeFacts {
  std::uint64_t descriptor_revision = 0;
  std::uint64_t lease_generation = 0;
  std::string owner_id;
};

// Opens the top-level object and the "descriptor" key; the caller then writes the descriptor object.
void begin_descriptor_envelope(CanonicalJsonWriter& w);
// After the descriptor object: the four top-level keys and the closing brace.
void end_descriptor_envelope(CanonicalJsonWriter& w, const EnvelopeFacts& facts);

// Opens the top level; true when the "descriptor" object is next and was opened.
bool read_descriptor_envelope_start(CanonicalJsonReader& r);
// After the descriptor object: reads the four top-level keys, closes and finishes the document.
EnvelopeFacts read_descriptor_envelope_end(CanonicalJsonReader& r);
// kInconsistent when a top-level copy differs from the descriptor's own field.
std::optional<RecordError> check_envelope(const EnvelopeFacts& top, const EnvelopeFacts& descriptor);

}  // namespace spotcheck::records::detail
