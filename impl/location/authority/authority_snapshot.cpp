#include "impl/location/authority/authority_snapshot.h"

#include <string_view>

namespace spotcheck::location {

std::optional<AuthorityKey> parse_authority_key(const store::Key& key) {
  constexpr std::string_view kPrefix("authority\0", 10);
  const std::string_view text(key);
  if (text.substr(0, kPrefix.size()) != kPrefix) {
    return std::nullopt;
  }
  const std::string_view rest = text.substr(kPrefix.size());
  const std::size_t separator = rest.find('\0');
  if (separator == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view kind = rest.substr(0, separator);
  const std::string_view id = rest.substr(separator + 1);
  if (id.empty() || id.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  if (kind == "actor") {
    return AuthorityKey{records::AuthorityKind::kActor, std::string(id)};
  }
  if (kind == "spot") {
    return AuthorityKey{records::AuthorityKind::kSpot, std::string(id)};
  }
  return std::nullopt;
}

}  // namespace spotcheck::location
