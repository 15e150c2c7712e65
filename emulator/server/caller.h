// emulator/server/caller.h: who sent a request, from its SigV4 credential.
//
// The Authenticator reads it from the credential scope of the Authorization
// header or the presigned query ("AKID/20261129/us-east-1/dynamodb/
// aws4_request": key id and region), in either auth mode. A RequestHandler
// gets it with each call (request_handler.h): a scheduling gate names actors
// by it, a namespace router picks a database by it.
//
// Thread-safety: a plain value type.
#pragma once

#include <string>

namespace ddblab::server {

struct Caller {
  std::string access_key;  // the credential's key id
  std::string region;      // the credential scope's region
};

}  // namespace ddblab::server
