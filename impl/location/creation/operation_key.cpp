#include "impl/location/creation/operation_key.h"

#include "impl/check/check.h"
#include "impl/records/keys.h"

namespace spotcheck::location::creation {

namespace {
constexpr std::string_view kReferencePrefix = "creation-request/";
constexpr std::size_t kReservationIdDigits = 32;

// "{format}\0{rid}\0{leaseGen}\0{op}"
std::string request_identifier_text(std::string_view format, const OperationKey& key) {
  SPOTCHECK_ASSERT(!key.source_rid_hex.empty());
  SPOTCHECK_ASSERT(key.source_lease_generation != 0);
  SPOTCHECK_ASSERT(!key.op_id.empty());
  std::string out(format);
  out.push_back('\0');
  out += key.source_rid_hex;
  out.push_back('\0');
  out += std::to_string(key.source_lease_generation);
  out.push_back('\0');
  out += key.op_id.hex();
  return out;
}
}  // namespace

std::string OperationKey::preimage() const { return request_identifier_text(kTerminalFormat, *this); }

std::string OperationKey::reservation_id() const {
  std::string id = records::sha256_hex(request_identifier_text(kReservationFormat, *this));
  SPOTCHECK_ASSERT(id.size() > kReservationIdDigits);
  id.resize(kReservationIdDigits);
  return id;
}

store::Key OperationKey::result_key() const {
  std::string key("creation-result");
  key.push_back('\0');
  key += records::sha256_hex(preimage());
  return key;
}

store::Key creation_request_key(std::string_view reservation_id) {
  SPOTCHECK_ASSERT(!reservation_id.empty());
  SPOTCHECK_ASSERT(reservation_id.find('\0') == std::string_view::npos);
  std::string key("creation-request");
  key.push_back('\0');
  key += reservation_id;
  return key;
}

std::string creation_request_reference(std::string_view reservation_id) {
  return std::string(kReferencePrefix) + std::string(reservation_id);
}

store::Key key_of_request_reference(std::string_view reference) {
  if (reference.size() <= kReferencePrefix.size() || reference.substr(0, kReferencePrefix.size()) != kReferencePrefix) {
    return {};
  }
  const std::string_view reservation = reference.substr(kReferencePrefix.size());
  if (reservation.find('\0') != std::string_view::npos) {
    return {};
  }
  return creation_request_key(reservation);
}

}  // namespace spotcheck::location::creation
