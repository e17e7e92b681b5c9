// Cold path of every decoder: when strict decoding fails, a lenient scan looks for the
// top-level recordVersion. A number other than 1 turns the error into kUnknownRecordVersion, so
// a record written by a newer schema is reported as such instead of as a schema mismatch
// (spec §3.4: fail explicitly, do not guess).
#pragma once

#include <string_view>

#include "impl/records/record_error.h"

namespace spotcheck::records {

RecordError prefer_unknown_record_version(std::string_view bytes, RecordError strict_error);

}  // namespace spotcheck::records
