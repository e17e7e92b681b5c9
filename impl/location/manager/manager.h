// The Manager (spec §7, §7.2): the application's entry point for Actor and User Spot creation,
// lookup and termination on one node. Every call blocks only its calling task and returns a
// value or a typed ManagerError; nothing is guessed.
//
//   create_actor(id, type, deadline)             Create, caller-given ActorId (command 49)
//   get_or_create_actor(id, type, deadline)      GetOrCreate, caller-given ActorId
//   create_user_spot(type, deadline)             Create, Framework-issued UUID v4 SpotId (47)
//   get_or_create_user_spot(id, type, deadline)  GetOrCreate, caller SpotId + stable type
//   find_actor(id) / find_spot(id)               the current Ready ref, or nullopt
//   destroy(actor_ref) / close(spot_ref)         only the ref's generation (command 48)
#pragma once

#include <optional>
#include <string>

#include "impl/location/creation/creation_client.h"
#include "impl/location/find/close.h"
#include "impl/location/find/find.h"

namespace spotcheck::location::creation {

struct CreateOptions {
  std::string in_mesh;  // empty: the node's mesh
  std::string args;     // opaque creation arguments handed to the factory
  std::optional<OperationId> op_id;  // the same request again (re-read of its stored result)
};

class Manager {
 public:
  Manager(platform::Platform& platform, CreationClient& creations, find::CloseClient& closes,
          AuthorityOps& authority);

  ManagerResult<CreateReply> create_actor(std::string actor_id, std::string stable_type,
                                          platform::TimeUs deadline_us, CreateOptions options = {});
  ManagerResult<CreateReply> get_or_create_actor(std::string actor_id, std::string stable_type,
                                                 platform::TimeUs deadline_us, CreateOptions options = {});
  ManagerResult<CreateReply> create_user_spot(std::string stable_type, platform::TimeUs deadline_us,
                                              CreateOptions options = {});
  ManagerResult<CreateReply> get_or_create_user_spot(std::string spot_id, std::string stable_type,
                                                     platform::TimeUs deadline_us, CreateOptions options = {});

  ManagerResult<std::optional<ActorRef>> find_actor(const std::string& actor_id);
  ManagerResult<std::optional<SpotRef>> find_spot(const std::string& spot_id);

  ManagerResult<bool> destroy(const ActorRef& ref, platform::TimeUs deadline_us);
  ManagerResult<bool> close(const SpotRef& ref, platform::TimeUs deadline_us);

 private:
  ManagerResult<CreateReply> create(records::ObjectKind kind, std::string id, std::string stable_type,
                                    CreateMode mode, platform::TimeUs deadline_us, CreateOptions options);
  ManagerResult<std::optional<ObjectRef>> find(records::AuthorityKind kind, const std::string& id);

  platform::Platform& _platform;
  CreationClient& _creations;
  find::CloseClient& _closes;
  AuthorityOps& _authority;
};

}  // namespace spotcheck::location::creation
