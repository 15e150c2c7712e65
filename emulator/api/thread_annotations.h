// emulator/api/thread_annotations.h: Clang thread-safety annotations.
//
// Macros over Clang's -Wthread-safety attributes (empty on other
// compilers), so that "which lock guards this" is written in the code and
// checked, not left to comments:
//
//   class Engine {
//     Mutex mu_;
//     Catalog catalog_ DDBLAB_GUARDED_BY(mu_);      // read/written under mu_
//     void Settle() DDBLAB_REQUIRES(mu_);           // caller holds mu_
//     Mutex& mu() DDBLAB_RETURN_CAPABILITY(mu_);    // names mu_ to others
//   };
//   void Helper(Engine& e) DDBLAB_REQUIRES(e.mu());  // free function
//
// The check runs as a ctest (tests/tools/thread_safety_check.py: clang++
// -fsyntax-only -Wthread-safety -Werror over engine/ and server/).
// The capability types themselves are in mutex.h.
//
// Thread-safety: macros only.
#pragma once

#if defined(__clang__)
#define DDBLAB_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DDBLAB_THREAD_ANNOTATION(x)
#endif

// On a class: it is a capability (a lock).
#define DDBLAB_CAPABILITY(name) DDBLAB_THREAD_ANNOTATION(capability(name))
// On a class: an RAII object that holds a capability while it lives.
#define DDBLAB_SCOPED_CAPABILITY DDBLAB_THREAD_ANNOTATION(scoped_lockable)
// On a member: read and written only with the capability held.
#define DDBLAB_GUARDED_BY(x) DDBLAB_THREAD_ANNOTATION(guarded_by(x))
// On a pointer member: what it points to is guarded by the capability.
#define DDBLAB_PT_GUARDED_BY(x) DDBLAB_THREAD_ANNOTATION(pt_guarded_by(x))
// On a function: the caller must hold (REQUIRES) / must not hold
// (EXCLUDES) the capabilities.
#define DDBLAB_REQUIRES(...) \
  DDBLAB_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define DDBLAB_EXCLUDES(...) \
  DDBLAB_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
// On a function: it acquires / releases the capabilities (none named: the
// object's own, for a capability or scoped-capability class).
#define DDBLAB_ACQUIRE(...) \
  DDBLAB_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define DDBLAB_RELEASE(...) \
  DDBLAB_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
// On a function: it returns a reference to this capability.
#define DDBLAB_RETURN_CAPABILITY(x) DDBLAB_THREAD_ANNOTATION(lock_returned(x))
// On a function: the analysis skips its body (say why beside it).
#define DDBLAB_NO_THREAD_SAFETY_ANALYSIS \
  DDBLAB_THREAD_ANNOTATION(no_thread_safety_analysis)
