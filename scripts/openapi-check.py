#!/usr/bin/env python3
"""The emulator's answers against docs/openapi.json (`make test-openapi`).

Usage: scripts/openapi-check.py docs/openapi.json  (with ESTATEKIT_EMULATOR_URL set, as
scripts/with-emulator.sh exports it). Calls every operation of the description once against
the emulator (and a few error cases), and checks each answer: its status is one the operation
lists, the headers it says are required are there, and its JSON body is valid against the
operation's schema for that status (JSON Schema 2020-12, the description's dialect, with its
`$ref`s resolved inside the description). Fails when an operation of the description was not
called, so a new row of the operation table needs its call here. Prints one line per answer.
"""

import json
import os
import sys
import urllib.error
import urllib.request
import uuid

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = os.environ["ESTATEKIT_EMULATOR_URL"].rstrip("/")
TOKEN = "dev-token"
ROOT = "urn:estatekit:openapi"

with open(sys.argv[1], encoding="utf-8") as f:
    DOC = json.load(f)
REGISTRY = Registry().with_resource(ROOT, Resource.from_contents(DOC, default_specification=DRAFT202012))
OPERATIONS = {
    op["operationId"]: (path, method)
    for path, item in DOC["paths"].items()
    for method, op in item.items()
}
called = set()
failures = []


def pointer(*parts):
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(node, at):
    """A `$ref`'d object of the description (a response) and its pointer."""
    while "$ref" in node:
        at = node["$ref"]
        node = DOC
        for part in at[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node, at


def send(method, path, body=None, content_type=None, token=TOKEN):
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(BASE + path, data=body, method=method.upper(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def check(operation_id, path, method="get", body=None, content_type=None, token=TOKEN):
    """Sends the request and checks its answer against `operation_id`'s responses."""
    template, want_method = OPERATIONS[operation_id]
    assert want_method == method, (operation_id, method)
    called.add(operation_id)
    status, headers, raw = send(method, path, body, content_type, token)
    responses = DOC["paths"][template][method]["responses"]
    # A success must be listed as one (never taken by `default`, the errors' answer).
    keys = (str(status), f"{str(status)[0]}XX") + (() if 200 <= status < 300 else ("default",))
    key = next((k for k in keys if k in responses), None)
    line = f"{operation_id}: {method.upper()} {path} -> {status}"
    if key is None:
        failures.append(f"{line}: status not in the description ({', '.join(responses)})")
        print("FAIL", line)
        return status, headers, raw
    response, at = resolve(responses[key], pointer("paths", template, method, "responses", key))
    lower = {k.lower(): v for k, v in headers.items()}
    for name, header in response.get("headers", {}).items():
        header, _ = resolve(header, "")
        if header.get("required") and name.lower() not in lower:
            failures.append(f"{line}: required header {name} missing")
        if name.lower() in lower and header.get("schema", {}).get("type") == "integer":
            if not lower[name.lower()].strip().isdigit():
                failures.append(f"{line}: header {name} is not an integer: {lower[name.lower()]}")
    content = response.get("content", {}).get("application/json")
    if content is not None:
        schema_at = f"{at}/content/application~1json/schema"
        try:
            value = json.loads(raw)
        except ValueError:
            failures.append(f"{line}: the body is not JSON: {raw[:200]!r}")
            print("FAIL", line)
            return status, headers, raw
        validator = Draft202012Validator({"$ref": ROOT + schema_at}, registry=REGISTRY)
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        for error in errors[:5]:
            failures.append(f"{line}: {'/'.join(map(str, error.path)) or '(body)'}: {error.message}")
        if errors:
            print("FAIL", line)
            return status, headers, raw
    print("ok  ", line, f"({key})")
    return status, headers, raw


def multipart(fields):
    boundary = uuid.uuid4().hex
    out = b""
    for name, value, filename, ctype in fields:
        out += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"".encode()
        if filename:
            out += f"; filename=\"{filename}\"".encode()
        out += b"\r\n"
        if ctype:
            out += f"Content-Type: {ctype}\r\n".encode()
        out += b"\r\n" + value + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return out, f"multipart/form-data; boundary={boundary}"


HOOKS = OPERATIONS["listWebhooks"][0]
hook = json.dumps({"type": "UNIT_CREATED", "url": "http://127.0.0.1:9/openapi-check"}).encode()
_, headers, _ = check("registerWebhook", HOOKS, "post", hook, "application/json")
check("listWebhooks", HOOKS)
check("listWebhooks", HOOKS, token=None)  # 401
check("listWebhooks", HOOKS, token="readonly-token")  # 403
webhook_id = {k.lower(): v for k, v in headers.items()}.get("location", "missing")
check("deleteWebhook", OPERATIONS["deleteWebhook"][0].replace("{webhookId}", webhook_id), "delete")

body, ctype = multipart([
    ("file", b"hello", "hello.txt", "text/plain"),
    ("resourcePath", b"units/openapi-check", None, None),
    ("metadata", json.dumps({"type": "CONTRACT", "unitId": "u-1"}).encode(), None, None),
    ("name", b"hello.txt", None, None),
])
_, _, raw = check("uploadDocument", OPERATIONS["uploadDocument"][0], "post", body, ctype)
document_id = json.loads(raw).get("id", "missing")
check("listDocuments", OPERATIONS["listDocuments"][0] + "?unitId=u-1&types=CONTRACT&types=DOCUMENT&skip=0&take=5")
check("getDocument", OPERATIONS["getDocument"][0].replace("{documentId}", document_id))
check("getDocument", OPERATIONS["getDocument"][0].replace("{documentId}", "no-such-document"))  # 404
check("deleteDocument", OPERATIONS["deleteDocument"][0].replace("{documentId}", document_id), "delete")

query = (
    "query Messages($candidateId: String, $paging: GraphPaging) { messages(input: "
    "{ filter: { candidateId: $candidateId }, paging: $paging }) { id candidateId sentBy userId "
    "text replyToMessageId isRead attachments { id name resourcePath type size } } }"
)
messages = json.dumps({"query": query, "variables": {"candidateId": "cand-1", "paging": {"skip": 0, "take": 10}}}).encode()
_, _, raw = check("listMessages", OPERATIONS["listMessages"][0], "post", messages, "application/json")
if not json.loads(raw).get("data", {}).get("messages"):
    failures.append("listMessages: the seeded conversation cand-1 came back empty (nothing was checked)")
no_filter = json.dumps({"query": "query Messages { messages(input: {}) { id } }", "variables": {}}).encode()
check("listMessages", OPERATIONS["listMessages"][0], "post", no_filter, "application/json")

missing = sorted(set(OPERATIONS) - called)
if missing:
    failures.append(f"operations of the description never called here: {', '.join(missing)}")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"openapi-check: {len(called)} operations, every answer valid against {sys.argv[1]}")
