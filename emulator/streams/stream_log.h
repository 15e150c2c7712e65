// emulator/streams/stream_log.h: the stream log as the streams layer names
// it. The rows and the typed store live in storage (storage/stream_store.h,
// which holds all of their SQL); this header gives them their streams names.
//
// Thread-safety: none; callers hold the engine lock.
#pragma once

#include "emulator/storage/stream_store.h"

namespace ddblab::streams {

using storage::EventName;
using storage::EventNameText;
using storage::ParseViewType;
using storage::RecordRow;
using storage::ShardRow;
using storage::StreamRow;
using storage::ViewType;
using storage::ViewTypeName;

// The store of streams, shards and records (reached through the ItemStore or
// the open WriteTransaction).
using StreamLog = storage::StreamStore;

}  // namespace ddblab::streams
