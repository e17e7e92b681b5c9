#include "impl/records/descriptor_envelope.h"

#include "impl/records/limits.h"
#include "impl/records/record_codec_common.h"

namespace spotcheck::records::detail {

void begin_descriptor_envelope(CanonicalJsonWriter& w) {
  w.begin_object();
  w.key("descriptor");
}

void end_descriptor_envelope(CanonicalJsonWriter& w, const EnvelopeFacts& facts) {
  w.key("descriptorRevision");
  w.decimal_string_value(facts.descriptor_revision);
  w.key("leaseGeneration");
  w.decimal_string_value(facts.lease_generation);
  w.key("ownerId");
  w.string_value(facts.owner_id);
  w.key("recordVersion");
  w.number_value(kRecordVersion);
  w.end_object();
}

bool read_descriptor_envelope_start(CanonicalJsonReader& r) {
  r.begin_object("");
  return r.key(kEnvelope, 0) && r.begin_object("descriptor");
}

EnvelopeFacts read_descriptor_envelope_end(CanonicalJsonReader& r) {
  EnvelopeFacts top;
  if (r.key(kEnvelope, 1)) {
    top.descriptor_revision = r.decimal_string("descriptorRevision", kRevisionMax);
  }
  if (r.key(kEnvelope, 2)) {
    top.lease_generation = r.decimal_string("leaseGeneration", kRevisionMax);
  }
  if (r.key(kEnvelope, 3)) {
    top.owner_id = r.string("ownerId");
  }
  if (r.key(kEnvelope, 4)) {
    r.record_version("recordVersion");
  }
  r.end_object(kEnvelope);
  r.finish();
  return top;
}

std::optional<RecordError> check_envelope(const EnvelopeFacts& top, const EnvelopeFacts& descriptor) {
  if (top.descriptor_revision != descriptor.descriptor_revision) {
    return inconsistent("descriptorRevision", "differs from descriptor.descriptorRevision");
  }
  if (top.lease_generation != descriptor.lease_generation) {
    return inconsistent("leaseGeneration", "differs from descriptor.leaseGeneration");
  }
  if (top.owner_id != descriptor.owner_id) {
    return inconsistent("ownerId", "differs from descriptor.ownerId");
  }
  return std::nullopt;
}

}  // namespace spotcheck::records::detail
