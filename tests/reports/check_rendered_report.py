#!/usr/bin/env python3
"""Checks of an HTML report as headless Chromium rendered it (tests/reports/chromium_report.sh).

  check_rendered_report.py dom REPORT DOM       the DOM Chromium built (--dump-dom) holds every
                                                 story's sequence diagram and record-versions
                                                 table whole; the page is self-contained
  check_rendered_report.py story-page REPORT OUT the first story alone (the report's own style and
                                                 section) for a screenshot; prints its height
  check_rendered_report.py png FILE [diagram]    the screenshot is not blank; with `diagram`, it
                                                 shows the diagram's lane headers, admission bars
                                                 and violation band in their colours

Standard library only (the PNG is decoded with zlib). Prints what it found; exits 1 on a failed
check, 2 on bad input.
"""
import collections
import re
import struct
import sys
import zlib

# What a diagram is made of: (what, pattern, at least how many in the first diagram).
DIAGRAM_PARTS = [
    ("node lanes", r'<g class="lane">', 1),
    ("store lanes", r'<g class="lane store">', 1),
    ("arrows", r'<g class="arrow ', 1),
    ("admission bars", r'<g class="span admission">', 1),
    ("owner-lease bars", r'<g class="span lease">', 1),
    ("story marks", r'class="mark ', 1),
    ("violation band", r'<rect class="violation-band"', 1),
    ("violating event", r'<circle class="violation"', 1),
    ("property sentence", r'<g class="violation-sentence">', 1),
]

# The diagram's colours (reports/sequence_diagram.cpp kSequenceDiagramStyle) a screenshot must show.
DIAGRAM_COLOURS = [
    ("node lane header", (0xEE, 0xF3, 0xFB), 200),
    ("store lane header", (0xFB, 0xF1, 0xE1), 200),
    ("admission bar", (0x2E, 0x8B, 0x57), 20),
    ("violation band", (0xFB, 0xD3, 0xD3), 200),
]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def diagrams(html):
    return re.findall(r'<svg[^>]*class="sequence-diagram".*?</svg>', html, re.S)


def version_tables(html):
    return re.findall(r'<table class="record-versions">.*?</table>', html, re.S)


def check_versions(written, built):
    """Every record-versions table whole in the DOM; the first one has a record with a write."""
    if not written:
        fail("the report has no record-versions table")
    if len(built) != len(written):
        fail("Chromium built %d record-versions table(s) of the report's %d" % (len(built), len(written)))
    for i, (w, b) in enumerate(zip(written, built)):
        if w.count("<tr") != b.count("<tr"):
            fail("record-versions table %d: the report writes %d rows, Chromium's DOM holds %d" %
                 (i, w.count("<tr"), b.count("<tr")))
    records = re.findall(r'<th rowspan="\d+"><code>([^<]*)</code>', built[0])
    writes = re.findall(r'<td>(absent|v\d+) (?:&#8594;|\u2192) (absent|v\d+)</td>', built[0])
    if not records or not writes:
        fail("the first record-versions table shows no record with a write: " + built[0][:300])
    print("dom: record versions: %d record(s), %d write(s) in the first table" % (len(records), len(writes)))


def check_dom(report_path, dom_path):
    report = open(report_path, encoding="utf-8").read()
    dom = open(dom_path, encoding="utf-8").read()
    written, built = diagrams(report), diagrams(dom)
    if not written:
        fail("the report has no sequence diagram")
    if len(built) != len(written):
        fail("Chromium built %d diagram(s) of the report's %d" % (len(built), len(written)))
    for what, pattern, least in DIAGRAM_PARTS:
        found = len(re.findall(pattern, built[0]))
        if found < least:
            fail("the first diagram in Chromium's DOM has %d %s (want %d or more)" % (found, what, least))
        for i, (w, b) in enumerate(zip(written, built)):
            if len(re.findall(pattern, w)) != len(re.findall(pattern, b)):
                fail("diagram %d: the report writes %d %s, Chromium's DOM holds %d" %
                     (i, len(re.findall(pattern, w)), what, len(re.findall(pattern, b))))
        print("dom: %s: %d" % (what, found))
    sentence = re.search(r'<g class="violation-sentence">.*?</g>', built[0], re.S).group(0)
    if "single-owner: " not in re.sub(r"<[^>]+>", "", sentence):
        fail("the violation sentence does not name the property: " + sentence[:300])
    for outside in ("<script", " src=", "<link", "@import"):
        if outside in report:
            fail("the report is not self-contained: it holds " + outside)
    if re.search(r"https?://(?!www\.w3\.org/2000/svg\")", report):
        fail("the report names an outside address")
    check_versions(version_tables(report), version_tables(dom))
    print("dom: %d diagram(s), each whole; self-contained" % len(built))


def story_page(report_path, out_path):
    report = open(report_path, encoding="utf-8").read()
    style = re.search(r"<style>.*?</style>", report, re.S)
    section = re.search(r'<section id="seed-\d+">.*?</section>', report, re.S)
    if not style or not section or not diagrams(section.group(0)):
        fail("the report has no story section with a diagram")
    height = int(re.search(r'<svg[^>]*height="(\d+)"', section.group(0)).group(1))
    with open(out_path, "w", encoding="utf-8") as out:
        out.write('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' + style.group(0) +
                  "\n</head>\n<body>\n" + section.group(0) + "\n</body>\n</html>\n")
    print(min(height + 200, 8000))


def png_pixels(path):
    """(width, height, bytes per pixel, rows) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("check_rendered_report: %s is not a PNG" % path)
    pos, chunks, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit("check_rendered_report: unsupported PNG (depth %d, colour type %d)" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        rows.append(unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev, bpp))
        prev = rows[-1]
    return width, height, bpp, rows


def unfilter(kind, line, prev, bpp):
    n = len(line)
    if kind == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xFF
    elif kind == 2:
        line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
    elif kind == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return line


def check_png(path, want_diagram):
    width, height, bpp, rows = png_pixels(path)
    colours = collections.Counter()
    for row in rows:
        colours.update(zip(row[0::bpp], row[1::bpp], row[2::bpp]))
    total = width * height
    white = sum(count for rgb, count in colours.items() if min(rgb) >= 250)
    print("png: %dx%d, %d distinct colours, %.1f%% not white" % (width, height, len(colours),
                                                                  100.0 * (total - white) / total))
    if len(colours) < 16 or total - white < total // 100:
        fail("the screenshot is blank or nearly so")
    if not want_diagram:
        return
    for what, (r, g, b), least in DIAGRAM_COLOURS:
        near = sum(count for rgb, count in colours.items()
                   if abs(rgb[0] - r) + abs(rgb[1] - g) + abs(rgb[2] - b) <= 12)
        print("png: %s: %d pixel(s)" % (what, near))
        if near < least:
            fail("the screenshot shows no %s (%d pixel(s) of #%02x%02x%02x, want %d)" % (what, near, r, g, b, least))


def main(argv):
    if len(argv) == 4 and argv[1] == "dom":
        check_dom(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "story-page":
        story_page(argv[2], argv[3])
    elif len(argv) in (3, 4) and argv[1] == "png" and argv[3:] in ([], ["diagram"]):
        check_png(argv[2], len(argv) == 4)
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
