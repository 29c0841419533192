"""Checks HTTP requests against Discord's OpenAPI 3.1 description.

Routes come from the document's `paths`; a concrete path matches the most
specific template (a literal segment such as `@me` or `@original` beats a
`{parameter}`). Path and query parameters and JSON bodies are validated
with jsonschema's Draft 2020-12 validator (OpenAPI 3.1 schemas are JSON
Schema 2020-12) over a RefResolver on the whole document, built lazily and
cached. Failures come back as (path, code, message) triples that
`discord_errors` turns into Discord's nested "Invalid Form Body" shape.
"""

import datetime
import json
import re
import urllib.parse

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

try:  # jsonschema >= 4.18 deprecates RefResolver; Debian 12 has 4.10.3.
    from jsonschema import RefResolver
except ImportError:  # pragma: no cover
    RefResolver = None

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")

INT32 = (-2**31, 2**31 - 1)
INT64 = (-2**63, 2**63 - 1)


def _format_checker():
    fc = FormatChecker(formats=())

    @fc.checks("date-time", raises=(ValueError,))
    def _dt(v):
        if not isinstance(v, str):
            return True
        if "T" not in v and "t" not in v:
            raise ValueError("not an ISO 8601 date-time")
        datetime.datetime.fromisoformat(v.replace("Z", "+00:00")
                                        .replace("z", "+00:00"))
        return True

    @fc.checks("uri")
    def _uri(v):
        # Embeds take http(s) and attachment:// links, link buttons also
        # discord://; ws(s) appears in responses (the gateway URL).
        if not isinstance(v, str):
            return True
        u = urllib.parse.urlsplit(v)
        return u.scheme in ("http", "https", "attachment", "discord", "ws",
                            "wss") and bool(u.netloc)

    @fc.checks("int32")
    def _i32(v):
        return not isinstance(v, int) or isinstance(v, bool) or \
            INT32[0] <= v <= INT32[1]

    @fc.checks("int64")
    def _i64(v):
        return not isinstance(v, int) or isinstance(v, bool) or \
            INT64[0] <= v <= INT64[1]

    @fc.checks("snowflake")
    def _sf(v):
        return not isinstance(v, str) or not v.isdigit() or int(v) < 2**64

    return fc


def _segments(template):
    return [s for s in template.split("/") if s != ""]


class Route:
    __slots__ = ("template", "regex", "params", "specificity", "item")

    def __init__(self, template, item):
        self.template = template
        self.item = item
        segs = _segments(template)
        rx, self.params, spec = [], [], []
        for s in segs:
            m = re.fullmatch(r"\{([^}]+)\}", s)
            if m:
                rx.append("([^/]+)")
                self.params.append(m.group(1))
                spec.append(1)
            else:
                rx.append(re.escape(s))
                spec.append(0)
        self.regex = re.compile("^/" + "/".join(rx) + "$")
        self.specificity = tuple(spec)


class Spec:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.doc = json.load(f)
        if not str(self.doc.get("openapi", "")).startswith("3.1"):
            raise ValueError(f"{path}: not an OpenAPI 3.1 document")
        self.routes = [Route(t, item) for t, item in self.doc["paths"].items()]
        self.resolver = RefResolver("", self.doc) if RefResolver else None
        self.format_checker = _format_checker()
        self._validators = {}

    # -- documents ---------------------------------------------------------
    def resolve(self, node):
        """Follows a local $ref (#/...) to its target, repeatedly."""
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 20:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise ValueError(f"non-local $ref {ref}")
            node = self.doc
            for part in ref[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                node = node[urllib.parse.unquote(part)]
            seen += 1
        return node

    def validator(self, key, schema):
        v = self._validators.get(key)
        if v is None:
            v = Draft202012Validator(schema, resolver=self.resolver,
                                     format_checker=self.format_checker)
            self._validators[key] = v
        return v

    # -- routing -----------------------------------------------------------
    def match(self, path):
        """(Route, {param: value}) of the most specific template, or None."""
        best = None
        for r in self.routes:
            m = r.regex.match(path)
            if not m:
                continue
            if best is None or r.specificity < best[0].specificity:
                best = (r, m)
        if best is None:
            return None
        r, m = best
        vals = [urllib.parse.unquote(v) for v in m.groups()]
        return r, dict(zip(r.params, vals))

    def operation(self, route, method):
        op = route.item.get(method.lower())
        return op if isinstance(op, dict) else None

    def methods(self, route):
        return sorted(m.upper() for m in route.item if m in METHODS)

    def parameters(self, route, method):
        """Path-level parameters overridden by operation-level ones."""
        out = {}
        for p in route.item.get("parameters", []) or []:
            p = self.resolve(p)
            out[(p["name"], p["in"])] = p
        op = self.operation(route, method) or {}
        for p in op.get("parameters", []) or []:
            p = self.resolve(p)
            out[(p["name"], p["in"])] = p
        return out

    def security(self, route, method):
        op = self.operation(route, method) or {}
        sec = op.get("security", self.doc.get("security", []))
        anonymous = any(s == {} for s in sec)
        bot = any("BotToken" in s for s in sec)
        return anonymous, bot

    def request_body(self, route, method):
        op = self.operation(route, method) or {}
        rb = op.get("requestBody")
        return self.resolve(rb) if rb else None

    # -- validation --------------------------------------------------------
    def check_params(self, route, method, path_params, query_pairs):
        """Errors for path and query parameters (unknown query parameters
        included: Discord ignores them, but Lair should send none)."""
        errors = []
        params = self.parameters(route, method)
        for name, value in path_params.items():
            p = params.get((name, "path"))
            if p is None:
                continue
            errors += self._check_value(route, method, p, value, (name,))
        seen = set()
        for name, value in query_pairs:
            p = params.get((name, "query"))
            if p is None:
                errors.append(((name,), "UNKNOWN_QUERY_PARAMETER",
                               f"Unknown query parameter {name!r} "
                               "(not in openapi.json for this operation)."))
                continue
            seen.add(name)
            errors += self._check_value(route, method, p, value, (name,))
        for (name, where), p in params.items():
            if where == "query" and p.get("required") and name not in seen:
                errors.append(((name,), "BASE_TYPE_REQUIRED",
                               "This field is required"))
        return errors

    def _check_value(self, route, method, p, raw, path):
        schema = p.get("schema", {})
        key = ("param", route.template, method, p["in"], p["name"])
        v = self.validator(key, schema)
        candidates = [raw]
        if re.fullmatch(r"-?[0-9]+", raw):
            candidates.append(int(raw))
        if re.fullmatch(r"-?[0-9]+\.[0-9]+", raw):
            candidates.append(float(raw))
        if raw in ("true", "false"):
            candidates.append(raw == "true")
        first = None
        for c in candidates:
            errs = list(v.iter_errors(c))
            if not errs:
                return []
            first = first or errs
        out = []
        for e in first[:1]:
            code, msg = describe(e, self)
            if code == "NUMBER_TYPE_COERCE" or e.validator == "pattern":
                fmt = self.resolve(schema).get("format")
                msg = f'Value "{raw}" is not snowflake.' \
                    if fmt == "snowflake" else f'Value "{raw}" is not valid.'
                code = "NUMBER_TYPE_COERCE"
            out.append((path, code, msg))
        return out

    def body_validator(self, route, method, content_type="application/json"):
        rb = self.request_body(route, method)
        if not rb:
            return None
        media = rb.get("content", {}).get(content_type)
        if not media or "schema" not in media:
            return None
        return self.validator(("body", route.template, method, content_type),
                              media["schema"])

    def check_body(self, route, method, obj, content_type="application/json"):
        v = self.body_validator(route, method, content_type)
        if v is None:
            return []
        return [leaf for e in v.iter_errors(obj) for leaf in leaves(e, self)]

    def response_validator(self, route, method, status):
        op = self.operation(route, method) or {}
        resp = op.get("responses", {}).get(str(status))
        if not resp:
            return None
        resp = self.resolve(resp)
        media = resp.get("content", {}).get("application/json")
        if not media or "schema" not in media:
            return None
        return self.validator(("resp", route.template, method, status),
                              media["schema"])

    def check_response(self, route, method, status, obj):
        v = self.response_validator(route, method, status)
        if v is None:
            return []
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: "
                f"{e.message[:300]}" for e in v.iter_errors(obj)]


# -- error reduction -----------------------------------------------------

def _is_discriminator_miss(err, parent):
    """An error saying this oneOf/anyOf branch is for another kind of
    object: its `type` field (or the value's JSON type) does not fit."""
    rel = list(err.absolute_path)[len(parent.absolute_path):]
    if err.validator in ("enum", "const") and rel == ["type"]:
        return True
    if err.validator == "type" and rel == []:
        return True
    if err.validator in ("enum", "const") and rel == []:
        return True
    return False


def leaves(err, spec, depth=0):
    """Reduces a jsonschema error to the few errors a person would report:
    for oneOf/anyOf it follows the branch whose discriminator matched."""
    if err.validator in ("oneOf", "anyOf") and err.context and depth < 30:
        branches = {}
        for c in err.context:
            branches.setdefault(c.relative_schema_path[0], []).append(c)
        live = {k: v for k, v in branches.items()
                if not any(_is_discriminator_miss(c, err) for c in v)}
        if len(live) >= 1:
            def rank(item):
                errs = item[1]
                return (len(errs), -max(len(c.absolute_path) for c in errs))
            _, errs = sorted(live.items(), key=rank)[0]
            out = []
            for c in errs:
                out += leaves(c, spec, depth + 1)
            return out
    code, msg = describe(err, spec)
    path = tuple(err.absolute_path)
    if err.validator == "required":
        m = re.match(r"'([^']+)' is a required property", err.message)
        if m:
            path = path + (m.group(1),)
    return [(path, code, msg)]


def describe(err, spec):
    """A Discord-style (code, message) for one jsonschema error."""
    v, val, inst = err.validator, err.validator_value, err.instance
    schema = err.schema if isinstance(err.schema, dict) else {}
    if v == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if v == "maxLength":
        return "BASE_TYPE_MAX_LENGTH", f"Must be {val} or fewer in length."
    if v == "minLength":
        return "BASE_TYPE_MIN_LENGTH", f"Must be {val} or more in length."
    if v in ("maxItems", "minItems", "maxProperties", "minProperties"):
        lo = schema.get("minItems", schema.get("minProperties", 0))
        hi = schema.get("maxItems", schema.get("maxProperties", "∞"))
        return "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length."
    if v in ("enum", "const"):
        choices = val if v == "enum" else [val]
        return "BASE_TYPE_CHOICES", \
            f"Value must be one of {set(choices) if len(choices) < 50 else '...'}."
    if v == "type":
        want = val if isinstance(val, list) else [val]
        want = [w for w in want if w != "null"]
        w = want[0] if want else "null"
        if w in ("integer", "number"):
            return "NUMBER_TYPE_COERCE", f'Value "{inst}" is not int.'
        if w == "object":
            return "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        if w == "array":
            return "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
        if w == "boolean":
            return "BOOLEAN_TYPE_CONVERT", "Must be either true or false."
        if w == "string":
            return "STRING_TYPE_CONVERT", f'Could not interpret "{inst}" as string.'
        return "BASE_TYPE_INVALID", "Invalid value."
    if v == "pattern":
        if schema.get("format") == "snowflake":
            return "NUMBER_TYPE_COERCE", f'Value "{inst}" is not snowflake.'
        return "STRING_TYPE_REGEX", \
            f'String value did not match validation regex.'
    if v in ("minimum", "exclusiveMinimum"):
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {val}."
    if v in ("maximum", "exclusiveMaximum"):
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {val}."
    if v == "format":
        if val == "uri":
            return "URL_TYPE_INVALID_URL", "Not a well formed URL."
        if val == "date-time":
            return "DATE_TYPE_PARSE", f'Could not parse {inst}. Should be ISO8601.'
        return "NUMBER_TYPE_MAX", f"Value out of range for {val}."
    if v == "uniqueItems":
        return "LIST_ITEM_VALUE_DUPLICATE", "List items must be unique."
    return "BASE_TYPE_INVALID", "Invalid Form Body"


def discord_errors(triples):
    """{"field": {"0": {"_errors": [{code, message}]}}} from triples."""
    root = {}
    for path, code, msg in triples:
        node = root
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": msg})
    return root


def explain(triples, limit=5):
    parts = [f"{'.'.join(map(str, p)) or '(body)'}: {c} {m}"
             for p, c, m in triples[:limit]]
    if len(triples) > limit:
        parts.append(f"... {len(triples) - limit} more")
    return "; ".join(parts)
