"""Credentials never reach a file or a message: one place that blanks them.

A URL may carry ``user:password@`` (some proxies take credentials that way) and its query a
token (``?api_key=…``, ``&token=…``); a command line is written into lock files and shown by the
"being written by another process" message, so both are masked before they go anywhere.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

_USERINFO = re.compile(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)[^/\s@]+@", re.IGNORECASE)
_SECRET_QUERY = re.compile(r"(?P<key>[?&](?:api[_-]?key|key|token|access[_-]?token|password|secret|sig)=)[^&\s]*",
                           re.IGNORECASE)
_SECRET_OPTION = re.compile(r"(?P<opt>--(?:api[_-]?key|token|password|secret)(?:=|\s+))\S+", re.IGNORECASE)


def mask(text: str) -> str:
    """``text`` with URL credentials, secret query values and --token/--api-key values as ``***``."""
    text = _USERINFO.sub(lambda m: m.group("scheme") + "***@", text)
    text = _SECRET_QUERY.sub(lambda m: m.group("key") + "***", text)
    return _SECRET_OPTION.sub(lambda m: m.group("opt") + "***", text)


def redact_url(url: str) -> str:
    """The URL without user:password@, query or fragment: what may be recorded of a server."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
