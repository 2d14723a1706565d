"""What kind of thing a capitalised word usually names, read from the NER model's word vectors.

en_core_web_md ships word vectors: a word's neighbours say whether it is mostly used as a
person's name, a place or a product ("Ubuntu", "Nvidia" sit beside "Windows" and "Python";
"Siobhan" beside "Mary"). A name NER has never seen is out of vocabulary or in a shared rare-word
bucket, and is never called a product. Used to keep products out of names found by grammar alone
(names.first_person_names); prototypes are a handful of common words of each kind.
"""

from __future__ import annotations

import functools

PROTOTYPES = {
    "person": "John Mary David Sarah Michael Anna Ahmed Priya Carlos Olga".split(),
    "place": "London Paris Texas Berlin Tokyo Ohio Kenya Brazil Chicago Moscow".split(),
    "product": "Windows Linux Python Excel Photoshop Android iPhone Chrome Java Google".split(),
}
PRODUCT_MIN = 0.15  # below this the word is near nothing in particular

WHY = "a word whose usage sits with software, devices and brands names a product, not a person"
EXAMPLES = (("Ubuntu", "product"), ("Nvidia", "product"), ("Siobhan", "person"), ("Tampere", "place"))


@functools.cache
def _prototypes():
    import numpy as np

    from builder.clean.recognizers import load_ner

    vocab = load_ner().vocab
    out = {}
    for kind, words in PROTOTYPES.items():
        vectors = [vocab[w].vector for w in words if vocab[w].has_vector]
        mean = np.mean(vectors, axis=0)
        out[kind] = mean / np.linalg.norm(mean)
    return vocab, out


def kind_of(word: str) -> str | None:
    """``person``, ``place`` or ``product`` (the nearest prototype), or None without a vector."""
    import numpy as np

    vocab, prototypes = _prototypes()
    lexeme = vocab[word]
    if not lexeme.has_vector:
        return None
    vector = lexeme.vector / (np.linalg.norm(lexeme.vector) or 1.0)
    scores = {kind: float(vector @ p) for kind, p in prototypes.items()}
    kind = max(scores, key=scores.__getitem__)
    return None if kind == "product" and scores[kind] < PRODUCT_MIN else kind


def product(word: str) -> bool:
    return kind_of(word) == "product"
