"""What `swap` says when it made fewer variants than asked (``--count``), and why.

The planner gives every dialogue one reason (the ledger's ``reason``); this turns the counts
into one line a user can act on: what stopped most dialogues, and what would raise the yield.
"""

from __future__ import annotations

# reason -> (what it means, what raises the yield); reasons not listed are reported by name only
REMEDIES = {
    "no_matching_image": ("no picture in the image source scored >= --threshold for any named thing",
                          "a bigger image bank (--image-bank FOLDER) or a text-to-image model "
                          "(--image-source diffusion --t2i-model PATH)"),
    "no_candidate_span": ("no picturable named thing (a place, dish, animal, object) in the user turns",
                          "dialogues that name concrete things; this data has few"),
    "no_safe_rewrite": ("named things whose sentence could not be rewritten safely (kinds, hypotheticals, "
                        "several mentions, creative requests)",
                        "nothing safe: these are refused on purpose"),
    "language_unsupported": ("dialogues not in English (the rewrite rules are English)", "English dialogues"),
    "duplicate_variant": ("variants identical to one already made", "more varied dialogues"),
}
NOT_TRIED = ("not_selected", "is_variant", "variant_created")


def shortfall(report: dict) -> str | None:
    """One line when ``variants < count``: the blocking reasons, largest first, and the remedy."""
    asked, made = int(report.get("count") or 0), int(report.get("variants") or 0)
    if made >= asked:
        return None
    reasons = {k: v for k, v in (report.get("reasons") or {}).items() if k not in NOT_TRIED and v}
    if not reasons:
        return f"made {made} of the {asked} variants asked: every dialogue was tried"
    ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [f"{n} {REMEDIES[r][0] if r in REMEDIES else r}" for r, n in ranked]
    top = ranked[0][0]
    remedy = REMEDIES[top][1] if top in REMEDIES else "see the ledger's reasons"
    tried = report.get("dialogues", 0)
    return (f"made {made} of the {asked} variants asked, from {tried} dialogue(s): {'; '.join(parts)}. "
            f"Most were stopped by {top}; what raises the yield: {remedy}.")


def source_line(source: dict) -> str:
    """Which image source ran, e.g. the bundled demo bank."""
    if source.get("name") == "image-bank":
        where = "the bundled demo image bank" if source.get("bundled") else "image bank"
        return (f"{where} {source.get('version')!r} ({source.get('images', '?')} pictures, "
                f"{source.get('path')})")
    return f"{source.get('name')} {source.get('version')}"
