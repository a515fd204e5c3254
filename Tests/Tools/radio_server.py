#!/usr/bin/env python3
"""A small HTTP server for tplayer's stream tests: what a radio gives (a song with ICY
metadata cut in, once or again and again) and the faults Icecast never makes.

    radio_server.py SONG [TITLES]   prints its port on stdout once it listens on 127.0.0.1
                                    (https with $RADIO_TLS_CERT and $RADIO_TLS_KEY)

Paths:
  /song.mp3          the song, with Content-Length (a file over http), taking byte ranges
                     (Range: bytes=N-); ?drop=N closes each connection after N bytes of
                     its body; ?noranges: no Accept-Ranges, a Range ignored
  /cut.mp3?from=N    the song from its Nth byte on (a radio joined partway, mid-frame)
  /icy.mp3           the song once, icy-metaint 8192 (or ?metaint=N), a title every block (from
                     TITLES, one a line, in turn); with Content-Length: it ends where it says
  /live.mp3          the song again and again, icy, no length (a live stream); ?drop=N closes
                     the connection after N bytes of body, every time
  /404               404 Not Found
  /loop              a redirect to itself
  /to-file           a redirect to file:///etc/passwd
  /headers           headers without end
  /bigmeta           icy-metaint: 4294967296
  /trickle           200, then a byte a second
  /garbage           200, audio/mpeg, 2 MB of noise
  /stall             200, the song's first 64 KiB, then nothing (the connection stays open)
  /silent.mp3        the connection taken, then no answer at all
  /closing.pls       a .pls with no Content-Length: its body ends as the connection closes
  /typed?type=T      the song, Content-Type T; with ?from=N from its Nth byte
  /noise-then-song   200, 4 KiB of noise, then the song (a format changed mid-stream)
  /files/NAME        a file of the song's folder (an HLS stream's playlist and segments)
  /paced.mp3         the song again and again, a 64 KiB burst then in real time (128 kbit/s);
                     ?stall=S&at=T: S seconds of nothing once, T seconds in
  PLAYLISTS' paths   playlists of streams, each with its Content-Type (see below)
"""
import os
import random
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

SONG = open(sys.argv[1], "rb").read()
TITLES = [line.rstrip("\n") for line in open(sys.argv[2], encoding="utf-8")] if len(sys.argv) > 2 else ["Artist - Title"]
INTERVAL = 8192
CONNECTIONS = {}


def icy(body, titles, interval=INTERVAL):
    """`body` with a metadata block after every `interval` bytes, titles in turn."""
    return b"".join(Interleaver(titles, interval).feed(body))


class Interleaver:
    """Cuts a metadata block into what it is fed after every INTERVAL bytes, across feeds (a
    live stream's song after song), titles in turn."""

    def __init__(self, titles, interval=INTERVAL):
        self.titles = titles
        self.interval = interval
        self.left = interval
        self.count = 0

    def feed(self, body):
        at = 0
        while at < len(body):
            take = min(self.left, len(body) - at)
            yield body[at:at + take]
            at += take
            self.left -= take
            if self.left == 0:
                text = ("StreamTitle='%s';" % self.titles[self.count % len(self.titles)]).encode("utf-8")
                text += b"\0" * (-len(text) % 16)
                yield bytes([len(text) // 16]) + text
                self.count += 1
                self.left = self.interval


# Playlists served: path -> (Content-Type, body); {base} is this server's http://host:port.
# self.m3u8 names itself as its segment, master.m3u8 as its variant; ping and pong name each other.
PLAYLISTS = {
    "/radio.pls": ("audio/x-scpls", "[playlist]\nNumberOfEntries=3\nFile1=song.mp3\nTitle1=The Song\n"
                   "File2=file:///etc/passwd\nFile3={base}/icy.mp3\nTitle3=The Icy One\nVersion=2\n"),
    "/listen": ("audio/x-mpegurl", "/song.mp3?from=listen\n"),
    "/text.m3u": ("text/plain", "song.mp3\n"),
    "/self.m3u": ("audio/x-mpegurl", "#EXTM3U\nself.m3u\n"),
    "/one.m3u": ("audio/x-mpegurl", "#EXTM3U\ntwo.m3u\n"),
    "/two.m3u": ("audio/x-mpegurl", "#EXTM3U\none.m3u\n"),
    "/hls.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nsegment1.ts\n#EXT-X-ENDLIST\n"),
    "/hls-file.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n"),
    "/self.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nself.m3u8\n"),
    "/master.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\nmaster.m3u8\n"),
    "/ping.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\npong.m3u8\n"),
    "/pong.m3u8": ("application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\nping.m3u8\n"),
    "/page": ("text/html; charset=utf-8", "<!DOCTYPE html>\n<html><head><title>Test Radio</title></head><body>Listen!</body></html>\n"),
    "/huge.pls": ("audio/x-scpls", "[playlist]\n" + "".join("File%d=s%d.mp3\n" % (n, n) for n in range(70000))),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def send(self, code, headers, body=b""):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        CONNECTIONS[url.path] = CONNECTIONS.get(url.path, 0) + 1
        if url.path.startswith("/files/"):
            return self.file(url.path[len("/files/"):])
        if url.path in PLAYLISTS:
            kind, text = PLAYLISTS[url.path]
            body = text.replace("{base}", "http://%s:%d" % self.server.server_address).encode()
            return self.send(200, [("Content-Type", kind), ("Content-Length", str(len(body)))], body)
        try:
            getattr(self, "path_" + url.path.strip("/").replace(".", "_").replace("-", "_"), self.missing)(query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def file(self, name):
        """A file of the song's folder (an HLS stream's playlist and segments)."""
        path = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), os.path.basename(name))
        if not os.path.isfile(path):
            return self.missing({})
        kinds = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".aac": "audio/aac"}
        body = open(path, "rb").read()
        self.send(200, [("Content-Type", kinds.get(os.path.splitext(path)[1], "application/octet-stream")),
                        ("Content-Length", str(len(body)))], body)

    def missing(self, query):
        self.send(404, [("Content-Type", "text/plain")], b"not here\n")

    def path_404(self, query):
        self.missing(query)

    def path_song_mp3(self, query):
        drop = int(query.get("drop", ["0"])[0])
        ranged = self.headers.get("Range", "")
        if ranged.startswith("bytes=") and ranged.endswith("-") and "noranges" not in self.path:
            start = int(ranged[6:-1])
            body = SONG[start:]
            self.send(206, [("Content-Type", "audio/mpeg"), ("Accept-Ranges", "bytes"), ("Content-Length", str(len(body))),
                            ("Content-Range", "bytes %d-%d/%d" % (start, len(SONG) - 1, len(SONG)))], body[:drop] if drop else body)
        else:
            ranges = [] if "noranges" in self.path else [("Accept-Ranges", "bytes")]
            self.send(200, [("Content-Type", "audio/mpeg"), ("Content-Length", str(len(SONG)))] + ranges, SONG[:drop] if drop else SONG)
        if drop:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)

    def path_cut_mp3(self, query):
        body = SONG[int(query.get("from", ["0"])[0]):]
        self.send(200, [("Content-Type", "audio/mpeg"), ("Content-Length", str(len(body)))], body)

    def path_icy_mp3(self, query):
        interval = int(query.get("metaint", [str(INTERVAL)])[0])
        body = icy(SONG, TITLES, interval)
        self.send(200, [("Content-Type", "audio/mpeg"), ("icy-name", "Test Radio"), ("icy-genre", "Tests"),
                        ("icy-br", "128"), ("icy-metaint", str(interval)), ("Content-Length", str(len(body)))], body)

    def path_connections(self, query):
        body = repr(CONNECTIONS).encode()
        self.send(200, [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))], body)

    def path_live_mp3(self, query):
        drop = int(query.get("drop", ["0"])[0])
        self.send(200, [("Content-Type", "audio/mpeg"), ("icy-name", "Live Radio"), ("icy-metaint", str(INTERVAL))])
        sent = 0
        interleaver = Interleaver(TITLES)
        while True:
            body = b"".join(interleaver.feed(SONG))
            if drop:
                body = body[:max(drop - sent, 0)]
            self.wfile.write(body)
            sent += len(body)
            if drop and sent >= drop:
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            time.sleep(float(query.get("pace", ["0.5"])[0]))

    def path_paced_mp3(self, query):
        """The song again and again as a radio sends it: a 64 KiB burst, then in real time at
        its 128 kbit/s; ?stall=S stops sending for S seconds once, ?at=T seconds in."""
        stall, at = float(query.get("stall", ["0"])[0]), float(query.get("at", ["3"])[0])
        self.send(200, [("Content-Type", "audio/mpeg"), ("icy-name", "Paced Radio")])
        body, sent, start, stalled = SONG, 0, time.monotonic(), False
        while True:
            chunk = body[sent % len(body):][:4000]
            self.wfile.write(chunk)
            self.wfile.flush()
            sent += len(chunk)
            elapsed = time.monotonic() - start
            if stall and not stalled and elapsed >= at:
                stalled = True
                time.sleep(stall)
                start += stall
            due = (sent - 65536) / 16000
            if due > elapsed:
                time.sleep(due - elapsed)

    def path_loop(self, query):
        self.send(302, [("Location", "/loop"), ("Content-Length", "0")])

    def path_to_file(self, query):
        self.send(302, [("Location", "file:///etc/passwd"), ("Content-Length", "0")])

    def path_headers(self, query):
        self.wfile.write(b"HTTP/1.0 200 OK\r\n")
        for n in range(10_000_000):
            self.wfile.write(b"X-Junk-%d: %s\r\n" % (n, b"x" * 100))

    def path_bigmeta(self, query):
        self.send(200, [("Content-Type", "audio/mpeg"), ("icy-metaint", "4294967296"), ("Content-Length", str(len(SONG)))], SONG)

    def path_trickle(self, query):
        self.send(200, [("Content-Type", "audio/mpeg")])
        for byte in SONG:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1)

    def path_garbage(self, query):
        noise = random.Random(1).randbytes(2 << 20)
        self.send(200, [("Content-Type", "audio/mpeg"), ("Content-Length", str(len(noise)))], noise)

    def path_typed(self, query):
        body = SONG[int(query.get("from", ["0"])[0]):]
        self.send(200, [("Content-Type", query["type"][0]), ("Content-Length", str(len(body)))], body)

    def path_noise_then_song(self, query):
        body = random.Random(2).randbytes(4096) + SONG
        self.send(200, [("Content-Type", "audio/mpeg"), ("Content-Length", str(len(body)))], body)

    def path_closing_pls(self, query):
        body = "[playlist]\nNumberOfEntries=1\nFile1=song.mp3\nTitle1=The Song\n".encode()
        self.send(200, [("Content-Type", "audio/x-scpls")], body)

    def path_silent_mp3(self, query):
        time.sleep(3600)

    def path_stall(self, query):
        self.send(200, [("Content-Type", "audio/mpeg")], SONG[:65536])
        self.wfile.flush()
        time.sleep(3600)


class Server(ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
if os.environ.get("RADIO_TLS_CERT"):
    # https, with the certificate given (the tests' self-signed one: a client that verifies
    # refuses it).
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.environ["RADIO_TLS_CERT"], os.environ["RADIO_TLS_KEY"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
