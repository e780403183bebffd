// libsodium (Debian: libsodium-dev): ChaCha20-Poly1305 on the transport's hot path (TavoloNoise.ChaChaPolyAEAD).
#include <sodium.h>
