#!/usr/bin/python3
"""The links of a chained Ogg stream (what an Icecast listener received), one line each:
`LINK <codec> title=<title> seconds=<length> heard=<seconds of it in the file>`.

The length is the link's last granule position (less Opus's pre-skip) over its rate: what a
decoder plays of it. `heard` is what the file holds of it (a listener that joined mid-link holds
its headers and its end). Standard library only: the tests read a recording of tplayer's
broadcast with it (`IcecastOutputTests`)."""
import struct
import sys


def pages(data):
    at = 0
    while True:
        at = data.find(b"OggS", at)
        if at < 0 or at + 27 > len(data):
            return
        granule, serial = struct.unpack_from("<qI", data, at + 6)
        count = data[at + 26]
        lacing = data[at + 27:at + 27 + count]
        body = at + 27 + count
        yield serial, granule, data[at + 5], list(lacing), data[body:body + sum(lacing)]
        at = body + sum(lacing)


def comments(packet, skip):
    try:
        vendor = struct.unpack_from("<I", packet, skip)[0]
        at = skip + 4 + vendor
        found = {}
        for _ in range(struct.unpack_from("<I", packet, at)[0]):
            length = struct.unpack_from("<I", packet, at + 4)[0]
            text = packet[at + 8:at + 8 + length].decode("utf-8", "replace")
            name, _, value = text.partition("=")
            found.setdefault(name.lower(), value)
            at += 4 + length
        return found
    except struct.error:
        return {}


def main(path):
    data = open(path, "rb").read()
    links = []
    current = {}
    for serial, granule, flags, lacing, body in pages(data):
        link = current.get(serial)
        if link is None or flags & 2:
            link = {"serial": serial, "packets": [], "partial": b"", "granules": []}
            current[serial] = link
            links.append(link)
        at = 0
        for size in lacing:
            link["partial"] += body[at:at + size]
            at += size
            if size < 255:
                link["packets"].append(link["partial"])
                link["partial"] = b""
        if granule >= 0:
            link["granules"].append(granule)
    for link in links:
        packets = link["packets"]
        codec, rate, skip, tags = "?", 0, 0, {}
        if packets and packets[0].startswith(b"\x01vorbis"):
            codec, rate = "vorbis", struct.unpack_from("<I", packets[0], 12)[0]
            tags = comments(packets[1], 7) if len(packets) > 1 else {}
        elif packets and packets[0].startswith(b"OpusHead"):
            codec, rate, skip = "opus", 48000, struct.unpack_from("<H", packets[0], 10)[0]
            tags = comments(packets[1], 8) if len(packets) > 1 else {}
        granules = [g for g in link["granules"] if g > 0]
        seconds = (max(granules) - skip) / rate if granules and rate else 0
        heard = (max(granules) - min(granules)) / rate if granules and rate else 0
        print("LINK %s title=%s seconds=%.4f heard=%.2f" % (codec, tags.get("title", ""), seconds, heard))


if __name__ == "__main__":
    main(sys.argv[1])
