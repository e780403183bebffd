#include "TavoloBuild.h"

#ifndef TAVOLO_BUILD_COMMIT
#define TAVOLO_BUILD_COMMIT ""
#endif

const char *tavolo_build_commit(void) { return TAVOLO_BUILD_COMMIT; }
