"""What the user asks for, beside what the dialogue is about: the task traits the topic head reads.

A dialogue's vector says what it talks about; it says less well what kind of task it is. Code is
Computer whatever the variable names say; a maths exercise or a riddle is none of the 14 topics
however many apples or hotels it mentions; a story request is about its characters unless it
names a topic. The traits (``builder/traits``, tagged once by ``clean`` into the ``traits``
column) say exactly that, computed one way for every stage, so the head reads them as inputs
beside the vector: one number per trait, the share of the dialogue's turns where it holds. The
model's turns count too: an answer written in code says what was asked as well as the question
does. (Tried on the seed, bench/classify_seed.py: the user's turns only, whether a trait holds at
all, and the user's and the model's shares as two inputs; the share of all turns was as good as
the best of them with one input per trait.) People chatting with people (``peer_chat``) ask no
task of anyone: there the inputs are 0, as "top bowlers made twice as much as football stars"
reads as a word problem and "an episode where Bart does not appear" as a story.

Only traits about the *task* are inputs. ``peer_chat``, ``public_life`` and ``personal_affairs``
describe who is talking and how, which differs by source more than by topic: as inputs, they cost
the head trained without chitchat some of chitchat's dialogues (bench/classify_seed.py).
"""

from __future__ import annotations

import numpy as np

TASK_TRAITS = ("code", "long_paste", "fiction", "verse_request", "exercise", "coursework", "puzzle")


def trait_features(turns: list[dict], names: tuple[str, ...], traits=None) -> list[float]:
    """One dialogue's inputs: per trait, the share of its turns, the user's and the model's, where the
    trait holds (a trait of the whole dialogue: 1). ``traits``: the dialogue's ``Traits`` (from the
    ``traits`` column); tagged here when not given, with the same code."""
    from builder import traits as tagging

    turns = turns or []  # a row with no turns (null) has no traits, as it has no text
    found = traits if traits is not None else tagging.tag(turns)
    if not turns or found.has("peer_chat"):
        return [0.0] * len(names)  # people chatting with people ask no task of anyone
    return [sum(found.at(name, i) for i in range(len(turns))) / len(turns) if found.has(name) else 0.0
            for name in names]


def feature_matrix(dialogues: list[list[dict]], names: tuple[str, ...], traits: list | None = None) -> np.ndarray:
    """``trait_features`` of each dialogue, as an (n, len(names)) float32 array. ``traits``: each
    dialogue's ``traits`` column value (``None`` for a dialogue clean never tagged)."""
    from builder.traits import Traits

    rows = []
    for i, turns in enumerate(dialogues):
        column = traits[i] if traits is not None else None
        rows.append(trait_features(turns, names, Traits.from_column(column) if column is not None else None))
    return np.asarray(rows, dtype=np.float32).reshape(len(dialogues), len(names))


def recipe() -> str:
    """A digest of the trait detectors' source and of this module: a changed detector or feature
    changes what the head reads."""
    import hashlib
    from pathlib import Path

    import builder.traits as package

    digest = hashlib.sha256()
    for path in [*sorted(Path(package.__file__).parent.glob("*.py")), Path(__file__)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
