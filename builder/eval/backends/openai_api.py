"""The ``openai`` backend: any OpenAI-compatible ``/chat/completions`` server.

vLLM (``vllm serve``), SGLang, llama.cpp's server, TGI, ``transformers serve`` and hosted
APIs. Images go as data URLs. Requests run concurrently (``--concurrency``); the first
question of a dialogue goes alone and the others follow once it is answered, so a server
with prefix caching (vLLM, SGLang) has the dialogue's history cached for them.

Failures: 429, 5xx, timeouts, dropped connections and malformed replies are retried with
exponential backoff (``Retry-After`` honoured), then become a ``backend_error`` reply that is
not cached, so a rerun retries it. A 400 that says the prompt is too long is
``context_overflow``. 401/403/404 stop the run with one line (a wrong key or model name
would fail every request). The API key is read from an environment variable, sent only
in the Authorization header and never written anywhere.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import re
from typing import Callable, Iterable

from builder.credentials import redact_url
from builder.errors import ConfigError, require
from builder.eval.backends import BackendSpec, Group, Reply, Request, clean_text, drop_oldest
from builder.eval.backends.ramp import ConcurrencyRamp

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
OVERFLOW = re.compile(r"context length|context_length|maximum context|context size|context window|"
                      r"exceed_context|prompt is too long|too many tokens|must be <= ?\d+|input is too long",
                      re.IGNORECASE)
MAX_ERROR_CHARS = 300
CHARS_PER_TOKEN = 4
MAX_BODY_BYTES = 32 * 1024 * 1024  # a chat completion is never this large; more is not read
MODELS_TIMEOUT_S = 10.0  # GET /models: what the server says of the model, read once per run


NOT_SENT = "(image not sent: chat APIs take images only in user turns)"


def to_openai(messages: list[dict], urls: dict[str, str], stats: dict | None = None) -> list[dict]:
    out = []
    for message in messages:
        if message["role"] != "user":  # assistant/system content is text; images only in user turns
            dropped = sum(p["type"] == "image" for p in message["content"])
            if dropped and stats is not None:
                stats["images_not_sent"] = stats.get("images_not_sent", 0) + dropped
            text = "".join(p["text"] if p["type"] == "text" else NOT_SENT for p in message["content"])
            out.append({"role": message["role"], "content": text})
            continue
        content = []
        for part in message["content"]:
            if part["type"] == "image":
                if part["sha256"] not in urls:
                    urls[part["sha256"]] = f"data:{part['mime']};base64,{base64.b64encode(part['bytes']).decode()}"
                content.append({"type": "image_url", "image_url": {"url": urls[part["sha256"]]}})
            else:
                content.append({"type": "text", "text": part["text"]})
        out.append({"role": "user", "content": content})
    return out


class OpenAIBackend:
    name = "openai"

    def __init__(self, spec: BackendSpec, transport=None, sleep: Callable | None = None,
                 retry_base_s: float = 1.0, retry_cap_s: float = 60.0):
        require("httpx")
        if spec.api_key_env and not os.environ.get(spec.api_key_env):
            raise ConfigError(f"{spec.option('api-key-env')} names {spec.api_key_env}, which is not set (or empty); "
                              f"export the key in {spec.api_key_env}, or drop the option for a server without keys")
        self.spec = spec
        assert spec.base_url is not None, "BackendSpec.validate() requires a base URL for the openai backend"
        self.base_url = spec.base_url.rstrip("/")
        self.transport = transport
        self.sleep = sleep or asyncio.sleep
        self.retry_base_s, self.retry_cap_s = retry_base_s, retry_cap_s
        self.stats = {"requests": 0, "retries": 0, "backend_errors": 0, "context_overflow": 0, "prefix_warm_groups": 0}
        # --concurrency auto: in flight ramps while throughput rises (ramp.py); a number is a fixed limit
        self.ramp = ConcurrencyRamp() if spec.concurrency == "auto" else None
        self._server: dict | None = None
        self._fatal: Exception | None = None

    # -- identity -------------------------------------------------------------------------------
    def identity(self) -> dict:
        """What decides the answers (the cache key): the served model and, when the server says so
        (vLLM, SGLang), its weights' root and context length, so swapping weights behind one name or
        restarting with a longer context is a new identity. The host is not part of it: the same
        model on 127.0.0.1 or localhost shares its cache."""
        server = self.server_info()
        return {"backend": self.name, "model": self.spec.model, "overflow": self.spec.overflow,
                "root": server.get("root"), "max_model_len": server.get("max_model_len")}

    def fingerprint(self) -> dict:
        return {**self.identity(), "base_url": redact_url(self.base_url), "server": self.server_info()}

    def server_info(self) -> dict:
        """What ``GET /models`` says of the model (vLLM adds max_model_len and the weights' root): read within
        ``MODELS_TIMEOUT_S`` and ``MAX_BODY_BYTES``, and only plain values of the model's entry are kept."""
        if self._server is None:
            import httpx

            try:
                status, body = _get_capped(self.transport, f"{self.base_url}/models", self._headers(),
                                           min(MODELS_TIMEOUT_S, self.spec.timeout_s))
                if body is None:
                    self._server = {"models_endpoint": f"HTTP {status}, the reply is over {MAX_BODY_BYTES >> 20} MiB; "
                                                       "not read"}
                    return self._server
                data = json.loads(body).get("data", []) if status == 200 else []
                entry = next((m for m in data if isinstance(m, dict) and m.get("id") == self.spec.model), None)
                self._server = ({k: _plain(entry.get(k), k) for k in ("id", "owned_by", "root", "max_model_len")
                                 if k in entry}
                                if entry else {"models_endpoint": f"HTTP {status}, model not listed"})
            except (httpx.HTTPError, TimeoutError, ValueError, AttributeError, TypeError, RecursionError) as exc:
                self._server = {"models_endpoint": f"unavailable ({type(exc).__name__})"}
        return self._server

    def _key(self) -> str | None:
        return os.environ.get(self.spec.api_key_env) if self.spec.api_key_env else None

    def _headers(self) -> dict:
        key = self._key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _snippet(self, text: str | None) -> str:
        """A server's error text, shortened, with the key blanked if a server echoes it."""
        return self._masked(_snippet(text)) or ""  # a str in, a str out

    def _masked(self, text: str | None) -> str | None:
        """``text`` with the API key blanked: a server that reflects the key (a debugging proxy, a hostile
        host) must not get it into samples.jsonl, the cache or the judge's prompt."""
        key = self._key()
        return text.replace(key, "***") if key and text else text

    # -- running ----------------------------------------------------------------------------------
    def run(self, groups: Iterable[Group], on_reply: Callable[[Request, Reply], None]) -> None:
        asyncio.run(self._run(groups, on_reply))
        if self._fatal is not None:
            fatal, self._fatal = self._fatal, None
            raise fatal

    async def _run(self, groups: Iterable[Group], on_reply) -> None:
        import httpx

        ceiling = self.ramp.cap if self.ramp else self.spec.concurrency
        limits = httpx.Limits(max_connections=ceiling)
        timeout = httpx.Timeout(self.spec.timeout_s)
        semaphore = self.ramp or asyncio.Semaphore(self.spec.concurrency)
        urls: dict[str, str] = {}
        async with httpx.AsyncClient(transport=self.transport, timeout=timeout, limits=limits,
                                     headers=self._headers()) as client:
            async def one(request: Request) -> None:
                if self._fatal is not None:
                    return
                async with semaphore:
                    try:
                        reply = await self._complete(client, request, urls)
                    except ConfigError as exc:
                        self._fatal = exc
                        return
                on_reply(request, reply)

            async def group_task(group: Group) -> None:
                head, rest = group.requests[:1], group.requests[1:]
                if group.prefix_len and rest:
                    self.stats["prefix_warm_groups"] += 1
                    for request in head:
                        await one(request)
                    await asyncio.gather(*(one(r) for r in rest))
                else:
                    await asyncio.gather(*(one(r) for r in group.requests))

            pending: set[asyncio.Task] = set()
            for group in groups:
                if self._fatal is not None:
                    break
                pending.add(asyncio.ensure_future(group_task(group)))
                if len(pending) >= 2 * (self.ramp.limit if self.ramp else self.spec.concurrency):
                    done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                    for task in done:
                        task.result()  # a bug in a task must not vanish
            if pending:
                await asyncio.gather(*pending)
        if self.ramp:
            self.stats.update(self.ramp.describe())

    def _body(self, messages: list[dict], max_new_tokens: int, urls: dict) -> dict:
        body = {"model": self.spec.model, "messages": to_openai(messages, urls, self.stats), "max_tokens": max_new_tokens}
        if self.spec.generation == "greedy":
            body["temperature"] = 0
        else:  # the server's (model's) defaults, except what the user set
            body["seed"] = self.spec.seed
            body.update({k: v for k, v in (("temperature", self.spec.temperature), ("top_p", self.spec.top_p))
                         if v is not None})
        return body

    async def _complete(self, client, request: Request, urls: dict) -> Reply:
        import httpx

        messages, dropped, last_error = request.messages, 0, "no attempt made"
        attempt = 0
        while attempt <= self.spec.max_retries:
            retry_after = None
            self.stats["requests"] += 1
            try:  # --timeout bounds the whole request: a server that drips its reply in byte by byte is cut off
                resp = await asyncio.wait_for(_post(client, f"{self.base_url}/chat/completions",
                                                    self._body(messages, request.max_new_tokens, urls)),
                                              self.spec.timeout_s)
            except (httpx.TimeoutException, asyncio.TimeoutError):
                last_error = f"timed out after {self.spec.timeout_s:g}s"
            except httpx.TransportError as exc:
                last_error = f"connection error ({type(exc).__name__})"
            else:
                status = resp.status_code
                if status == 200:
                    reply = _parse(resp, self._snippet, reply_char_cap(request.max_new_tokens))
                    if isinstance(reply, Reply):
                        reply.truncated_messages = dropped
                        reply.text, reply.finish_reason = self._masked(reply.text), self._masked(reply.finish_reason)
                        return reply
                    last_error = reply
                elif status in (400, 413, 422) and OVERFLOW.search(resp.text or ""):
                    cut = drop_oldest(messages) if self.spec.overflow == "truncate-history" else None
                    if cut is None:
                        self.stats["context_overflow"] += 1
                        return Reply("context_overflow", error=self._snippet(resp.text))
                    messages, n = cut
                    dropped += n
                    continue  # a shorter prompt is a new request, not a retry
                elif status in (401, 403):
                    where = f"${self.spec.api_key_env}" if self.spec.api_key_env else "a variable"
                    raise ConfigError(f"{redact_url(self.base_url)} refused the request (HTTP {status}); put the "
                                      f"server's API key in {where} and name it with "
                                      f"{self.spec.option('api-key-env')} NAME")
                elif status == 404:
                    raise ConfigError(f"{redact_url(self.base_url)}/chat/completions answered 404 for model "
                                      f"{self.spec.model!r}: {self._snippet(resp.text)}; check "
                                      f"{self.spec.option('base-url')} and {self.spec.option('model')}")
                elif status in RETRY_STATUS:
                    last_error = f"HTTP {status}: {self._snippet(resp.text)}"
                    retry_after = _retry_after(resp)
                else:  # a 4xx that is not about length: this request will never pass (too many images, ...)
                    self.stats["request_rejected"] = self.stats.get("request_rejected", 0) + 1
                    return Reply("request_rejected", error=f"HTTP {status}: {self._snippet(resp.text)}")
            if attempt == self.spec.max_retries:
                break
            self.stats["retries"] += 1
            delay = min(self.retry_cap_s, self.retry_base_s * 2 ** attempt) * (0.5 + random.random() / 2)
            await self.sleep(min(self.retry_cap_s, max(delay, retry_after or 0)))
            attempt += 1
        self.stats["backend_errors"] += 1
        return Reply("backend_error", error=f"{last_error} (after {attempt + 1} attempts)")

    def close(self) -> None:
        pass


async def _post(client, url: str, body: dict):
    """POST and read the reply, at most ``MAX_BODY_BYTES`` of it: a larger body is never held in
    memory; it comes back as a 413-like response that says so (the request is rejected, not retried)."""
    import httpx

    async with client.stream("POST", url, json=body) as resp:
        chunks, size = [], 0
        async for chunk in resp.aiter_bytes():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return httpx.Response(499, text=f"the server's reply is over {MAX_BODY_BYTES >> 20} MiB; not read")
            chunks.append(chunk)
        headers = [(k, v) for k, v in resp.headers.items() if k.lower() not in ("content-encoding", "content-length",
                                                                                  "transfer-encoding")]
        return httpx.Response(resp.status_code, headers=headers, content=b"".join(chunks))


def _get_capped(transport, url: str, headers: dict, timeout_s: float) -> tuple[int, bytes | None]:
    """(status, body) of a GET read within ``timeout_s`` in all; body None when it is over ``MAX_BODY_BYTES``."""
    import time

    import httpx

    deadline = time.monotonic() + timeout_s
    with httpx.Client(transport=transport, timeout=timeout_s) as client:
        with client.stream("GET", url, headers=headers) as resp:
            chunks, size = [], 0
            for chunk in resp.iter_bytes():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    return resp.status_code, None
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no complete reply within {timeout_s:g}s")
                chunks.append(chunk)
            return resp.status_code, b"".join(chunks)


def _plain(value, name: str):
    """A value of the server's model entry as the identity keeps it: text (at most 300 characters), a
    number or a flag; anything else (a nested structure a server made up) is dropped."""
    if name == "max_model_len":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str):
        return value[:300]
    return value if isinstance(value, (int, float, bool)) or value is None else None


def reply_char_cap(max_new_tokens: int) -> int:
    """The most characters of an answer that are kept: 4x what ``max_new_tokens`` tokens can
    hold at a generous 4 characters a token. A server that ignores ``max_tokens`` cannot fill the
    cache and samples.jsonl with megabytes per question; a cut answer is recorded as truncated."""
    return max_new_tokens * CHARS_PER_TOKEN * 4


def _parse(resp, snippet=None, max_chars: int | None = None) -> Reply | str:
    """A reply, or the reason the body is not a chat completion (then it is retried)."""
    snippet = snippet or _snippet
    try:
        data = resp.json()
        choice = data["choices"][0]
        message = choice["message"]
        text = message.get("content")
        usage = data.get("usage") or {}
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
        return f"malformed response: {snippet(resp.text)}"
    if text is None and isinstance(message.get("refusal"), str):  # OpenAI's safety refusal: the model's answer
        text = message["refusal"]
    if text is None:
        return "malformed response: the message content is null (no answer text)"
    if not isinstance(text, str):
        return f"malformed response: content is {type(text).__name__}"
    usage = usage if isinstance(usage, dict) else {}
    text = text.strip()
    reply = Reply("ok", None, _int_or_none(usage.get("prompt_tokens")), _int_or_none(usage.get("completion_tokens")),
                  clean_text(finish if isinstance(finish := choice.get("finish_reason"), str) else None))
    if max_chars is not None and len(text) > max_chars:
        reply.extra["truncated_chars"] = len(text) - max_chars
        text = text[:max_chars]
    reply.text = clean_text(text)
    return reply


def _int_or_none(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _retry_after(resp) -> float | None:
    try:
        return float(resp.headers.get("retry-after"))
    except (TypeError, ValueError):
        return None


def _snippet(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text[:MAX_ERROR_CHARS] + ("…" if len(text) > MAX_ERROR_CHARS else "")
