#ifndef HINGE_CLINUX_H
#define HINGE_CLINUX_H
// Linux pieces Swift's Glibc module does not import cleanly (eventfd, epoll helpers).
#include <sys/eventfd.h>
#include <sys/epoll.h>
#endif
