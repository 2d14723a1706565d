"""Near-duplicate detection: MinHash over word shingles of the user turns, banded LSH.

Signatures are ``perms`` 32-bit values; LSH bands are chosen so candidates are found
a little below the threshold, then each candidate pair is confirmed by the estimated
Jaccard similarity (share of equal signature slots) >= threshold.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

PRIME = np.uint64((1 << 61) - 1)
MASK32 = np.uint64(0xFFFFFFFF)
WORD = re.compile(r"\w+", re.UNICODE)


def permutations(perms: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 1 << 32, size=perms, dtype=np.uint64)
    b = rng.integers(0, 1 << 32, size=perms, dtype=np.uint64)
    return a, b


_WORD_HASH: dict[str, int] = {}
_SHINGLE_MIX = (np.uint64(0x9E3779B1), np.uint64(0x85EBCA77), np.uint64(0xC2B2AE3D))


def _word_hashes(text: str) -> np.ndarray:
    words = WORD.findall(text.lower())
    if len(_WORD_HASH) > 1_000_000:  # bounded: a long tail of rare words must not grow memory
        _WORD_HASH.clear()
    cache = _WORD_HASH
    out = np.empty(len(words), dtype=np.uint64)
    for i, w in enumerate(words):
        h = cache.get(w)
        if h is None:
            h = cache[w] = zlib.crc32(w.encode())
        out[i] = h
    return out


def shingle_hashes(text: str, k: int) -> np.ndarray:
    """Unique 32-bit hashes of the word k-grams of ``text`` (lower-cased \\w+ words).

    A k-gram's hash mixes its words' crc32s with fixed odd multipliers, vectorised, so
    no per-shingle strings are built. Texts shorter than k words are one shingle.
    """
    w = _word_hashes(text)
    if len(w) == 0:
        return w
    k = min(k, len(w))
    h = np.zeros(len(w) - k + 1, dtype=np.uint64)
    for j in range(k):
        h = h * _SHINGLE_MIX[j % 3] + w[j:len(w) - k + 1 + j]  # wraps mod 2^64 by design
    return np.unique((h ^ (h >> np.uint64(32))) & MASK32)


def shingles(text: str, k: int) -> set[int]:
    return set(shingle_hashes(text, k).tolist())


def signature(text: str, k: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    hv = shingle_hashes(text, k)
    if len(hv) == 0:
        return np.full(a.shape, 0xFFFFFFFF, dtype=np.uint32)
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


def near_duplicates(sigs: np.ndarray, threshold: float, max_compare: int = 64) -> dict[int, tuple[int, float]]:
    """Map row j -> (an earlier kept row i it near-duplicates, their estimated Jaccard >= threshold).

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
    dup_of: dict[int, tuple[int, float]] = {}
    for (i, j), sim in zip(cand.tolist(), sims.tolist()):
        if sim >= threshold and j not in dup_of and i not in dup_of:
            dup_of[j] = (i, sim)
    return dup_of
