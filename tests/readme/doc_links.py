#!/usr/bin/env python3
"""Every relative link of the documentation points at something that exists, and no sentence
breaks into a list by accident.

    tests/readme/doc_links.py PAGE...        (CTest's `doc_links`, the pages tests/CMakeLists.txt lists)

Each [text](target) and ![alt](target) outside code is checked: a relative target must name a file
or folder that exists, relative to its page; a #anchor must name a heading of the page it points
at (the page itself when the target is only #anchor), spelled as GitHub spells anchors. Links to
the web (scheme:...) are not followed. A line outside code that starts with "+ " or "* " right
after a line of text is refused: Markdown draws it as a list item in mid-paragraph (the pages make
their lists with "- ", after a blank line or another item). Each finding is one line, PAGE:LINE:
TARGET: why; the exit code is 1 when there is any.
"""
import os
import re
import sys
import urllib.parse

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")


def github_anchor(heading):
    """The anchor GitHub gives a heading: its text without markup, lower case, punctuation other
    than '-' and '_' dropped, each space a '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = INLINE_CODE.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def outside_code(path):
    """(line number, text) of each line of `path` outside fenced code, inline code blanked."""
    with open(path, encoding="utf-8") as f:
        in_fence = False
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if not in_fence:
                yield number, INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line.rstrip("\n"))


_anchors = {}


def anchors(page):
    """The anchors of `page`'s headings, repeated ones numbered -1, -2, ... as GitHub does."""
    if page not in _anchors:
        seen = {}
        found = set()
        with open(page, encoding="utf-8") as f:
            in_fence = False
            for line in f:
                if FENCE.match(line):
                    in_fence = not in_fence
                    continue
                m = None if in_fence else HEADING.match(line)
                if m:
                    anchor = github_anchor(m.group(2))
                    count = seen.get(anchor, 0)
                    seen[anchor] = count + 1
                    found.add(anchor if count == 0 else f"{anchor}-{count}")
        _anchors[page] = found
    return _anchors[page]


def check(page):
    """The broken links of `page`, each as 'PAGE:LINE: TARGET: why'."""
    broken = []
    previous = ""
    for number, line in outside_code(page):
        text_before = previous.strip() and not re.match(r"^\s*([-+*]|\d+\.)\s|^\s*#|^\s*\||^\s*<", previous)
        if text_before and re.match(r"^ {0,3}[+*] ", line):
            broken.append(f"{page}:{number}: {line.strip()[:20]}: a line of a sentence that starts with "
                          f"'{line.strip()[0]} ' is drawn as a list item; move the sign to the line before")
        previous = line
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # https:, mailto:, ...
            path_part, _, fragment = target.partition("#")
            path_part = urllib.parse.unquote(path_part)
            where = os.path.normpath(os.path.join(os.path.dirname(page), path_part)) if path_part else page
            why = None
            if not os.path.exists(where):
                why = "no such file"
            elif fragment and where.endswith(".md") and os.path.isfile(where):
                if urllib.parse.unquote(fragment).lower() not in anchors(where):
                    why = f"no heading with the anchor #{fragment} in {os.path.basename(where)}"
            if why:
                broken.append(f"{page}:{number}: {target}: {why}")
    return broken


def main(pages):
    if not pages:
        print("doc_links: no pages given", file=sys.stderr)
        return 2
    broken = []
    links = 0
    for page in pages:
        if not os.path.isfile(page):
            broken.append(f"{page}: no such page")
            continue
        broken += check(page)
        links += sum(len(LINK.findall(line)) for _, line in outside_code(page))
    for line in broken:
        print(line, file=sys.stderr)
    if broken:
        print(f"doc_links: {len(broken)} finding(s)", file=sys.stderr)
        return 1
    print(f"doc_links: {links} links of {len(pages)} pages hold")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
