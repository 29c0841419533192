#!/usr/bin/env python3
"""lang_check: every fixed text of the command layer has its German form.

Reads the C sources of commands/ (and the texts of engine/eng.h's
ENG_ERRORS, and the cmd_tr calls of bot/) the way a compiler would see
their string literals (comments dropped, adjacent literals joined,
PRId64 and its kin put in) and the catalogues commands/locale/LANG/*.json,
and fails when:

- a marked text (T(lang, "..."), cmd_tr, cmd_trn, N_("..."), the format
  of cmd_reply, cmd_fail, cmd_announce, cmd_announce_lobby, an engine
  error text) has no entry in a language's catalogue;
- an entry takes other printf arguments than its English text, or one
  English text is translated two ways, or an entry is for no text the
  code has (a stale entry);
- a text of words ("two words or more") in commands/ is neither marked
  nor K_("...") (kept in English on purpose: a file format, a log line)
  nor an argument of a function that never shows it to a person
  (strcmp, json_*, the audit log's detail...).

Usage: lang_check.py REPO_ROOT
"""

import glob
import json
import os
import re
import sys

LANGS = ["de"]

# The call and argument index (0 first) whose literal is a marked text.
MARKED = {("T", 1), ("cmd_tr", 1), ("cmd_trn", 2), ("cmd_trn", 3),
          ("N_", 0), ("cmd_reply", 3), ("cmd_fail", 1),
          ("cmd_announce", 3), ("cmd_announce_lobby", 3)}
# Calls whose literal arguments are not shown to anyone (any argument).
NOT_SHOWN = {"K_", "strcmp", "strncmp", "strcasecmp", "strncasecmp",
             "strstr", "strchr", "strrchr", "strspn", "strcspn", "fprintf",
             "fputs", "perror", "cmd_audit", "cmd_arg_get", "cmd_find",
             "cmd_find_group", "cmd_setting_find", "sto_setting_get",
             "sto_setting_set", "sto_kept_get", "sto_kept_set", "assert",
             "_Static_assert", "static_assert"}
NOT_SHOWN_PREFIX = ("json_", "sto_", "eng_", "rs_")
MACROS = {"PRId64": "ld", "PRIu64": "lu", "PRIx64": "lx", "PRIi64": "li"}

CONV = re.compile(r"%(?:(\d+)\$)?[-+ #0']*\d*(?:\.\d*)?([hljztL]*)"
                  r"([diouxXeEfgGcspaA%])")


def conversions(fmt):
    """The arguments fmt takes: [(position, type)], or None if malformed."""
    out, nxt, positional = [], 1, None
    for m in CONV.finditer(fmt):
        if m.group(3) == "%":
            continue
        has = m.group(1) is not None
        if positional is not None and positional != has:
            return None
        positional = has
        pos = int(m.group(1)) if has else nxt
        nxt += 0 if has else 1
        t = m.group(2) + ("d" if m.group(3) == "i" else m.group(3))
        out.append((pos, t))
    out.sort()
    if [p for p, _ in out] != list(range(1, len(out) + 1)):
        return None
    return out


def unescape(body):
    """A C string literal's body as the bytes it stands for, decoded."""
    out = bytearray()
    i = 0
    raw = body.encode()
    simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("0"): 0,
              ord("\\"): 92, ord('"'): 34, ord("'"): 39, ord("a"): 7,
              ord("?"): 63}
    while i < len(raw):
        b = raw[i]
        if b != 92:
            out.append(b)
            i += 1
            continue
        e = raw[i + 1]
        if e == ord("x"):
            j = i + 2
            while j < len(raw) and chr(raw[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(raw[i + 2:j], 16) & 0xFF)
            i = j
        elif chr(e) in "01234567" and not (e == ord("0") and (
                i + 2 >= len(raw) or chr(raw[i + 2]) not in "01234567")):
            j = i + 1
            while j < len(raw) and j < i + 4 and chr(raw[j]) in "01234567":
                j += 1
            out.append(int(raw[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(simple.get(e, e))
            i += 2
    return out.decode("utf-8", errors="replace")


TOKEN = re.compile(r'''
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>^[ \t]*\#(?:[^\n\\]|\\.)*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>[(){}\[\],?:])
  | (?P<other>[^\s])
  | (?P<space>\s+)
''', re.S | re.M | re.X)


def literals(path):
    """[(line, text, call, arg)]: each joined string literal of the file
    with the innermost call it is an argument of (None outside a call)
    and its argument's index."""
    src = open(path, encoding="utf-8").read()
    out = []
    stack = []  # [call name or "{", "[", argument index]
    last_ident = None
    pending = None  # [line, parts] of literals being joined
    prev_kind = None

    def flush():
        nonlocal pending
        if pending:
            call, arg = (stack[-1][0], stack[-1][1]) if stack else (None, 0)
            out.append((pending[0], "".join(pending[1]), call, arg))
            pending = None

    for m in TOKEN.finditer(src):
        kind = m.lastgroup
        if kind in ("space", "comment"):
            continue
        text = m.group(kind)
        line = src.count("\n", 0, m.start()) + 1
        if kind == "string":
            if pending is None:
                pending = [line, []]
            pending[1].append(unescape(text[1:-1]))
            prev_kind = kind
            continue
        if kind == "ident" and pending is not None and text in MACROS:
            pending[1].append(MACROS[text])
            continue
        flush()
        if kind == "pp":
            continue
        if kind == "punct":
            if text == "(":
                stack.append([last_ident if prev_kind == "ident" else None,
                              0])
            elif text in "{[":
                stack.append([text, 0])
            elif text in ")}]":
                if stack:
                    stack.pop()
            elif text == "," and stack:
                stack[-1][1] += 1
        last_ident = text if kind == "ident" else None
        prev_kind = kind
    flush()
    return out


def wordy(text):
    """Whether text holds words for a person: two words or more once the
    printf conversions, `code`, /commands, option: names and identifiers
    (snake_case) are taken out."""
    t = CONV.sub(" ", text)
    t = re.sub(r"`[^`]*`", " ", t)
    t = re.sub(r"/[a-z]+( [a-z]+)?", " ", t)
    t = re.sub(r"[a-z_]+:", " ", t)
    words = [w for w in t.split() if re.search(r"[A-Za-z]{2,}", w) and
             not re.fullmatch(r"[A-Za-z0-9]*_[A-Za-z0-9_.]*", w)]
    return len(words) >= 2


def engine_errors(root):
    src = open(os.path.join(root, "engine", "eng.h"), encoding="utf-8").read()
    block = src[src.index("#define ENG_ERRORS(X)"):]
    block = block[:block.index("typedef enum")].replace("\\\n", "\n")
    texts = []
    for m in re.finditer(r'X\(\w+,((?:\s*"(?:[^"\\]|\\.)*")+)\)', block):
        texts.append("".join(unescape(p) for p in
                             re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
    return texts


def main():
    root = sys.argv[1]
    problems = []
    marked = {}  # text -> "file:line"
    for path in sorted(glob.glob(os.path.join(root, "commands", "*.c")) +
                       glob.glob(os.path.join(root, "commands", "*.h"))):
        rel = os.path.relpath(path, root)
        for line, text, call, arg in literals(path):
            where = "%s:%d" % (rel, line)
            if (call, arg) in MARKED:
                if wordy(text) or re.search(r"[A-Za-z]{2,}", text):
                    marked.setdefault(text, where)
                continue
            if not wordy(text):
                continue
            if call in NOT_SHOWN or (call and call.startswith(
                    NOT_SHOWN_PREFIX)):
                continue
            problems.append("%s: a text shown without a mark (T, N_, or "
                            "K_ for one kept in English): %r" %
                            (where, text[:100]))
    for path in sorted(glob.glob(os.path.join(root, "bot", "*.c"))):
        rel = os.path.relpath(path, root)
        for line, text, call, arg in literals(path):
            if (call, arg) in MARKED:
                marked.setdefault(text, "%s:%d" % (rel, line))
    for text in engine_errors(root):
        marked.setdefault(text, "engine/eng.h")

    for lang in LANGS:
        entries = {}
        for path in sorted(glob.glob(os.path.join(
                root, "commands", "locale", lang, "*.json"))):
            rel = os.path.relpath(path, root)
            try:
                data = json.load(open(path, encoding="utf-8"),
                                 object_pairs_hook=lambda kv: kv)
            except ValueError as e:
                problems.append("%s: not JSON: %s" % (rel, e))
                continue
            seen = set()
            for en, de in data:
                if en in seen:
                    problems.append("%s: %r twice" % (rel, en[:80]))
                seen.add(en)
                if not isinstance(de, str) or not de:
                    problems.append("%s: %r: not a text" % (rel, en[:80]))
                    continue
                a, b = conversions(en), conversions(de)
                if a is None or a != b:
                    problems.append("%s: %r takes other arguments than its "
                                    "English text %r" % (rel, de[:80],
                                                         en[:80]))
                if en in entries and entries[en][0] != de:
                    problems.append("%s: %r is translated in two ways (also "
                                    "in %s)" % (rel, en[:80], entries[en][1]))
                entries.setdefault(en, (de, rel))
        for text, where in sorted(marked.items(), key=lambda kv: kv[1]):
            if text not in entries:
                problems.append("%s: no %s text for %r" % (where, lang,
                                                            text[:100]))
        for en, (_, rel) in sorted(entries.items()):
            if en not in marked:
                problems.append("%s: %r is for no text of the code (stale)"
                                % (rel, en[:100]))

    for p in problems:
        print("lang_check: " + p)
    print("lang_check: %d marked texts, %s; %d problems" % (
        len(marked), ", ".join(LANGS), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
