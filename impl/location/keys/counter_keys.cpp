#include "impl/location/keys/counter_keys.h"

#include "impl/check/check.h"

namespace spotcheck::location::keys {

namespace {

constexpr char kSep = '\0';

std::string capacity_prefix(std::string_view mesh_name, std::string_view routing_id_hex) {
  SPOTCHECK_ASSERT(!mesh_name.empty());
  SPOTCHECK_ASSERT(!routing_id_hex.empty());
  std::string key = "capacity";
  key.push_back(kSep);
  key.append(mesh_name);
  key.push_back(kSep);
  key.append(routing_id_hex);
  key.push_back(kSep);
  return key;
}

}  // namespace

std::string lease_generation_counter() {
  return std::string("counter") + kSep + "lease-generation";
}

std::string object_generation_counter() {
  return std::string("counter") + kSep + "object-generation";
}

std::string capacity_actors(std::string_view mesh_name, std::string_view routing_id_hex) {
  return capacity_prefix(mesh_name, routing_id_hex) + "actors";
}

std::string capacity_spots(std::string_view mesh_name, std::string_view routing_id_hex) {
  return capacity_prefix(mesh_name, routing_id_hex) + "spots";
}

std::string capacity_spot_type(std::string_view mesh_name, std::string_view routing_id_hex,
                               records::ObjectKind spot_kind, std::string_view stable_type) {
  SPOTCHECK_ASSERT(records::is_spot(spot_kind));
  SPOTCHECK_ASSERT(!stable_type.empty());
  std::string key = capacity_prefix(mesh_name, routing_id_hex) + "spot-type";
  key.push_back(kSep);
  key.append(records::to_string(spot_kind));
  key.push_back(kSep);
  key.append(stable_type);
  return key;
}

std::string mesh_node_range_begin(std::string_view mesh_name) {
  SPOTCHECK_ASSERT(!mesh_name.empty());
  std::string key = "mesh-node";
  key.push_back(kSep);
  key.append(mesh_name);
  key.push_back(kSep);
  return key;
}

std::string mesh_node_range_end(std::string_view mesh_name) {
  std::string key = mesh_node_range_begin(mesh_name);
  key.back() = '\1';
  return key;
}

std::string authority_range_begin() {
  return std::string("authority") + kSep;
}

std::string authority_range_end() {
  return std::string("authority") + '\1';
}

}  // namespace spotcheck::location::keys
