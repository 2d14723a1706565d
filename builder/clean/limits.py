"""What clean's PII detection is measured to miss and to over-remove, for the release card.

The figures are copied from ``bench/results/pii_heldout.json`` (``bench/pii_heldout.py``): data
the rules were *not* tuned on (the split is named below). A test keeps this table equal to that
file, so rerunning the bench after a rule change and not updating it fails CI. The card quotes
them so a reader knows what "PII was redacted" means in numbers, not as a promise.
"""

from __future__ import annotations

BENCH = "bench/results/pii_heldout.json"
TUNED_ON = ("WildChat (589 conversations), presidio-research's generated sets, other chitchat-dataset "
            "conversations (the person-context model's labelled names), messages written for the benchmark "
            "(the number- and street-context models' tuning halves, the nickname rules' tuning half, the postcode, "
            "street and id rules' tuning halves of sessions 52 and 53), the second side's "
            "names of other chitchat-dataset conversations (the person-context labelling's round 4, which also set "
            "the bar for such names in a chat not about sport or show business) and the "
            "numbers of other Topical-Chat valid_freq conversations (the number- and street-context models' "
            "numbers to keep); the lower-case-name model learnt from names NER read in other chitchat-dataset conversations and "
            "WildChat's user turns")
HELD_OUT = ("270 hand-labelled real dialogues and 300 dialogues with planted (canary) values, from "
            "chitchat-dataset 0.9.0, OpenAssistant en_100_tree and Topical-Chat valid_freq")

# (what, k, n): k of n; every row is one line of the card
MEASURED = {
    "real_private_removed": ("private values in real dialogues that a person would redact, removed", 77, 86),
    "canary_names_removed": ("planted person names, removed", 171, 183),
    "canary_streets_removed": ("planted street addresses, removed", 83, 92),
    "canary_structured_leaked": ("planted phone numbers, e-mails, card numbers, postal codes and ID numbers, "
                                 "left in whole or in part", 9, 271),
    "must_keep_removed": ("values that must stay (fictional characters, public names, products, numbers), "
                          "removed or damaged", 144, 3623),
}


def bench_figures(doc: dict) -> dict[str, tuple[int, int]]:
    """The same five figures read from the bench's JSON (for the consistency test)."""
    labels, canaries = doc["labels"]["overall"], doc["canaries"]["overall"]
    pick = lambda d: (d["k"], d["n"])  # noqa: E731
    return {
        "real_private_removed": pick(labels["must_redact"]["removed_in_surviving_dialogues"]),
        "canary_names_removed": pick(canaries["PERSON"]["recall_in_surviving_dialogues"]),
        "canary_streets_removed": pick(canaries["STREET"]["recall_in_surviving_dialogues"]),
        "canary_structured_leaked": pick(canaries["structured"]["all"]["leaked_in_surviving_dialogues"]),
        "must_keep_removed": pick(labels["must_keep"]["removed_or_damaged_in_surviving_dialogues"]),
    }


def card_lines() -> list[str]:
    return [f"- {what}: {k} of {n} ({k / n:.1%})" for what, k, n in MEASURED.values()]  # 89.5%, never "90%"
