"""The openai backend's error paths against an in-process fake transport (httpx.MockTransport):
the real request/retry/parse code runs; only the server is scripted."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from builder.errors import ConfigError
from builder.eval.backends import BackendSpec, Group, Request
from builder.eval.backends.openai_api import OpenAIBackend, redact_url

KEY = "sk-test-secret-key-0123456789"


def completion(text="an answer", finish="stop"):
    return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": text},
                                                  "finish_reason": finish}],
                                     "usage": {"prompt_tokens": 11, "completion_tokens": 2}})


def backend(handler, monkeypatch, sleeps=None, **spec):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    sleeps = sleeps if sleeps is not None else []

    async def fake_sleep(seconds):
        sleeps.append(seconds)

    spec.setdefault("api_key_env", "OPENAI_API_KEY")
    return OpenAIBackend(BackendSpec("openai", "served-model", base_url="http://127.0.0.1:9/v1", max_retries=3,
                                     **spec), transport=httpx.MockTransport(handler), sleep=fake_sleep)


def run(be, groups):
    out = {}
    be.run(groups, lambda request, reply: out.__setitem__(request.key, reply))
    return out


def msgs(text="Q?", image=False):
    content = [{"type": "text", "text": text}]
    if image:
        content.insert(0, {"type": "image", "index": 0, "sha256": "abc", "mime": "image/png", "bytes": b"\x89PNG"})
    return [{"role": "user", "content": content}]


def test_request_shape_images_as_data_urls_and_key_only_in_header(monkeypatch):
    seen = []

    def handler(request):
        seen.append((dict(request.headers), json.loads(request.content)))
        return completion()

    out = run(backend(handler, monkeypatch), [Group([Request("k", msgs(image=True), 7)])])
    assert out["k"].status == "ok" and out["k"].text == "an answer" and out["k"].prompt_tokens == 11
    headers, body = seen[0]
    assert headers["authorization"] == f"Bearer {KEY}"
    assert body["temperature"] == 0 and body["max_tokens"] == 7 and body["model"] == "served-model"
    assert body["messages"][0]["content"][0] == {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw=="}}
    assert KEY not in json.dumps(body) and KEY not in json.dumps(out["k"].to_json())


def test_429_then_success_honours_retry_after(monkeypatch):
    calls, sleeps = [], []

    def handler(request):
        calls.append(1)
        return httpx.Response(429, headers={"retry-after": "7"}, text="slow down") if len(calls) == 1 else completion()

    be = backend(handler, monkeypatch, sleeps)
    assert run(be, [Group([Request("k", msgs(), 5)])])["k"].status == "ok"
    assert len(calls) == 2 and sleeps == [7.0] and be.stats["retries"] == 1


@pytest.mark.parametrize("response, error", [
    (lambda: httpx.Response(500, text="boom"), "HTTP 500: boom"),
    (lambda: httpx.Response(200, text="{not json"), "malformed response"),
    (lambda: httpx.Response(200, json={"choices": []}), "malformed response"),
])
def test_retryable_failures_end_as_backend_error(monkeypatch, response, error):
    calls, sleeps = [], []

    def handler(request):
        calls.append(1)
        return response()

    out = run(backend(handler, monkeypatch, sleeps), [Group([Request("k", msgs(), 5)])])
    assert out["k"].status == "backend_error" and error in out["k"].error and "after 4 attempts" in out["k"].error
    assert len(calls) == 4 and len(sleeps) == 3
    assert all(0.5 * 2 ** i <= s <= 2 ** i for i, s in enumerate(sleeps))  # exponential backoff, jittered


def test_timeouts_and_dropped_connections_are_retried(monkeypatch):
    calls = []

    def handler(request):
        calls.append(1)
        if len(calls) == 1:
            raise httpx.ReadTimeout("slow", request=request)
        if len(calls) == 2:
            raise httpx.ConnectError("refused", request=request)
        return completion("late")

    assert run(backend(handler, monkeypatch), [Group([Request("k", msgs(), 5)])])["k"].text == "late"


def test_context_overflow_from_the_server_message(monkeypatch):
    def handler(request):
        return httpx.Response(400, json={"error": {"message": "This model's maximum context length is 4096 tokens."}})

    out = run(backend(handler, monkeypatch), [Group([Request("k", msgs(), 5)])])
    assert out["k"].status == "context_overflow" and "maximum context length" in out["k"].error


def test_truncate_history_drops_oldest_exchange_and_resends(monkeypatch):
    lengths = []

    def handler(request):
        n = len(json.loads(request.content)["messages"])
        lengths.append(n)
        return httpx.Response(400, text="prompt is too long") if n > 2 else completion()

    history = [{"role": r, "content": [{"type": "text", "text": t}]} for r, t in
               [("user", "a"), ("assistant", "b"), ("user", "c"), ("assistant", "d")]]
    out = run(backend(handler, monkeypatch, overflow="truncate-history"),
              [Group([Request("k", history + msgs(), 5)])])
    assert out["k"].status == "ok" and out["k"].truncated_messages == 4 and lengths == [5, 3, 1]


@pytest.mark.parametrize("status", [401, 403, 404])
def test_auth_and_missing_model_stop_the_run_with_one_line(monkeypatch, status):
    def handler(request):
        return httpx.Response(status, json={"error": "nope"})

    with pytest.raises(ConfigError) as err:
        run(backend(handler, monkeypatch), [Group([Request(str(i), msgs(), 5)]) for i in range(5)])
    assert KEY not in str(err.value) and "\n" not in str(err.value)


def test_other_4xx_is_a_rejected_request_without_retry(monkeypatch):
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(400, text=f"At most 16 images may be provided; key {KEY}")

    reply = run(backend(handler, monkeypatch), [Group([Request("k", msgs(), 5)])])["k"]
    assert reply.status == "request_rejected" and len(calls) == 1
    assert KEY not in reply.error and "***" in reply.error  # a server echoing the key does not leak it


def test_no_key_is_sent_unless_its_variable_is_named(monkeypatch):
    seen = []

    def handler(request):
        seen.append(request.headers.get("authorization"))
        return completion()

    run(backend(handler, monkeypatch, api_key_env=None), [Group([Request("k", msgs(), 5)])])
    assert seen and all(h is None for h in seen)


def test_the_key_itself_is_refused_as_a_variable_name():
    with pytest.raises(ConfigError, match="NAME of an environment variable"):
        BackendSpec("openai", "m", base_url="http://x/v1", api_key_env="sk-live-0123456789abcdef").validate()


def test_assistant_images_are_said_not_sent(monkeypatch):
    bodies = []

    def handler(request):
        bodies.append(json.loads(request.content))
        return completion()

    history = [{"role": "assistant", "content": [{"type": "image", "index": 0, "sha256": "a", "mime": "image/png",
                                                  "bytes": b"x"}, {"type": "text", "text": "here"}]}]
    be = backend(handler, monkeypatch)
    run(be, [Group([Request("k", history + msgs(), 5)])])
    assert "image not sent" in bodies[0]["messages"][0]["content"] and be.stats["images_not_sent"] == 1


def test_concurrency_limit_and_prefix_warm_order(monkeypatch):
    in_flight, peak, order = [0], [0], []

    async def handler(request):
        body = json.loads(request.content)
        in_flight[0] += 1
        peak[0] = max(peak[0], in_flight[0])
        order.append(("start", body["messages"][-1]["content"][0]["text"]))
        await asyncio.sleep(0.01)
        in_flight[0] -= 1
        order.append(("end", body["messages"][-1]["content"][0]["text"]))
        return completion()

    groups = [Group([Request(f"{g}-{q}", msgs(f"{g}-{q}"), 5) for q in range(6)], prefix_len=1) for g in range(4)]
    out = run(backend(handler, monkeypatch, concurrency=3), groups)
    assert len(out) == 24 and peak[0] <= 3
    for g in range(4):  # a dialogue's first question is answered before its others are sent
        first_end = order.index(("end", f"{g}-0"))
        assert all(order.index(("start", f"{g}-{q}")) > first_end for q in range(1, 6))


def test_base_url_credentials_never_reach_fingerprints():
    assert redact_url("https://user:pw@api.example.com:8443/v1") == "https://api.example.com:8443/v1"


def test_hostile_reply_fields_are_made_safe(monkeypatch):
    """A lone surrogate in the content, wrong types in usage: the reply is still hashable, writable
    UTF-8 and typed, never a crash later in the cache or samples.jsonl."""
    from builder.io import sha256_json

    def handler(request):
        body = '{"choices": [{"message": {"content": "x \\ud800 y"}, "finish_reason": 7}], "usage": "lots"}'
        return httpx.Response(200, text=body, headers={"content-type": "application/json"})

    reply = run(backend(handler, monkeypatch), [Group([Request("k", msgs(), 5)])])["k"]
    assert reply.status == "ok" and reply.text == "x \ufffd y" and reply.finish_reason is None
    assert reply.prompt_tokens is None and sha256_json(reply.to_json())
    reply.text.encode("utf-8")


@pytest.mark.parametrize("retry_after", ["1000000000", "1e309", "nan", "-5", "Wed, 21 Oct 2099 07:28:00 GMT"])
def test_a_retry_after_of_years_is_capped(monkeypatch, retry_after):
    calls, sleeps = [], []

    def handler(request):
        calls.append(1)
        return httpx.Response(503, headers={"retry-after": retry_after}, text="later") if len(calls) == 1 \
            else completion()

    be = backend(handler, monkeypatch, sleeps)
    assert run(be, [Group([Request("k", msgs(), 5)])])["k"].status == "ok"
    assert len(sleeps) == 1 and 0 < sleeps[0] <= 60.0  # never longer than the backoff cap
