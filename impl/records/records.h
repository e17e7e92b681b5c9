// Umbrella header: every public record codec and the key derivation.
#pragma once

#include "impl/records/authority_record.h"
#include "impl/records/client_server_descriptor_record.h"
#include "impl/records/enums.h"
#include "impl/records/fanout_publisher_descriptor_record.h"
#include "impl/records/keys.h"
#include "impl/records/limits.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/records/owner_lease_record.h"
#include "impl/records/record_error.h"
#include "impl/records/validate.h"
