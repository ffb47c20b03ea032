#!/usr/bin/env python3
"""Opens N idle keep-alive connections to a server (each after one request) and prints the server's
VmRSS from /proc/PID/status. Usage: idle_connections.py PORT PID [N]"""
import resource
import socket
import sys

port, pid = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, n + 100)), hard))


def rss_kib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


before = rss_kib()
socks = []
req = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(req)
    socks.append(s)
ok = 0
for s in socks:
    s.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data or not data.endswith(b"}"):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    ok += data.startswith(b"HTTP/1.1 200")
after = rss_kib()
print(f"idle keep-alive connections: {ok}/{n} answered and held open; "
      f"VmRSS before {before / 1024:.1f} MiB, with {n} idle {after / 1024:.1f} MiB (target <= 64 MiB)")
for s in socks:
    s.close()
sys.exit(0 if ok == n and after <= 64 * 1024 else 1)
