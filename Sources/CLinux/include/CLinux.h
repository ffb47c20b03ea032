#ifndef HINGE_CLINUX_H
#define HINGE_CLINUX_H
// Linux pieces Swift's Glibc module does not import cleanly: eventfd flags, the packed
// `struct epoll_event` on x86_64, accept4/socket flags that are enum members in glibc, and the
// monotonic clock. Each is a tiny static inline wrapper so that Swift never hard-codes a number.
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <time.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "hinge_codec.h"

/// Names the calling thread (at most 15 bytes are kept) and lowers its scheduling priority
/// (its nice value becomes `nice`; 0 leaves it): worker threads yield the CPU to the event loops. Best
/// effort; returns -1 on failure.
static inline int hinge_thread_setup(const char *name, int nice) {
    int rc = prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
    if (nice != 0 && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) != 0) rc = -1;
    return rc;
}

/// Names the calling thread (`pthread_setname_np`, which glibc declares only under _GNU_SOURCE), cut to the
/// 15 bytes the kernel keeps. Returns 0 or an errno.
int hinge_thread_set_name(const char *name);

/// A non-blocking, close-on-exec eventfd with counter 0.
/// Hands the heap's free memory back to the kernel (glibc keeps freed chunks, so RSS stays at its peak
/// after a flood of connections has closed).
static inline int hinge_malloc_trim(void) { return malloc_trim(0); }

/// Writes all `length` bytes of `bytes` to `fd`, retrying short writes and EINTR: 0, or -1 when a write
/// fails (errno says why). The access log, the error log and the CLI's output use it.
int hinge_write_fully(int fd, const void *bytes, size_t length);
/// Serves every allocation of at least `bytes` with its own mmap, returned to the kernel when freed, and
/// turns off glibc's adaptive threshold (which rises to the largest block freed so far, after which large
/// response buffers come from the arenas and their pages stay resident after a burst). 1 on success.
static inline int hinge_malloc_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

static inline int hinge_eventfd_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

static inline int hinge_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline uint32_t hinge_epoll_in(void) { return EPOLLIN; }
static inline uint32_t hinge_epoll_out(void) { return EPOLLOUT; }
static inline uint32_t hinge_epoll_err(void) { return EPOLLERR; }
static inline uint32_t hinge_epoll_hup(void) { return EPOLLHUP; }
static inline uint32_t hinge_epoll_rdhup(void) { return EPOLLRDHUP; }
/// Wake one of the epoll instances watching a shared listener, not all (no thundering herd).
static inline uint32_t hinge_epoll_exclusive(void) { return EPOLLEXCLUSIVE; }

/// epoll_ctl with the packed event built on the C side.
static inline int hinge_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
static inline int hinge_epoll_add(void) { return EPOLL_CTL_ADD; }
static inline int hinge_epoll_mod(void) { return EPOLL_CTL_MOD; }
static inline int hinge_epoll_del(void) { return EPOLL_CTL_DEL; }

/// Size of one `struct epoll_event`, so Swift can allocate a raw buffer for epoll_wait.
static inline size_t hinge_epoll_event_size(void) { return sizeof(struct epoll_event); }
static inline int hinge_epoll_wait(int epfd, void *events, int max, int timeout_ms) {
    return epoll_wait(epfd, (struct epoll_event *)events, max, timeout_ms);
}
static inline uint32_t hinge_epoll_event_events(const void *events, int i) {
    return ((const struct epoll_event *)events)[i].events;
}
static inline uint64_t hinge_epoll_event_data(const void *events, int i) {
    return ((const struct epoll_event *)events)[i].data.u64;
}

/// An `O_PATH | O_CLOEXEC` descriptor on `path`: names an inode for `fstat` without opening the file
/// (closing it never drops the process's POSIX locks on the file, which SQLite relies on).
int hinge_open_path(const char *path);

/// accept4 returning a non-blocking, close-on-exec socket.
int hinge_accept(int fd);
/// Who a connection's peer is, for limits per client: an IPv4 address (with bit 32 set), or the /64 prefix
/// of an IPv6 address (the part a host cannot vary), from `getpeername(2)`; 0 when it cannot be read.
uint64_t hinge_peer_key(int fd);
/// The bytes of a socket's send queue the peer has not acknowledged yet (sent or not: `SIOCOUTQ`), or -1.
int hinge_socket_unacknowledged(int fd);
/// Limits a socket's unsent bytes in the kernel (`TCP_NOTSENT_LOWAT`), so that `EPOLLOUT` comes as soon as
/// the peer has taken some of them, not after a large drain (docs/http.md#slow-readers).
static inline int hinge_set_notsent_lowat(int fd, int bytes) {
    return setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes, sizeof bytes);
}
/// A non-blocking, close-on-exec TCP socket of the given family.
static inline int hinge_tcp_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
static inline int hinge_msg_nosignal(void) { return MSG_NOSIGNAL; }

/// Monotonic clock in nanoseconds (vDSO, no syscall): read through `MonotonicClock` (module Threads).
static inline uint64_t hinge_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
/// Wall clock seconds since the epoch, coarse (for the Date header).
static inline int64_t hinge_wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME_COARSE, &ts);
    return (int64_t)ts.tv_sec;
}

/// Blocks SIGTERM, SIGINT (and SIGPIPE ignored) in the calling thread; threads created afterwards
/// inherit the mask, so only the thread that calls `hinge_wait_termination_signal` sees them.
int hinge_block_termination_signals(void);
/// Waits (sigwait) for SIGTERM or SIGINT; returns the signal number, or -1 on error.
int hinge_wait_termination_signal(void);
/// signal(SIGPIPE, SIG_IGN): a peer closing early must never kill the process.
int hinge_ignore_sigpipe(void);

#endif
