#ifndef TAVOLO_BUILD_H
#define TAVOLO_BUILD_H

/// The commit the binaries were built from, as `scripts/package` gives it: a header `tavolo_build_commit.h` in a
/// directory of its own, outside the source tree (`swift build -Xcc -I.build-package/generated`). Empty in a plain
/// `swift build`, so the source tree needs no generated file and stays clean.
const char *tavolo_build_commit(void);

#endif
