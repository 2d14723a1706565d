"""The analyses MMRC draws from its scores (§4.2, Fig. 7, Fig. 9, Fig. 15), each point with its n and CI.

- **Memory by length** (Fig. 7): IE, IM and MR, the memory abilities, by conversation length
  in exchanges (an exchange is a user turn and the replies up to the next one), bucketed on
  the paper's axis (4–6, 7–9, …, 19–22) plus 1–3 for short dialogues.
- **Update frequency** (Fig. 9): IU questions by how many times the asked fact was updated,
  read from the question's ``gold_turns``: the turns that state or change the fact, so the
  number of updates is their count minus one. An annotation that marks only the final turn
  counts 0 updates; annotate every turn that states or changes the fact.
- **Domain bias** (Fig. 15): by topic and by topic group (``breakdowns`` in ``score.py``).
- **Evidence position**: by where the earliest evidence turn sits (``breakdowns``).
"""

from __future__ import annotations

from collections import defaultdict

from builder.eval.stats import cluster_mean

MEMORY_ABILITIES = ("IE", "IM", "MR")
EXCHANGE_BUCKETS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 18), (19, 22))


def exchange_bucket(n_exchanges: int) -> str:
    for lo, hi in EXCHANGE_BUCKETS:
        if lo <= n_exchanges <= hi:
            return f"{lo}-{hi}"
    return ">22" if n_exchanges > 22 else "0"


def update_count(gold_turns: list[int]) -> int:
    return max(0, len(set(gold_turns)) - 1)


def _points(samples: list[dict], key, value, boot: dict) -> dict:
    groups: dict[str, list] = defaultdict(list)
    for s in samples:
        if (v := value(s)) is not None:
            groups[key(s)].append((s["dialogue_id"], v))
    return {k: cluster_mean(pairs, **boot) for k, pairs in sorted(groups.items(), key=lambda kv: _order(kv[0]))}


def _order(key: str):
    head = key.split("-")[0].lstrip(">")
    return (int(head) if head.isdigit() else 10**6, key)


def memory_by_length(samples: list[dict], value, boot: dict) -> dict:
    by_bucket = lambda s: exchange_bucket(s["n_exchanges"])  # noqa: E731
    out = {code: _points([s for s in samples if s["ability"] == code], by_bucket, value, boot)
           for code in MEMORY_ABILITIES}
    out["memory"] = _points([s for s in samples if s["ability"] in MEMORY_ABILITIES], by_bucket, value, boot)
    return out


def update_frequency(samples: list[dict], value, boot: dict) -> dict:
    return _points([s for s in samples if s["ability"] == "IU"], lambda s: str(update_count(s["gold_turns"])),
                   value, boot)


def analyses(samples: list[dict], metric_value: tuple, boot: dict) -> dict:
    metric, value = metric_value
    return {"metric": metric,
            "memory_by_length": {"unit": "exchanges", **memory_by_length(samples, value, boot)},
            "update_frequency": {"unit": "updates of the asked fact (IU gold_turns - 1)",
                                 **update_frequency(samples, value, boot)}}
