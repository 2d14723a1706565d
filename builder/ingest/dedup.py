"""Near-duplicate detection: MinHash over word shingles of the user turns, banded LSH.

Signatures are ``perms`` 32-bit values; LSH bands are chosen so candidates are found
a little below the threshold, then each candidate pair is confirmed by the estimated
Jaccard similarity (share of equal signature slots) >= threshold.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

PRIME = np.uint64((1 << 61) - 1)
MASK32 = np.uint64(0xFFFFFFFF)
WORD = re.compile(r"\w+", re.UNICODE)


def permutations(perms: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 1 << 32, size=perms, dtype=np.uint64)
    b = rng.integers(0, 1 << 32, size=perms, dtype=np.uint64)
    return a, b


def shingles(text: str, k: int) -> set[str]:
    words = WORD.findall(text.lower())
    if len(words) < k:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i:i + k]) for i in range(len(words) - k + 1)}


def signature(text: str, k: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    grams = shingles(text, k)
    if not grams:
        return np.full(a.shape, 0xFFFFFFFF, dtype=np.uint32)
    hv = np.fromiter(
        (int.from_bytes(hashlib.blake2b(g.encode(), digest_size=4).digest(), "little") for g in grams),
        dtype=np.uint64, count=len(grams),
    )
    # a < 2^32 and hv < 2^32, so a*hv + b < 2^64: no overflow before the modulus.
    phv = ((hv[:, None] * a[None, :] + b[None, :]) % PRIME) & MASK32
    return phv.min(axis=0).astype(np.uint32)


def choose_bands(perms: int, threshold: float) -> tuple[int, int]:
    """(bands, rows) whose LSH S-curve threshold (1/b)^(1/r) sits just under ``threshold - 0.1``.

    Candidates are found generously and confirmed exactly, so erring low only costs time.
    """
    best, best_gap = (perms, 1), float("inf")
    for rows in range(1, perms + 1):
        bands = perms // rows
        gap = threshold - 0.1 - (1 / bands) ** (1 / rows)
        if 0 <= gap < best_gap:
            best, best_gap = (bands, rows), gap
    return best


def near_duplicates(sigs: np.ndarray, threshold: float, max_compare: int = 64) -> dict[int, int]:
    """Map row j -> an earlier kept row i it near-duplicates (estimated Jaccard >= threshold).

    ``sigs`` is an (n, perms) uint32 matrix in the order that decides who is kept (the
    earlier row wins). Memory is the matrix plus one hash column per band: no per-row
    Python objects, so 100k dialogues cost ~30 MB here.
    """
    n, perms = sigs.shape
    if n < 2 or threshold > 1.0:
        return {}
    bands, rows = choose_bands(perms, threshold)
    coeffs = np.random.default_rng(7).integers(1, 1 << 63, size=rows, dtype=np.uint64) | np.uint64(1)
    pairs: set[tuple[int, int]] = set()
    for band in range(bands):
        block = sigs[:, band * rows:(band + 1) * rows].astype(np.uint64)
        keys = (block * coeffs).sum(axis=1)  # wraps mod 2^64: a hash, not arithmetic
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
        ends = np.r_[starts[1:], n]
        for s, e in zip(starts[ends - starts > 1], ends[ends - starts > 1]):
            members = np.sort(order[s:e])
            for pos in range(1, len(members)):
                for i in members[:min(pos, max_compare)]:
                    pairs.add((int(i), int(members[pos])))
    if not pairs:
        return {}
    cand = np.array(sorted(pairs, key=lambda p: (p[1], p[0])), dtype=np.int64)
    sims = (sigs[cand[:, 0]] == sigs[cand[:, 1]]).mean(axis=1)
    dup_of: dict[int, int] = {}
    for (i, j), sim in zip(cand.tolist(), sims.tolist()):
        if sim >= threshold and j not in dup_of and i not in dup_of:
            dup_of[j] = i
    return dup_of
