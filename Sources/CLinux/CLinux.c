#define _GNU_SOURCE
#include "CLinux.h"
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

int hinge_block_termination_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int hinge_wait_termination_signal(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int sig = 0;
    for (;;) {
        int rc = sigwait(&set, &sig);
        if (rc == 0) return sig;
        if (rc != EINTR) return -1;
    }
}

int hinge_ignore_sigpipe(void) { return signal(SIGPIPE, SIG_IGN) == SIG_ERR ? -1 : 0; }

int hinge_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int hinge_socket_unacknowledged(int fd) {
    int n = 0;
    return ioctl(fd, SIOCOUTQ, &n) == 0 ? n : -1;
}

uint64_t hinge_peer_key(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0) return 0;
    if (ss.ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
        return (1ull << 32) | (uint64_t)ntohl(a->sin_addr.s_addr);
    }
    if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
        const uint8_t *b = a->sin6_addr.s6_addr;
        /* An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client. */
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(b, mapped, 12) == 0) {
            return (1ull << 32) | ((uint64_t)b[12] << 24) | ((uint64_t)b[13] << 16) | ((uint64_t)b[14] << 8) | b[15];
        }
        uint64_t k = 0;
        for (int i = 0; i < 8; i++) k = (k << 8) | b[i];
        return k | (1ull << 63);
    }
    return 0;
}

int hinge_thread_set_name(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    return pthread_setname_np(pthread_self(), cut);
}

int hinge_open_path(const char *path) { return open(path, O_PATH | O_CLOEXEC); }

int hinge_write_fully(int fd, const void *bytes, size_t length) {
    const char *p = bytes;
    while (length > 0) {
        ssize_t n = write(fd, p, length);
        if (n > 0) {
            p += n;
            length -= (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            return -1;
        }
    }
    return 0;
}
