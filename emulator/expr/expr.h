// emulator/expr/expr.h: the expression layer's public surface in one include
// (ast, placeholders, parsers, evaluators, projection, key conditions).
//
// Thread-safety: see the individual headers.
#pragma once

#include "emulator/expr/ast.h"
#include "emulator/expr/eval_condition.h"
#include "emulator/expr/eval_update.h"
#include "emulator/expr/key_condition.h"
#include "emulator/expr/key_paths.h"
#include "emulator/expr/parser.h"
#include "emulator/expr/path.h"
#include "emulator/expr/placeholders.h"
#include "emulator/expr/projection.h"
