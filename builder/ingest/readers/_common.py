"""Helpers shared by the format readers."""

from __future__ import annotations

from typing import Any, Literal, overload

from builder.ingest.records import ImageSpec, RecordError


@overload
def require_str(obj: dict, key: str, where: str, optional: Literal[False] = False) -> str: ...
@overload
def require_str(obj: dict, key: str, where: str, optional: bool) -> str | None: ...
def require_str(obj: dict, key: str, where: str, optional: bool = False) -> str | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise RecordError("invalid_record", f"{where}: field {key!r} must be a string, got {type(value).__name__}")
    return value


def require_list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key)
    if not isinstance(value, list):
        raise RecordError("invalid_record", f"{where}: field {key!r} must be a list")
    return value


def opt_id(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    raise RecordError("invalid_record", f"an id must be a string or integer, not {type(value).__name__}")


def openai_content(content: Any, where: str) -> tuple[str, list[ImageSpec]]:
    """OpenAI-style content: a string, or a list of text / image_url parts."""
    if content is None:
        return "", []
    if isinstance(content, str):
        return content, []
    if not isinstance(content, list):
        raise RecordError("invalid_record", f"{where}: content must be a string or a list of parts")
    texts: list[str] = []
    images: list[ImageSpec] = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
            continue
        if not isinstance(part, dict):
            raise RecordError("invalid_record", f"{where}: content part must be an object")
        kind = part.get("type") or ("image_url" if "image_url" in part else "text")
        if kind == "text":
            texts.append(require_str(part, "text", where))
        elif kind in ("image_url", "image"):
            ref = part.get("image_url", part.get("image"))
            url = ref.get("url") if isinstance(ref, dict) else ref
            if not isinstance(url, str) or not url:
                raise RecordError("invalid_record", f"{where}: image_url part without a url")
            images.append(ImageSpec(url))
        else:
            raise RecordError("invalid_record", f"{where}: unsupported content part type {kind!r}")
    return "\n".join(texts), images


def image_specs(value: Any, where: str) -> list[ImageSpec]:
    """A list of image references: strings or {"path"|"url": ...} objects."""
    if value is None:
        return []
    if isinstance(value, (str, dict)):
        value = [value]
    if not isinstance(value, list):
        raise RecordError("invalid_record", f"{where}: images must be a list")
    out = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("path") or item.get("url") or item.get("image_url")
        if not isinstance(item, str) or not item:
            raise RecordError("invalid_record", f"{where}: an image reference must be a non-empty string")
        out.append(ImageSpec(item))
    return out
