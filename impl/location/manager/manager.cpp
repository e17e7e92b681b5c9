#include "impl/location/manager/manager.h"

#include <utility>

#include "impl/location/events/creation_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::location::creation {


Manager::Manager(platform::Platform& platform, CreationClient& creations, find::CloseClient& closes,
                 AuthorityOps& authority)
    : _platform(platform), _creations(creations), _closes(closes), _authority(authority) {}

ManagerResult<CreateReply> Manager::create(records::ObjectKind kind, std::string id, std::string stable_type,
                                           CreateMode mode, platform::TimeUs deadline_us, CreateOptions options) {
  CreateSpec spec;
  spec.object_kind = kind;
  spec.id = std::move(id);
  spec.stable_type = std::move(stable_type);
  spec.mode = mode;
  spec.args = std::move(options.args);
  spec.deadline_us = deadline_us;
  spec.in_mesh = std::move(options.in_mesh);
  spec.op_id = options.op_id;
  return _creations.create(spec);
}

ManagerResult<CreateReply> Manager::create_actor(std::string actor_id, std::string stable_type,
                                                 platform::TimeUs deadline_us, CreateOptions options) {
  if (actor_id.empty()) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "an Actor's ID is given by the caller"};
  }
  return create(records::ObjectKind::kActor, std::move(actor_id), std::move(stable_type), CreateMode::kCreate,
                deadline_us, std::move(options));
}

ManagerResult<CreateReply> Manager::get_or_create_actor(std::string actor_id, std::string stable_type,
                                                        platform::TimeUs deadline_us, CreateOptions options) {
  if (actor_id.empty()) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "an Actor's ID is given by the caller"};
  }
  return create(records::ObjectKind::kActor, std::move(actor_id), std::move(stable_type), CreateMode::kGetOrCreate,
                deadline_us, std::move(options));
}

ManagerResult<CreateReply> Manager::create_user_spot(std::string stable_type, platform::TimeUs deadline_us,
                                                     CreateOptions options) {
  return create(records::ObjectKind::kUserSpot, std::string(), std::move(stable_type), CreateMode::kCreate,
                deadline_us, std::move(options));
}

ManagerResult<CreateReply> Manager::get_or_create_user_spot(std::string spot_id, std::string stable_type,
                                                            platform::TimeUs deadline_us, CreateOptions options) {
  if (spot_id.empty()) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "GetOrCreate takes the caller's SpotId"};
  }
  return create(records::ObjectKind::kUserSpot, std::move(spot_id), std::move(stable_type), CreateMode::kGetOrCreate,
                deadline_us, std::move(options));
}

ManagerResult<std::optional<ObjectRef>> Manager::find(records::AuthorityKind kind, const std::string& id) {
  ManagerResult<std::optional<ObjectRef>> found = find::find_ready(_authority, AuthorityKey{kind, id});
  const bool hit = found.ok() && found.value().has_value();
  platform::emit_event(
      _platform.events, kinds::kFindResult,
      events::FindResult{records::to_string(kind), id,
                         found.ok() ? (hit ? "ready" : "none") : to_string(found.error_kind()),
                         hit ? static_cast<std::int64_t>(found.value()->object_generation) : 0});
  return found;
}

ManagerResult<std::optional<ActorRef>> Manager::find_actor(const std::string& actor_id) {
  return find(records::AuthorityKind::kActor, actor_id);
}

ManagerResult<std::optional<SpotRef>> Manager::find_spot(const std::string& spot_id) {
  return find(records::AuthorityKind::kSpot, spot_id);
}

ManagerResult<bool> Manager::destroy(const ActorRef& ref, platform::TimeUs deadline_us) {
  if (ref.kind != records::AuthorityKind::kActor) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "Destroy takes an ActorRef"};
  }
  return _closes.close(ref, deadline_us);
}

ManagerResult<bool> Manager::close(const SpotRef& ref, platform::TimeUs deadline_us) {
  if (ref.kind != records::AuthorityKind::kSpot) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "Close takes a SpotRef"};
  }
  return _closes.close(ref, deadline_us);
}

}  // namespace spotcheck::location::creation
