// libFuzzer target: every strict record decoder on the same input. A decoder must return a
// value or a typed error (ASan/UBSan catch the rest), and an accepted input must validate and
// re-encode to exactly the input bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "impl/records/records.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace spotcheck::records;
using spotcheck::fuzz::require;

template <class Result>
int check(const Result& result, std::string_view bytes) {
  if (!result.ok()) {
    require(!result.error().message.empty());
    require(to_string(result.error().kind) != "kUnknownErrorKind");
    return 0;
  }
  require(!validate(result.value()).has_value());
  require(encode(result.value()) == bytes);
  return 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  int accepted = 0;
  accepted += check(decode_mesh_node_descriptor_record(bytes), bytes);
  accepted += check(decode_owner_lease_record(bytes), bytes);
  accepted += check(decode_client_server_descriptor_record(bytes), bytes);
  accepted += check(decode_fanout_publisher_descriptor_record(bytes), bytes);
  accepted += check(decode_authority_record(bytes), bytes);
  require(accepted <= 1);  // the five shapes are disjoint
  return 0;
}
