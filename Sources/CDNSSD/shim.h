#include <dns_sd.h>
#include <stdlib.h>
#include <avahi-common/malloc.h>

/* Avahi's Bonjour compatibility library (avahi 0.8, Debian 12) allocates each DNSServiceRef with avahi_new(),
 * which does not zero it, and sets only the callback field of the call that made the ref. When avahi-daemon
 * goes away, its client callback tests the *other* callback fields first (browse, resolve, domain, query) and
 * calls the first non-NULL one: for a resolve or query ref that is uninitialised memory, and the process jumps
 * to a garbage address (seen as tavolod crashing when its host's Avahi restarts). Handing libavahi-common an
 * allocator whose malloc returns zeroed memory makes those fields NULL, so the right callback gets the error.
 * The structure must outlive every Avahi call (libavahi-common keeps the pointer): static storage. */
static void *tavolo_avahi_zeroed_malloc(size_t size) { return calloc(1, size ? size : 1); }
static const AvahiAllocator tavolo_avahi_zeroing_allocator = {
    tavolo_avahi_zeroed_malloc, free, realloc, calloc
};
static inline void tavolo_avahi_zero_new_memory(void) { avahi_set_allocator(&tavolo_avahi_zeroing_allocator); }
