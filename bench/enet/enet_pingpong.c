/*
 * ENet's round trips on 127.0.0.1, the game-networking peer of `scripts/bench mesh` (issue 19).
 *
 *   enet_pingpong FRAME_BYTES COUNT
 *
 * A forked echo server and this client each run one ENet host (the library is not shared between threads); the
 * client sends one packet of FRAME_BYTES on channel 0, waits for the echo, and times each round trip, first with
 * ENET_PACKET_FLAG_RELIABLE (acknowledged, resent, ordered), then unreliable and unsequenced (a datagram).
 * Both processes inherit the caller's CPU affinity (scripts/bench pins them like tavolo-bench).
 * Prints one JSON object: {"frameBytes":..,"pings":..,"reliable":{p50,p99,mean},"unreliable":{...}} in µs.
 */
#include <enet/enet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_percentiles(const char *name, double *s, int n) {
    double sum = 0;
    for (int i = 0; i < n; i++) sum += s[i];
    qsort(s, n, sizeof *s, cmp);
    int p99 = n * 99 / 100;
    if (p99 >= n) p99 = n - 1;
    printf("\"%s\":{\"p50\":%.3f,\"p99\":%.3f,\"mean\":%.3f}", name, s[n / 2], s[p99], sum / n);
}

/* Echoes every packet back on its channel with its flags until the client disconnects. */
static void serve(ENetHost *host) {
    ENetEvent e;
    for (;;) {
        if (enet_host_service(host, &e, 1000) < 0) return;
        if (e.type == ENET_EVENT_TYPE_RECEIVE) {
            ENetPacket *echo = enet_packet_create(e.packet->data, e.packet->dataLength, e.packet->flags &
                (ENET_PACKET_FLAG_RELIABLE | ENET_PACKET_FLAG_UNSEQUENCED));
            enet_peer_send(e.peer, e.channelID, echo);
            enet_packet_destroy(e.packet);
            enet_host_flush(host);
        } else if (e.type == ENET_EVENT_TYPE_DISCONNECT) {
            return;
        }
    }
}

/* `total` round trips with `flags`; the last `keep` are stored in `samples`. */
static int measure(ENetHost *host, ENetPeer *peer, enet_uint32 flags, unsigned char *msg, size_t size, int total,
    int keep, double *samples) {
    ENetEvent e;
    for (int i = 0; i < total; i++) {
        memcpy(msg, &i, sizeof i);
        double start = now_us();
        enet_peer_send(peer, 0, enet_packet_create(msg, size, flags));
        enet_host_flush(host);
        for (;;) {
            int r = enet_host_service(host, &e, 1000);
            if (r < 0) return -1;
            if (r == 0) {
                /* An unreliable ping lost (not seen on loopback): send the next one. */
                if (!(flags & ENET_PACKET_FLAG_RELIABLE)) break;
                continue;
            }
            if (e.type != ENET_EVENT_TYPE_RECEIVE) continue;
            int seq;
            memcpy(&seq, e.packet->data, sizeof seq);
            enet_packet_destroy(e.packet);
            if (seq == i) break;
        }
        if (i >= total - keep) samples[i - (total - keep)] = now_us() - start;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: enet_pingpong FRAME_BYTES COUNT\n");
        return 2;
    }
    size_t size = (size_t)atoi(argv[1]);
    int count = atoi(argv[2]);
    if (size < sizeof(int) || count <= 0) {
        fprintf(stderr, "enet_pingpong: FRAME_BYTES must be >= %zu and COUNT > 0\n", sizeof(int));
        return 2;
    }
    if (enet_initialize() != 0) {
        fprintf(stderr, "enet_pingpong: enet_initialize failed\n");
        return 1;
    }
    ENetAddress address = {.host = 0, .port = 0};
    enet_address_set_host_ip(&address, "127.0.0.1");
    ENetHost *server = enet_host_create(&address, 1, 1, 0, 0);
    if (!server) {
        fprintf(stderr, "enet_pingpong: cannot create the server host\n");
        return 1;
    }
    address.port = server->address.port;
    if (address.port == 0) {  /* ENet leaves port 0 when asked for any: read the bound one */
        ENetAddress bound;
        enet_socket_get_address(server->socket, &bound);
        address.port = bound.port;
    }
    pid_t child = fork();
    if (child == 0) {
        serve(server);
        enet_host_destroy(server);
        _exit(0);
    }
    enet_host_destroy(server); /* the child's copy serves */

    ENetHost *client = enet_host_create(NULL, 1, 1, 0, 0);
    ENetPeer *peer = client ? enet_host_connect(client, &address, 1, 0) : NULL;
    ENetEvent e;
    if (!peer || enet_host_service(client, &e, 5000) <= 0 || e.type != ENET_EVENT_TYPE_CONNECT) {
        fprintf(stderr, "enet_pingpong: cannot connect to the echo server\n");
        kill(child, SIGTERM);
        return 1;
    }
    unsigned char *msg = calloc(size, 1);
    memset(msg, 'x', size);
    double *reliable = calloc(count, sizeof *reliable), *unreliable = calloc(count, sizeof *unreliable);
    int total = count + count / 10;
    if (measure(client, peer, ENET_PACKET_FLAG_RELIABLE, msg, size, total, count, reliable) != 0 ||
        measure(client, peer, ENET_PACKET_FLAG_UNSEQUENCED, msg, size, total, count, unreliable) != 0) {
        fprintf(stderr, "enet_pingpong: service failed\n");
        kill(child, SIGTERM);
        return 1;
    }
    enet_peer_disconnect(peer, 0);
    for (int i = 0; i < 50 && enet_host_service(client, &e, 10) >= 0; i++)
        if (e.type == ENET_EVENT_TYPE_DISCONNECT) break;
    enet_host_destroy(client);
    kill(child, SIGTERM);
    waitpid(child, NULL, 0);
    enet_deinitialize();

    printf("{\"frameBytes\":%zu,\"pings\":%d,", size, count);
    print_percentiles("reliable", reliable, count);
    printf(",");
    print_percentiles("unreliable", unreliable, count);
    printf("}\n");
    return 0;
}
