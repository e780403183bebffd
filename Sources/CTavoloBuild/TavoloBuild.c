#include "TavoloBuild.h"

// scripts/package writes this header (`#define TAVOLO_BUILD_COMMIT "…"`) outside the source tree and adds its
// directory with `-Xcc -I`: the flag stays the same from one commit to the next, so a new commit recompiles this file
// only, where a `-D` with the commit in it would change every compile command and rebuild everything.
#if __has_include("tavolo_build_commit.h")
#include "tavolo_build_commit.h"
#endif

#ifndef TAVOLO_BUILD_COMMIT
#define TAVOLO_BUILD_COMMIT ""
#endif

const char *tavolo_build_commit(void) { return TAVOLO_BUILD_COMMIT; }
