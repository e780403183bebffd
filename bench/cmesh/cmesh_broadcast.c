/*
 * The C baseline of tavolo-bench's broadcast (issue 19): NODES processes on 127.0.0.1 in a full TCP mesh
 * (TCP_NODELAY), each sending COUNT frames of FRAME_BYTES to every other process, and reading what the others send.
 *
 *   cmesh_broadcast NODES FRAME_BYTES COUNT [BATCH]
 *
 * The parent makes the listeners, forks the nodes, waits until every node has its NODES-1 connections, starts the
 * clock, lets them go, and stops it when the last node has received all NODES-1 x COUNT frames. Each node is one
 * thread with non-blocking sockets and poll(2). BATCH (default 1) is how many frames go in one write(2): 1 is the
 * issue's baseline (a send per message, as a program that sends each message when it has it); 64 shows what
 * the sockets take when writes are gathered, as an event loop gathers what was written in one pass.
 * The processes inherit the caller's CPU affinity (scripts/bench pins them like tavolo-bench).
 * Prints one JSON object: nodes, frameBytes, each, messagesReceived, seconds, messagesPerSecond.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES 32

static void die(const char *what) {
    perror(what);
    exit(1);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void tune(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* One node: connects to the listeners of the nodes after it, accepts the nodes before it, reports ready, waits
 * for the start byte, then sends and receives until done; reports done. */
static size_t frames_per_write = 1;

static void node(int me, int nodes, int *listeners, int *ports, int ready_fd, int go_fd, size_t size, long count) {
    int peers[MAX_NODES], n = 0;
    for (int j = me + 1; j < nodes; j++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(ports[j])};
        a.sin_addr.s_addr = inet_addr("127.0.0.1");
        if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) die("connect");
        peers[n++] = fd;
    }
    for (int j = 0; j < me; j++) {
        int fd = accept(listeners[me], NULL, NULL);
        if (fd < 0) die("accept");
        peers[n++] = fd;
    }
    for (int j = 0; j < nodes; j++) close(listeners[j]);
    for (int k = 0; k < n; k++) tune(peers[k]);

    char *batch = malloc(size * frames_per_write), *in = malloc(1 << 16);
    memset(batch, 'x', size * frames_per_write);
    size_t total = size * (size_t)count; /* bytes each peer must get from me */
    size_t sent[MAX_NODES] = {0}, got = 0, expected = total * (size_t)n;
    char c = 'r';
    if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1) die("pipe");

    struct pollfd p[MAX_NODES];
    while (got < expected) {
        for (int k = 0; k < n; k++) {
            p[k].fd = peers[k];
            p[k].events = POLLIN | (sent[k] < total ? POLLOUT : 0);
        }
        if (poll(p, n, 5000) <= 0) die("poll (stalled)");
        for (int k = 0; k < n; k++) {
            if (p[k].revents & POLLOUT) {
                size_t left = total - sent[k], off = sent[k] % size, chunk = size * frames_per_write - off;
                if (chunk > left) chunk = left;
                ssize_t w = write(peers[k], batch + off, chunk);
                if (w > 0) sent[k] += (size_t)w;
                else if (w < 0 && errno != EAGAIN) die("write");
            }
            if (p[k].revents & (POLLIN | POLLHUP | POLLERR)) {
                ssize_t r = read(peers[k], in, 1 << 16);
                if (r > 0) got += (size_t)r;
                else if (r == 0 || errno != EAGAIN) die("read (a peer left early)");
            }
        }
    }
    /* Finish sending (every peer may still be waiting for my last bytes), then report. */
    for (int k = 0; k < n; k++) fcntl(peers[k], F_SETFL, fcntl(peers[k], F_GETFL) & ~O_NONBLOCK);
    for (int k = 0; k < n; k++) {
        while (sent[k] < total) {
            size_t left = total - sent[k], off = sent[k] % size, chunk = size * frames_per_write - off;
            if (chunk > left) chunk = left;
            ssize_t w = write(peers[k], batch + off, chunk);
            if (w <= 0) die("write");
            sent[k] += (size_t)w;
        }
    }
    c = 'd';
    if (write(ready_fd, &c, 1) != 1) die("pipe");
    /* Stay connected until the parent has seen everyone done (a close now could reset a slower reader). */
    if (read(go_fd, &c, 1) < 0) die("pipe");
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: cmesh_broadcast NODES FRAME_BYTES COUNT [BATCH]\n");
        return 2;
    }
    int nodes = atoi(argv[1]);
    size_t size = (size_t)atol(argv[2]);
    long count = atol(argv[3]);
    long batch = argc == 5 ? atol(argv[4]) : 1;
    if (nodes < 2 || nodes > MAX_NODES || size == 0 || count <= 0 || batch <= 0 || batch > 1024) {
        fprintf(stderr, "cmesh_broadcast: NODES in 2..%d, FRAME_BYTES and COUNT > 0, BATCH in 1..1024\n", MAX_NODES);
        return 2;
    }
    frames_per_write = (size_t)batch;
    int listeners[MAX_NODES], ports[MAX_NODES];
    for (int i = 0; i < nodes; i++) {
        listeners[i] = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
        a.sin_addr.s_addr = inet_addr("127.0.0.1");
        socklen_t len = sizeof a;
        if (bind(listeners[i], (struct sockaddr *)&a, sizeof a) != 0 || listen(listeners[i], MAX_NODES) != 0 ||
            getsockname(listeners[i], (struct sockaddr *)&a, &len) != 0)
            die("listen");
        ports[i] = ntohs(a.sin_port);
    }
    int to_parent[2], go[MAX_NODES][2];
    if (pipe(to_parent) != 0) die("pipe");
    pid_t pids[MAX_NODES];
    for (int i = 0; i < nodes; i++) {
        if (pipe(go[i]) != 0) die("pipe");
        pids[i] = fork();
        if (pids[i] < 0) die("fork");
        if (pids[i] == 0) {
            /* Only the parent may hold the start pipes' write ends: a node's last read ends when the parent closes. */
            for (int k = 0; k <= i; k++) close(go[k][1]);
            close(to_parent[0]);
            node(i, nodes, listeners, ports, to_parent[1], go[i][0], size, count);
        }
    }
    for (int i = 0; i < nodes; i++) close(listeners[i]);
    char c;
    for (int i = 0; i < nodes; i++)
        if (read(to_parent[0], &c, 1) != 1 || c != 'r') die("a node did not get ready");
    double start = now_s();
    for (int i = 0; i < nodes; i++)
        if (write(go[i][1], "g", 1) != 1) die("pipe");
    for (int i = 0; i < nodes; i++)
        if (read(to_parent[0], &c, 1) != 1 || c != 'd') die("a node did not finish");
    double seconds = now_s() - start;
    for (int i = 0; i < nodes; i++) close(go[i][1]);
    for (int i = 0; i < nodes; i++) waitpid(pids[i], NULL, 0);
    long received = (long)nodes * (nodes - 1) * count;
    printf("{\"nodes\":%d,\"frameBytes\":%zu,\"each\":%ld,\"framesPerWrite\":%zu,\"messagesReceived\":%ld,"
           "\"seconds\":%.6f,\"messagesPerSecond\":%.1f}\n",
        nodes, size, count, frames_per_write, received, seconds, received / seconds);
    return 0;
}
