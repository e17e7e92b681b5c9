#include "sim/random/streams.h"

#include "impl/check/check.h"

namespace spotcheck::sim {

Stream& StreamRegistry::get(std::string_view name) {
  SPOTCHECK_ASSERT_ABORT(!name.empty());
  auto found = streams_.find(name);
  if (found != streams_.end()) {
    return *found->second;
  }
  auto stream = std::make_unique<Stream>(root_seed_, std::string(name));
  stream->bind(next_id_++, source_);
  Stream& result = *stream;
  streams_.emplace(std::string(name), std::move(stream));
  return result;
}

void StreamRegistry::set_draw_source(DrawSource& source) {
  source_ = &source;
  for (auto& [name, stream] : streams_) {
    stream->bind(stream->id(), source_);
  }
}

}  // namespace spotcheck::sim
