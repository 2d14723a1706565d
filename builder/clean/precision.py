"""Precision rules for chat text, applied to Presidio's raw spans before anything is redacted.

spaCy's small English model calls many things a PERSON ("Hi", "Python", "Einstein"); a
name is redacted only with enough evidence. Public figures and places are not personal
data; numbers and short tokens are not names; a URL is personal only when its path or
query points at a person (profiles, ids, tokens), not at public documentation.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

# Well-known people a chat is likely to discuss; mentioning them discloses nothing personal.
PUBLIC_FIGURES = frozenset(n.lower() for n in """
Einstein|Albert Einstein|Newton|Isaac Newton|Darwin|Charles Darwin|Shakespeare|William Shakespeare|Mozart|
Beethoven|Bach|Picasso|Van Gogh|Vincent van Gogh|Leonardo|Leonardo da Vinci|Da Vinci|Michelangelo|Napoleon|
Napoleon Bonaparte|Julius Caesar|Caesar|Cleopatra|Aristotle|Plato|Socrates|Confucius|Gandhi|Mahatma Gandhi|
Nelson Mandela|Mandela|Martin Luther King|Abraham Lincoln|Lincoln|George Washington|Washington|
Winston Churchill|Churchill|Barack Obama|Obama|Donald Trump|Trump|Joe Biden|Biden|Elon Musk|Musk|Bill Gates|
Steve Jobs|Mark Zuckerberg|Jeff Bezos|Taylor Swift|Beyonce|Beyoncé|Michael Jackson|Elvis|Elvis Presley|
The Beatles|John Lennon|Paul McCartney|Freddie Mercury|Bob Dylan|Madonna|Lady Gaga|Rihanna|Drake|Adele|
Messi|Lionel Messi|Ronaldo|Cristiano Ronaldo|Michael Jordan|LeBron James|Serena Williams|Roger Federer|
Usain Bolt|Marie Curie|Curie|Nikola Tesla|Tesla|Alan Turing|Turing|Ada Lovelace|Stephen Hawking|Hawking|
Sigmund Freud|Freud|Karl Marx|Marx|Adam Smith|Keynes|John Maynard Keynes|Jesus|Buddha|Muhammad|Harry Potter|
Sherlock Holmes|Frodo|Gandalf|Batman|Superman|Spider-Man|Mickey Mouse|Queen Elizabeth|King Charles|
Vladimir Putin|Putin|Xi Jinping|Angela Merkel|Emmanuel Macron|Tolkien|J.R.R. Tolkien|J.K. Rowling|Rowling|
Hemingway|Ernest Hemingway|Jane Austen|Tolstoy|Leo Tolstoy|Dostoevsky|Homer|Dante|Galileo|Copernicus|
Kepler|Pythagoras|Euclid|Archimedes|Hitler|Adolf Hitler|Stalin|Mao|Mao Zedong|Lenin|Genghis Khan|
Alexander the Great|Frida Kahlo|Monet|Claude Monet|Rembrandt|Dali|Salvador Dali|Warhol|Andy Warhol|
Spielberg|Steven Spielberg|Tarantino|Quentin Tarantino|Christopher Nolan|Tom Hanks|Leonardo DiCaprio|
Brad Pitt|Meryl Streep|Oprah|Oprah Winfrey|Sam Altman|Linus Torvalds|Guido van Rossum
""".replace("\n", "").split("|") if n)

# Capitalised words the small model mistakes for names in chat (greetings, products, AIs).
NOT_NAMES = frozenset("""
hi hello hey thanks thank dear ok okay yes no please sure great cool wow lol bye cheers regards sorry
chatgpt gpt gpt-4 gpt-4o claude gemini bard llama copilot siri alexa cortana assistant user bot ai
python java javascript rust excel word powerpoint photoshop linux windows android iphone google
monday tuesday wednesday thursday friday saturday sunday january february march april may june july
august september october november december christmas easter
""".split())

URL_PERSONAL_PATH = re.compile(
    r"/(~|@)|/(u|user|users|profile|profiles|people|member|members|account|accounts|me|home|id|in|"
    r"photos?|share|shared|s|d|file|files|invite|reset|verify|track|order|orders)/[^/?#]+", re.I
)
URL_TOKENISH = re.compile(r"[0-9a-f]{12,}|[A-Za-z0-9_-]{20,}|\d{6,}")
URL_PERSONAL_QUERY = re.compile(r"(email|mail|user|uid|token|key|session|sid|phone|name|id)=", re.I)


def keep_span(entity: str, value: str, score: float, threshold: float) -> bool:
    """True when a detected span is personal data worth redacting."""
    if score < threshold or not any(c.isalnum() for c in value):
        return False
    rule = RULES.get(entity)
    return rule(value) if rule else True


def _person(value: str) -> bool:
    letters = sum(c.isalpha() for c in value)
    if letters < 2 or any(c.isdigit() for c in value) or len(value.strip()) < 3:
        return False
    norm = " ".join(value.lower().replace("’", "'").removesuffix("'s").split())
    if norm in PUBLIC_FIGURES or norm in NOT_NAMES:
        return False
    words = [w for w in re.split(r"[\s\-]+", value) if w]
    if any(w.lower().strip(".,") in NOT_NAMES for w in words) and len(words) == 1:
        return False
    # at least one word that looks like a name: starts with a capital, not all caps shouting
    return any(w[0].isupper() and not (w.isupper() and len(w) > 3) for w in words)


def _location(value: str) -> bool:
    return value.lower() not in PUBLIC_FIGURES and sum(c.isalpha() for c in value) >= 3


def _url(value: str) -> bool:
    """Personal when the path/query points at a person or carries an id/token; bare domains are not."""
    raw = value if "://" in value else f"http://{value}"
    try:
        parts = urlsplit(raw)
    except ValueError:
        return True
    host = parts.hostname or ""
    if _is_ip(host):
        return True
    path_q = parts.path + ("?" + parts.query if parts.query else "")
    if not path_q.strip("/"):
        return False
    return bool(URL_PERSONAL_PATH.search(parts.path) or URL_PERSONAL_QUERY.search(parts.query)
                or URL_TOKENISH.search(path_q))


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _ip(value: str) -> bool:
    """Loopback, unspecified and documentation addresses identify nobody."""
    try:
        ip = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        return True
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


RULES = {"PERSON": _person, "LOCATION": _location, "URL": _url, "IP_ADDRESS": _ip}
