"""What each topic is, in words: prototype sentences the head reads beside a dialogue's vector.

A head trained on a few hundred labelled dialogues learns the labels *and* the sources they came
from (chitchat's students, WildChat's coding requests): out of its sources it falls back to the
style it knows. The embedder, though, already places "a conversation about cooking and recipes"
near any conversation about food, whoever wrote it. So the head gets, beside the dialogue vector,
its cosine similarity to one description per class (the 14 MMRC topics and Other), scaled by
``prototype_weight``: a zero-shot signal no source can bias, which the training may lean on or not.

The descriptions restate the labelling conventions of ``seed_real/README.md`` ("Rules for
ambiguous cases"); they were written once from those rules, not fitted to the labelled dialogues.
Measured (bench/classify_seed.py): the similarities alone put 0.67 of the seed's topical dialogues
in the right topic with no training at all.
"""

from __future__ import annotations

import numpy as np

from builder.records import OTHER, TOPICS

DESCRIPTIONS: dict[str, str] = {
    "Travel": "A conversation about travel: trips, vacations, flights, hotels, visiting countries and cities, "
              "tourism, sightseeing and planning an itinerary.",
    "Music": "A conversation about music: songs, bands, singers, albums, concerts, lyrics, musical instruments "
             "and genres.",
    "Film": "A conversation about films and TV: movies, series, cartoons, actors, directors, plots and streaming "
            "shows.",
    "Sport": "A conversation about sport: football, basketball, teams, players, matches, leagues, athletes, "
             "exercise and fitness.",
    "Game": "A conversation about games: video games, consoles, gamers, board games, card games, chess and "
            "tabletop role-playing rules.",
    "House": "A conversation about the home: houses and apartments, renting, rooms, furniture, decorating, "
             "cleaning, chores, gardening, repairs and moving house.",
    "Food": "A conversation about food: cooking, recipes, dishes, restaurants, eating, baking, ingredients and "
            "drinks.",
    "Shopping": "A conversation about shopping: buying and choosing products, stores, prices, brands, deals, "
                "online orders, clothes and gadgets to buy, and selling goods.",
    "History": "A conversation about history: past events, wars, empires, ancient civilisations, historical "
               "figures, dynasties and centuries.",
    "Economy": "A conversation about the economy and business: finance, money, markets, investing, companies, "
               "marketing, startups, banks and trade.",
    "Biology": "A conversation about biology and health: living things, animals, plants, the human body, "
               "medicine, diseases, genetics and nutrition science.",
    "Computer": "A conversation about computers: programming, software, code, websites, apps, the internet, AI, "
                "hardware and technology.",
    "Society": "A conversation about society: politics, government, law, religion, culture, education, social "
               "issues, relationships and dating.",
    "Job Career": "A conversation about jobs and careers: work, CVs, job interviews, employers, colleagues, "
                  "promotions, workplace e-mails and applying to study programmes.",
    OTHER: "A conversation about something else: maths, physics, a story or role-play, a poem, grammar, "
           "philosophy, a riddle, or chatting with the assistant itself.",
}
CLASSES = (*TOPICS, OTHER)  # one prototype per class, always all 15, in this order
assert tuple(DESCRIPTIONS) == CLASSES, "one description per MMRC topic, then Other, in records.TOPICS order"


def prototype_vectors(embedder, text_config) -> np.ndarray:
    """The descriptions' vectors (15 x dim, L2-normalised), embedded like a dialogue's text."""
    vectors = embedder.embed_texts([DESCRIPTIONS[c] for c in CLASSES], text_config).vectors
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
