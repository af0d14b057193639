#!/usr/bin/env python3
"""A loopback HTTP server for the remote-input tests and benchmark.

Serves ROOT on 127.0.0.1 (port 0: the system picks one; the first line on stdout is the port),
with byte ranges, and these fault modes chosen by the first path segment:

  /ok/PATH           the file, with Content-Length and Range support
  /slow/PATH         headers, then one byte every 2 s (a stalled server)
  /silent/PATH       accepts the connection and never answers
  /reset/PATH        headers with the full length, half the body, then a TCP reset
  /flakyreset/PATH   as /reset/ on the first request for PATH, then the file
  /loop/PATH         a redirect to itself, forever
  /redirect/PATH     one redirect to /ok/PATH
  /missing/PATH      404
  /gone/PATH         410
  /error/PATH        503, every time
  /flaky/PATH        503 on the first request for PATH, then the file
  /endless/PATH      200 with no length and a body that never ends
  /badlength/PATH    Content-Length 100000 larger than the body sent, then close
  /needheader/PATH   403 unless the request has "X-Token: secret"
  /gzip/PATH         the file gzip-compressed, with Content-Encoding: gzip

--exit-on-eof ends the server when its standard input reaches its end (the parent that holds
it open has exited). --tls CERT KEY serves https with that certificate. --latency-ms N delays every answer by N ms. --count-file F appends one line per request
("METHOD PATH RANGE") to F, so tests can count the requests a command made.
"""
import argparse
import gzip
import os
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FLAKY_SEEN = set()
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        options = self.server.options
        if options.count_file:
            with LOCK, open(options.count_file, "a") as log:
                log.write(f"GET {self.path} {self.headers.get('Range', '-')}\n")
        if options.latency_ms:
            time.sleep(options.latency_ms / 1000)
        parts = self.path.split("?", 1)[0].lstrip("/").split("/", 1)
        mode, rest = (parts[0], parts[1] if len(parts) > 1 else "")
        handler = getattr(self, "mode_" + mode, None)
        if handler is None:
            return self.status(404)
        handler(rest)

    # Helpers.
    def status(self, code, extra=()):
        body = f"{code}\n".encode()
        self.send_response(code)
        for key, value in extra:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def file_bytes(self, rest):
        root = os.path.realpath(self.server.options.root)
        path = os.path.realpath(os.path.join(root, rest))
        if not path.startswith(root + os.sep) or not os.path.isfile(path):
            return None
        with open(path, "rb") as handle:
            return handle.read()

    def send_file(self, data):
        start, end = 0, len(data) - 1
        ranged = self.headers.get("Range")
        if ranged and ranged.startswith("bytes="):
            first, _, last = ranged[6:].split(",")[0].partition("-")
            if first:
                start = int(first)
                end = int(last) if last else end
            elif last:
                start = max(0, len(data) - int(last))
            if start >= len(data):
                return self.status(416, [("Content-Range", f"bytes */{len(data)}")])
            end = min(end, len(data) - 1)
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self.wfile.write(data[start:end + 1])

    # Modes.
    def mode_ok(self, rest):
        data = self.file_bytes(rest)
        if data is None:
            return self.status(404)
        self.send_file(data)

    def mode_slow(self, rest):
        data = self.file_bytes(rest) or b"x" * 100
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        for byte in data:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(2)

    def mode_silent(self, rest):
        time.sleep(3600)

    def mode_reset(self, rest):
        data = self.file_bytes(rest) or b"x" * 2000
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def mode_flakyreset(self, rest):
        with LOCK:
            first = ("reset", rest) not in FLAKY_SEEN
            FLAKY_SEEN.add(("reset", rest))
        if first:
            return self.mode_reset(rest)
        self.mode_ok(rest)

    def mode_loop(self, rest):
        self.status(302, [("Location", "/loop/" + rest)])

    def mode_redirect(self, rest):
        self.status(302, [("Location", "/ok/" + rest)])

    def mode_missing(self, rest):
        self.status(404)

    def mode_gone(self, rest):
        self.status(410)

    def mode_error(self, rest):
        self.status(503)

    def mode_flaky(self, rest):
        with LOCK:
            first = rest not in FLAKY_SEEN
            FLAKY_SEEN.add(rest)
        if first:
            return self.status(503)
        self.mode_ok(rest)

    def mode_endless(self, rest):
        self.send_response(200)
        self.send_header("Connection", "close")
        self.end_headers()
        block = (b"#EXTM3U\n" if rest.endswith(".m3u8") else b"WEBVTT\n\n") + b"x" * 65536
        try:
            while True:
                self.wfile.write(block)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def mode_badlength(self, rest):
        data = self.file_bytes(rest) or b"x" * 100
        self.send_response(200)
        self.send_header("Content-Length", str(len(data) + 100000))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def mode_gzip(self, rest):
        data = self.file_bytes(rest)
        if data is None:
            return self.status(404)
        body = gzip.compress(data)
        self.send_response(200)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def mode_needheader(self, rest):
        if self.headers.get("X-Token") != "secret":
            return self.status(403)
        self.mode_ok(rest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=0)
    parser.add_argument("--count-file")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--exit-on-eof", action="store_true")
    options = parser.parse_args()
    # A parent may start us with SIGTERM blocked (the mask is inherited): unblocked, its
    # terminate() stops us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    if options.exit_on_eof:
        # The parent holds our standard input open: when it exits, however it ends, so do we.
        def watch():
            sys.stdin.buffer.read()
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    if options.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*options.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    server.options = options
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
