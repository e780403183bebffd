#ifndef TAVOLO_BUILD_H
#define TAVOLO_BUILD_H

/// The commit the binaries were built from, as `scripts/package` passes it:
/// `swift build -Xcc -DTAVOLO_BUILD_COMMIT='"abc1234"'`. Empty in a plain `swift build`, so the source tree needs
/// no generated file and stays clean.
const char *tavolo_build_commit(void);

#endif
