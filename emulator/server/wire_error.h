// emulator/server/wire_error.h: the DynamoDB error envelope on the wire.
//
// Turns an Error into the HTTP status and JSON body AWS sends:
//   {"__type":"<namespace>#<Name>","message":"<text>"}
// with AWS's namespace per error (com.amazon.coral.validate for
// ValidationException, com.amazon.coral.service for protocol and auth errors,
// com.amazonaws.dynamodb.v20120810 for modeled DynamoDB errors), "Message"
// instead of "message" where the model says so, and the Error's extra members
// (CancellationReasons, Item, ...) merged in. "__type" comes first, the other
// members follow in byte order of their names (as in AWS's own bodies). An
// empty message is omitted (AWS sends none for UnknownOperationException and
// JSON parse errors). See DynamoDB's wire protocol
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "emulator/api/error.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

inline constexpr std::string_view kAmzJson10 = "application/x-amz-json-1.0";

// "com.amazon.coral.validate", "com.amazon.coral.service",
// "com.amazon.coral.availability" (control-plane "Rate exceeded" throttling)
// or "com.amazonaws.dynamodb.v20120810".
std::string_view ErrorNamespace(const Error& error);

// True when the model names the member "Message" (TransactionCanceled,
// IdempotentParameterMismatch, TransactionInProgress, Serialization).
bool UsesCapitalMessage(ErrorType type);

// 500 for InternalServerError, 400 for everything else.
int HttpStatusFor(ErrorType type);

// The compact JSON body, e.g.
// {"__type":"com.amazon.coral.validate#ValidationException","message":"..."}.
std::string ErrorBody(const Error& error);

// Status, Content-Type application/x-amz-json-1.0 and body.
WireResponse ErrorResponse(const Error& error);

}  // namespace ddblab::server
