"""Discord's limits that openapi.json does not express (or expresses more
loosely than Discord enforces for bots). Each check returns
(path, code, message) triples like openapi_check, so they share the
"Invalid Form Body" (50035) rendering.

Sources: Discord's developer docs (messages, embeds, components,
application commands, rate limits).
"""

import re

SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Message flags a request may set, by kind of request.
ALLOWED_FLAGS = {
    "channel_create": SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2,
    "channel_edit": SUPPRESS_EMBEDS | IS_COMPONENTS_V2,
    "interaction_create": SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS
    | IS_COMPONENTS_V2,
    "interaction_edit": SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2,
}

CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
SELECT_TYPES = (3, 5, 6, 7, 8)
V2_COMPONENTS_MAX = 40

CHAT_NAME = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)


def embed_text_length(embed):
    """Characters that count toward the 6000 limit for one embed."""
    if not isinstance(embed, dict):
        return 0
    n = 0
    for k in ("title", "description"):
        if isinstance(embed.get(k), str):
            n += len(embed[k])
    for f in embed.get("fields") or []:
        if isinstance(f, dict):
            n += len(f.get("name") or "") + len(f.get("value") or "")
    for k in ("footer", "author"):
        sub = embed.get(k)
        if isinstance(sub, dict):
            n += len(sub.get("text" if k == "footer" else "name") or "")
    return n


def message_is_empty(msg):
    """True when a message body would have nothing to show."""
    if not isinstance(msg, dict):
        return True
    for k in ("embeds", "components", "sticker_ids", "attachments"):
        if msg.get(k):
            return False
    if msg.get("poll"):
        return False
    return not (msg.get("content") or "")


def message_errors(body, kind):
    """Limits on a message body. kind: a key of ALLOWED_FLAGS."""
    errs = []
    if not isinstance(body, dict):
        return errs
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        errs.append((("content",), "BASE_TYPE_MAX_LENGTH",
                     f"Must be {CONTENT_MAX} or fewer in length."))
    flags = body.get("flags")
    if isinstance(flags, int) and not isinstance(flags, bool):
        bad = flags & ~ALLOWED_FLAGS[kind]
        if bad:
            errs.append((("flags",), "MESSAGE_FLAGS_INVALID",
                         f"Flags {bad} cannot be set here ({kind})."))
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        total = sum(embed_text_length(e) for e in embeds)
        if total > EMBED_TOTAL_MAX:
            errs.append((("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                         f"Embed size exceeds maximum size of "
                         f"{EMBED_TOTAL_MAX} ({total})."))
    comps = body.get("components")
    v2 = isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)
    if isinstance(comps, list):
        if v2:
            errs += _v2_errors(body, comps)
        else:
            errs += _legacy_component_errors(comps)
    return errs


def _count(comps):
    n = 0
    for c in comps or []:
        if isinstance(c, dict):
            n += 1 + _count(c.get("components"))
            if isinstance(c.get("accessory"), dict):
                n += 1
    return n


def _v2_errors(body, comps):
    errs = []
    if body.get("content"):
        errs.append((("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_"
                     "COMPONENTS_V2", "content cannot be used with the "
                     "IS_COMPONENTS_V2 flag."))
    if body.get("embeds"):
        errs.append((("embeds",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_"
                     "COMPONENTS_V2", "embeds cannot be used with the "
                     "IS_COMPONENTS_V2 flag."))
    if _count(comps) > V2_COMPONENTS_MAX:
        errs.append((("components",), "BASE_TYPE_BAD_LENGTH",
                     f"Must be {V2_COMPONENTS_MAX} or fewer in length "
                     "(all nested components)."))
    return errs


def _legacy_component_errors(rows):
    errs = []
    if len(rows) > ROWS_MAX:
        errs.append((("components",), "BASE_TYPE_BAD_LENGTH",
                     f"Must be between 1 and {ROWS_MAX} in length."))
    seen = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        if row.get("type") != 1:
            errs.append((("components", i, "type"), "BASE_TYPE_CHOICES",
                         "Value must be one of {1} (top-level components "
                         "must be action rows without IS_COMPONENTS_V2)."))
            continue
        kids = row.get("components")
        if not isinstance(kids, list):
            continue
        selects = [k for k in kids if isinstance(k, dict)
                   and k.get("type") in SELECT_TYPES]
        if selects and len(kids) > 1:
            errs.append((("components", i, "components"),
                         "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                         "The specified component exceeds the maximum width "
                         "(a select menu fills its row)."))
        if len(kids) > BUTTONS_PER_ROW:
            errs.append((("components", i, "components"),
                         "BASE_TYPE_BAD_LENGTH",
                         f"Must be between 1 and {BUTTONS_PER_ROW} in length."))
        for j, c in enumerate(kids):
            if not isinstance(c, dict):
                continue
            p = ("components", i, "components", j)
            t = c.get("type")
            if t == 2:
                errs += _button_errors(c, p)
            elif t == 3:
                errs += _select_errors(c, p)
            elif t == 4:
                errs.append((p + ("type",), "COMPONENT_TYPE_INVALID",
                             "Text inputs belong in modals, not messages."))
            cid = c.get("custom_id")
            if isinstance(cid, str):
                if cid in seen:
                    errs.append((p + ("custom_id",),
                                 "COMPONENT_CUSTOM_ID_DUPLICATED",
                                 "Component custom id cannot be duplicated"))
                seen[cid] = p
    return errs


def _button_errors(c, p):
    errs = []
    style = c.get("style")
    if style == 5:
        if not c.get("url"):
            errs.append((p + ("url",), "BASE_TYPE_REQUIRED",
                         "This field is required (link buttons)."))
        if c.get("custom_id") is not None:
            errs.append((p + ("custom_id",), "BUTTON_COMPONENT_CUSTOM_ID_"
                         "FORBIDDEN", "A link button cannot have a custom_id."))
    elif style == 6:
        if not c.get("sku_id"):
            errs.append((p + ("sku_id",), "BASE_TYPE_REQUIRED",
                         "This field is required (premium buttons)."))
    else:
        if not c.get("custom_id"):
            errs.append((p + ("custom_id",), "BASE_TYPE_REQUIRED",
                         "This field is required"))
        if c.get("url") is not None:
            errs.append((p + ("url",), "BUTTON_COMPONENT_URL_FORBIDDEN",
                         "Only link buttons may have a url."))
    if style != 6 and not c.get("label") and not c.get("emoji"):
        errs.append((p + ("label",), "BUTTON_COMPONENT_LABEL_OR_EMOJI_"
                     "REQUIRED", "A button needs a label or an emoji."))
    return errs


def _select_errors(c, p):
    errs = []
    opts = c.get("options")
    if not isinstance(opts, list):
        return errs
    values = [o.get("value") for o in opts if isinstance(o, dict)]
    if len(set(values)) != len(values):
        errs.append((p + ("options",), "SELECT_COMPONENT_OPTION_VALUE_"
                     "DUPLICATED", "Select option values must be unique."))
    lo = c.get("min_values")
    hi = c.get("max_values")
    lo = 1 if lo is None else lo
    hi = 1 if hi is None else hi
    if isinstance(lo, int) and isinstance(hi, int):
        if lo > hi:
            errs.append((p + ("min_values",), "BASE_TYPE_INVALID",
                         "min_values must be at most max_values."))
        if hi > len(opts):
            errs.append((p + ("max_values",), "SELECT_COMPONENT_TOO_MANY_"
                         "VALUES", "max_values cannot exceed the number of "
                         "options."))
        defaults = sum(1 for o in opts if isinstance(o, dict)
                       and o.get("default"))
        if defaults > hi:
            errs.append((p + ("options",), "SELECT_COMPONENT_TOO_MANY_"
                         "DEFAULTS", "More default options than max_values."))
    return errs


# -- application commands -------------------------------------------------

SUB, GROUP = 1, 2
COMMAND_TEXT_MAX = 8000
PER_TYPE_MAX = {1: 100, 2: 15, 3: 15, 4: 1}


def _text_size(cmd):
    n = len(cmd.get("name") or "") + len(cmd.get("description") or "")
    for o in cmd.get("options") or []:
        if isinstance(o, dict):
            n += _text_size(o)
            for ch in o.get("choices") or []:
                if isinstance(ch, dict):
                    n += len(str(ch.get("name") or "")) + \
                        len(str(ch.get("value") or ""))
    return n


def _option_errors(opts, p, depth):
    errs = []
    names = set()
    seen_optional = False
    kinds = set()
    for i, o in enumerate(opts):
        if not isinstance(o, dict):
            continue
        q = p + (i,)
        name = o.get("name")
        t = o.get("type")
        kinds.add("sub" if t in (SUB, GROUP) else "value")
        if isinstance(name, str):
            if not CHAT_NAME.match(name) or name != name.lower():
                errs.append((q + ("name",), "APPLICATION_COMMAND_INVALID_NAME",
                             "Option names must be lowercase and match "
                             "^[-_'\\w]{1,32}$."))
            if name in names:
                errs.append((q + ("name",), "APPLICATION_COMMAND_OPTIONS_"
                             "NAME_ALREADY_EXISTS", "Option names must be "
                             "unique"))
            names.add(name)
        if t not in (SUB, GROUP):
            if o.get("required"):
                if seen_optional:
                    errs.append((q + ("required",), "APPLICATION_COMMAND_"
                                 "OPTIONS_REQUIRED_INVALID", "Required options "
                                 "must be placed before non-required options"))
            else:
                seen_optional = True
        if o.get("autocomplete") and o.get("choices"):
            errs.append((q + ("autocomplete",), "APPLICATION_COMMAND_OPTION_"
                         "AUTOCOMPLETE_CHOICES", "Autocomplete cannot be used "
                         "with choices."))
        for lo, hi in (("min_value", "max_value"), ("min_length", "max_length")):
            a, b = o.get(lo), o.get(hi)
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
                    and a > b:
                errs.append((q + (lo,), "BASE_TYPE_INVALID",
                             f"{lo} must be at most {hi}."))
        sub = o.get("options")
        if t == GROUP:
            if depth > 0:
                errs.append((q + ("type",), "APPLICATION_COMMAND_OPTIONS_TYPE_"
                             "INVALID", "Subcommand groups cannot be nested."))
            for j, s in enumerate(sub or []):
                if isinstance(s, dict) and s.get("type") != SUB:
                    errs.append((q + ("options", j, "type"),
                                 "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                 "A subcommand group holds only subcommands."))
        elif t == SUB:
            for j, s in enumerate(sub or []):
                if isinstance(s, dict) and s.get("type") in (SUB, GROUP):
                    errs.append((q + ("options", j, "type"),
                                 "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                 "A subcommand cannot hold subcommands."))
        if isinstance(sub, list) and t in (SUB, GROUP):
            errs += _option_errors(sub, q + ("options",), depth + 1)
    if len(kinds) > 1:
        errs.append((p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                     "Subcommands cannot be mixed with other options."))
    return errs


def command_errors(cmd, p=()):
    errs = []
    if not isinstance(cmd, dict):
        return errs
    t = cmd.get("type") or 1
    name = cmd.get("name")
    desc = cmd.get("description")
    if t == 1:
        if isinstance(name, str) and (not CHAT_NAME.match(name)
                                      or name != name.lower()):
            errs.append((p + ("name",), "APPLICATION_COMMAND_INVALID_NAME",
                         "Command name is invalid (lowercase, "
                         "^[-_'\\w]{1,32}$)."))
        if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
            errs.append((p + ("description",), "BASE_TYPE_BAD_LENGTH",
                         "Must be between 1 and 100 in length."))
        errs += _option_errors(cmd.get("options") or [], p + ("options",), 0)
    else:
        if desc:
            errs.append((p + ("description",), "APPLICATION_COMMAND_"
                         "DESCRIPTION_FORBIDDEN", "User and message commands "
                         "have an empty description."))
        if cmd.get("options"):
            errs.append((p + ("options",), "APPLICATION_COMMAND_OPTIONS_"
                         "FORBIDDEN", "User and message commands have no "
                         "options."))
    size = _text_size(cmd)
    if size > COMMAND_TEXT_MAX:
        errs.append((p, "APPLICATION_COMMAND_TOO_LARGE",
                     f"Command exceeds maximum size ({COMMAND_TEXT_MAX}): "
                     f"{size}."))
    return errs


def bulk_command_errors(cmds):
    errs = []
    if not isinstance(cmds, list):
        return errs
    seen = {}
    per_type = {}
    for i, c in enumerate(cmds):
        if not isinstance(c, dict):
            continue
        errs += command_errors(c, (i,))
        key = (c.get("type") or 1, c.get("name"))
        if key in seen:
            errs.append(((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME",
                         "Application command names must be unique"))
        seen[key] = i
        per_type[key[0]] = per_type.get(key[0], 0) + 1
    for t, n in per_type.items():
        if n > PER_TYPE_MAX.get(t, 100):
            errs.append(((), "APPLICATION_COMMANDS_TOO_MANY",
                         f"Too many commands of type {t}: {n}."))
    return errs
