"""Precision rules for chat text, applied to Presidio's raw spans before anything is redacted.

spaCy's small English model calls many things a PERSON ("Hi", "Python", "Einstein"); a
name is redacted only with enough evidence. Public figures and places are not personal
data; numbers and short tokens are not names; a URL is personal only when it points at a
person or a private object (see ``_url`` for the policy), not at public material.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from spacy.lang.en.stop_words import STOP_WORDS as _STOP_WORDS

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
Brad Pitt|Meryl Streep|Oprah|Oprah Winfrey|Sam Altman|Linus Torvalds|Guido van Rossum|
Goku|Son Goku|Vegeta|Naruto|Sasuke|Luffy|Pikachu|Ash Ketchum|Zelda|Sonic|Shaggy|Scooby-Doo|Scooby|
Homer Simpson|Bart Simpson|Lisa Simpson|SpongeBob|Patrick Star|Shrek|Anna and Elsa|Simba|
Darth Vader|Luke Skywalker|Yoda|Han Solo|Hermione|Hermione Granger|Ron Weasley|Voldemort|Dumbledore|Snape|
Gollum|Aragorn|Legolas|Bilbo|Bilbo Baggins|Frodo Baggins|Sauron|Tony Stark|Iron Man|Captain America|Loki|
Hulk|Wonder Woman|Joker|Deadpool|Wolverine|Peter Parker|Bruce Wayne|Clark Kent|Sherlock|Dr. Watson|
James Bond|Indiana Jones|Rambo|Dracula|Frankenstein|Romeo and Juliet|Hamlet|Macbeth|Othello|Don Quixote|
Odysseus|Achilles|Hercules|Zeus|Apollo|Athena|Poseidon|Hades|Odin|Santa|Santa Claus|Moses|
Goliath|Virgin Mary|Allah|God|Lord Krishna|Vishnu|Ganesha|Gustav Vasa|Gustavus Adolphus|
Louis XIV|Henry VIII|Elizabeth II|Queen Victoria|Charlemagne|Tutankhamun|Ramses|Attila|Saladin|Nero|
Augustus|Constantine|Justinian|Peter the Great|Catherine the Great|Ivan the Terrible|Bismarck|Lenin|Trotsky|
Kim Jong Un|Modi|Narendra Modi|Zelensky|Volodymyr Zelensky|Erdogan|Netanyahu|Kamala Harris|Hillary Clinton|
Bill Clinton|Ronald Reagan|Reagan|JFK|John F. Kennedy|Kennedy|Thatcher|Margaret Thatcher|Boris Johnson|
Rishi Sunak|Justin Trudeau|Jacinda Ardern|Greta Thunberg|Malala|Mother Teresa|Dalai Lama|Pope Francis|
Kanye West|Kanye|Eminem|Snoop Dogg|Billie Eilish|Ed Sheeran|Justin Bieber|Ariana Grande|Selena Gomez|
Kim Kardashian|Keanu Reeves|Will Smith|Johnny Depp|Scarlett Johansson|Angelina Jolie|Morgan Freeman|
Dwayne Johnson|Tom Cruise|Harrison Ford|Robert Downey Jr.|Zendaya|Neymar|Kylian Mbappé|Mbappe|Pelé|Pele|Maradona|
Tiger Woods|Muhammad Ali|Mike Tyson|Kobe Bryant|Stephen King|George Orwell|Orwell|Mark Twain|Charles Dickens|
Dickens|Kafka|Franz Kafka|Nietzsche|Kant|Hegel|Descartes|Voltaire|Rousseau|Sartre|Camus|Dostoyevsky|Chekhov|
Pushkin|Goethe|Schiller|Dante Alighieri|Cervantes|Borges|Neruda|Tagore|Rumi|Lao Tzu|Sun Tzu|Hoare|Dijkstra|
Knuth|Donald Knuth|von Neumann|John von Neumann|Gauss|Euler|Fermat|Riemann|Fibonacci|Bayes|Laplace|Fourier|
Maxwell|Faraday|Edison|Thomas Edison|Bohr|Heisenberg|Schrodinger|Schrödinger|Feynman|Planck|Oppenheimer|
Mendel|Pasteur|Fleming|Hippocrates|Florence Nightingale|Jane Goodall|Carl Sagan|Neil Armstrong|Buzz Aldrin|
Yuri Gagarin|Chuck Norris|MacGyver|My Little Pony|Merkel|Neymar|Mr. Bean|Bruce Lee|Jackie Chan|Columbus|Christopher Columbus|Devil|the Devil|Satan|Lucifer|Magellan|Marco Polo|Vasco da Gama|Captain Cook
""".replace("\n", "").split("|") if n)

# Capitalised words the small model mistakes for names in chat (greetings, products, AIs).
# Sounds and particles people type between words: never a name, a vocative ("Uhm, well ...") or a town
# ("... Puerta 3 ok").
INTERJECTIONS = frozenset("um umm uhm uhmm uh uhh erm hm hmm mhm ahh ohh ugh meh welp yikes oops whoa ok okay lol lmao "
                          "haha pls plz thx ty".split())
NOT_NAMES = INTERJECTIONS | frozenset("""
i'm i’m i've i’ve i'd i’d i'll i’ll
hi hello hey thanks thank dear yes no please sure great cool wow bye cheers regards sorry
btw omg imo imho tbh idk fyi hahaha rofl nice yeah yep yup nope oh ah awesome
chatgpt gpt gpt-4 gpt-4o claude gemini bard llama copilot siri alexa cortana assistant user bot ai
python java javascript rust excel word powerpoint photoshop linux windows android iphone google
monday tuesday wednesday thursday friday saturday sunday january february march april may june july
august september october november december christmas easter
mate buddy bro bruh dude man guys guy everyone everybody all team folks friend friends pal sir madam maam boss
love dear honey babe darling world there gentlemen ladies kids sweetie mom dad mum mommy daddy grandma grandpa
chat gpt3 gpt-3 gpt-3.5 chatbot openai anthropic mistral dalle dall-e midjourney bing
instagram facebook twitter tiktok youtube whatsapp telegram reddit discord snapchat linkedin pinterest amazon
netflix spotify microsoft apple samsung huawei xiaomi nvidia intel adobe oracle ibm github gitlab wikipedia
minecraft roblox fortnite steam playstation xbox nintendo disney marvel pixar
english french spanish german italian chinese japanese korean russian arabic
doctor captain king queen prince princess lord lady master jedi sith
email e-mail name phone address subject
""".split()) | frozenset(_STOP_WORDS)

# Paths that name a person take any value (/in/anna-berg, /~anna); paths to a private object
# need a token after them (dropbox.com/s/a8Kz0Qp1..., but kb.vmware.com/s/article/79832 is public).
URL_PERSONAL_PATH = re.compile(
    r"/(~|@)|/(u|user|users|profile|profiles|people|member|members|account|accounts|me|home|id|in)/[^/?#]+", re.I
)
URL_OBJECT_PATH = re.compile(r"/(?:photos?|share|shared|s|d|file|files|invite|reset|verify|track|order|orders)"
                             r"/(?P<value>[^/?#]+)", re.I)
OBJECT_TOKEN = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{8,}")  # a8kz0qp1xw93bd7, not "article"
# A token or id: hex, or a long run mixing letters and digits ("a8Kz0Qp1..."); a slug of words
# ("zanmang-loopy-idle-tycoon") is not one.
URL_TOKENISH = re.compile(r"(?=[0-9a-f]*\d)[0-9a-f]{12,}|(?=[A-Za-z0-9_]*\d)(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{20,}|\d{6,}")
URL_PERSONAL_QUERY = re.compile(r"(email|mail|user|uid|token|key|session|sid|phone|name|id)=", re.I)


REGNAL = re.compile(r"\s+(?:[IVX]{1,5}|the\s+(?:great|elder|younger|first|second|third))\.?$", re.I)


def is_public(value: str) -> bool:
    """A well-known person or character ("Gustav III", "Goku"): mentioning them is not personal data."""
    norm = " ".join(value.lower().replace("’", "'").removesuffix("'s").split())
    if " " in norm and all(w in PUBLIC_FIGURES for w in norm.split()):
        return True  # "Neymar Messi": two public names side by side
    return (norm in PUBLIC_FIGURES or norm in _GAZETTEER[0]
            or bool(REGNAL.search(value) and value.split()[-1].upper() == value.split()[-1]))


_GAZETTEER: list[frozenset[str]] = [frozenset()]  # the user's list of public figures (gazetteer.py), once loaded


def use_public_figures(names: frozenset[str]) -> None:
    """Count the names of a user-given gazetteer (normalised, gazetteer.load) as public too."""
    _GAZETTEER[0] = names


def listed_public_names(text: str) -> list[str]:
    """The names of the user's gazetteer that ``text`` holds, whole (lower case)."""
    names = _GAZETTEER[0]
    if not names:
        return []
    words = re.findall(r"[\w'’.-]+", text.lower().replace("’", "'"))
    return [" ".join(words[i:i + n]) for n in (2, 3, 4) for i in range(len(words) - n + 1)
            if " ".join(words[i:i + n]) in names]


def judge_span(entity: str, value: str, score: float, threshold: float) -> str | None:
    """The name of the span rule that keeps a detected span (it is no personal data worth
    redacting), or None when it is to be redacted."""
    if score < threshold:
        return "below_threshold"
    if not any(c.isalnum() for c in value):
        return "no_letters_or_digits"
    rule = VALUE_RULES.get(entity)
    return rule[0] if rule and not rule[1](value) else None


def keep_span(entity: str, value: str, score: float, threshold: float) -> bool:
    """True when a detected span is personal data worth redacting."""
    return judge_span(entity, value, score, threshold) is None


# A PERSON span holding one of these words names an organisation or a place ("Beijing University")
ORG_WORDS = frozenset("""
university universität université universidad college institute institution school academy hospital clinic
company corporation corp inc ltd llc gmbh bank church cathedral temple mosque museum library ministry department
association society club league party council committee foundation agency authority airport station
""".split())
CONTRACTION = re.compile(r"^(?:i|you|he|she|it|we|they|that|there|here|what|who|let)['’](?:m|s|re|ve|ll|d)$", re.I)


def _person(value: str) -> bool:
    if CONTRACTION.match(value.strip()) or re.match(r"(?:the|The|THE|a|an)\s", value):
        return False  # "I’m", "the Elder Futhark", "The Dark Knight" (never "An Nguyen")
    if any(w.lower().strip(".,") in ORG_WORDS for w in value.split()):
        return False
    if re.sub(r"[\s\-]", "", value.lower()) in NOT_NAMES:
        return False  # "Chat GPT"
    letters = sum(c.isalpha() for c in value)
    caseless = all(c.lower() == c.upper() for c in value if c.isalpha())  # Han, kana, hangul: "王伟"
    if letters < 2 or any(c.isdigit() or c in ':"“”<>{}[]=/\\|@#' for c in value) or (
            len(value.strip()) < 3 and not caseless):
        return False
    norm = " ".join(value.lower().replace("’", "'").removesuffix("'s").split())
    if is_public(value) or norm in NOT_NAMES:
        return False
    words = [w for w in re.split(r"[\s\-]+", value) if w]
    if any(w.lower().strip(".,") in NOT_NAMES for w in words) and len(words) == 1:
        return False
    # at least one word that looks like a name: starts with a capital, not all caps shouting (or its
    # script has no capitals)
    return caseless or any(w[0].isupper() and not (w.isupper() and len(w) > 3) for w in words)


def _location(value: str) -> bool:
    return value.lower() not in PUBLIC_FIGURES and sum(c.isalpha() for c in value) >= 3


# Hosts that are one person's account: a Bluesky handle ("jess.bsky.social"), a Tumblr blog.
ACCOUNT_HOST = re.compile(r"^(?!www\.)[\w-]+(?:\.[\w-]+)*\.(?:bsky\.social|tumblr\.com)$", re.I)


def _url(value: str) -> bool:
    """The URL policy (the same decision wherever a URL appears, since found values are
    spread over the dialogue). A URL is redacted whole when it points at a person or a
    private object: its host is an IP address; its path names a profile, a user, a share,
    an invite, a reset or an order (``/in/anna-berg``, ``/~anna``, ``/@anna``, ``/s/...``);
    its host is one person's account (``jess.bsky.social``); its query carries personal keys (``email=``, ``name=``, ``uid=``, ``token=``...) or an
    id/token value; its path carries a token (a hex id, a long letters-and-digits run:
    private file links); or it holds a name found in the dialogue (redact.py). It stays when
    it is a bare domain or public material: articles, documentation, search pages, DOIs."""
    raw = value if "://" in value else f"http://{value}"
    try:
        parts = urlsplit(raw)
    except ValueError:
        return True
    host = parts.hostname or ""
    if _is_ip(host) or ACCOUNT_HOST.search(host):
        return True
    if not (parts.path + parts.query).strip("/"):
        return False
    if URL_PERSONAL_PATH.search(parts.path) or URL_PERSONAL_QUERY.search(parts.query):
        return True
    if any(OBJECT_TOKEN.fullmatch(m.group("value")) for m in URL_OBJECT_PATH.finditer(parts.path)):
        return True
    if URL_TOKENISH.search(parts.query):
        return True
    public = host.endswith(("doi.org", "arxiv.org")) or "/doi/" in parts.path
    path_token = URL_TOKENISH.search(re.sub(r"\d{6,}", "", parts.path))  # a bare number in a path is a page id
    return bool(path_token) and not public


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _ip(value: str) -> bool:
    """Loopback, unspecified, link-local and multicast addresses identify nobody; nor does a
    network (0.0.0.0/0, 10.0.0.0/8). Private addresses in code are dropped by the scanner
    (:func:`private_ip`): ``HOST = '192.168.1.1'`` is the same router in millions of homes."""
    try:
        net = ipaddress.ip_network(value.strip("[]"), strict=False)
    except ValueError:
        return True
    if net.num_addresses > 1:
        return False
    ip = net.network_address
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                              "fc00::/7"))


def private_ip(value: str) -> bool:
    """An RFC 1918 / unique-local address (10.x, 172.16-31.x, 192.168.x, fc00::/7)."""
    try:
        ip = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in PRIVATE_NETWORKS)


# example.com, user@test, name@localhost: reserved for examples (RFC 2606/6761), nobody's mailbox;
# john_doe@domain.co.uk, you@yourdomain.com: placeholders
EXAMPLE_DOMAIN = re.compile(r"@(?:[\w-]+\.)*(?:example|test|invalid|localhost|domain|yourdomain|mydomain|yoursite"
                            r"|yourcompany)(?:\.[a-z]{2,6}){0,2}$", re.I)


def _email(value: str) -> bool:
    return not EXAMPLE_DOMAIN.search(value.strip())


# Numbers that are nobody's by their issuer's rule: North American toll-free lines (800, 833-888) and
# the powers of two a programmer quotes (2^32 = 4294967296). Not the card numbers payment processors
# publish for testing (a record typed as one's own, "Card: 4111 1111 1111 1111", reads as a card to
# anyone who sees the release: the demo's sample plants one), nor Europe's 0800/0808 freephone lines (a
# generator of fake phones, like the chitchat canaries', writes a person's phone in that shape), nor the
# 555-0100 to 555-0199 lines kept for fiction (this project's fixtures and canaries plant them as
# somebody's phone): recall comes first.
TOLL_FREE = re.compile(r"1?8(?:00|33|44|55|66|77|88)\d{7}")


def _not_reserved(value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    return not (TOLL_FREE.fullmatch(digits)
                or len(digits) >= 7 and int(digits) & (int(digits) - 1) == 0)  # from 2^20 on: 65536 is also a ZIP


# Span rules judged on a value alone (the policy's dialogue rules come after: policy.py). Each
# entity's test says True for personal data; when it says False, the rule named here keeps the span.
VALUE_RULES = {"PERSON": ("not_a_name", _person), "LOCATION": ("too_short_for_a_place", _location),
               "PHONE_NUMBER": ("reserved_number", _not_reserved),
               "ID_NUMBER": ("reserved_number", _not_reserved), "ZIP_CODE": ("reserved_number", _not_reserved),
               "URL": ("public_url", _url), "IP_ADDRESS": ("non_routable_ip", _ip),
               "EMAIL_ADDRESS": ("example_email", _email)}
# Span rules of the detector itself (pii.py), by name, with why they hold.
SPAN_RULES = {
    "below_threshold": "the finder's score is under the entity's threshold",
    "no_letters_or_digits": "punctuation alone is nobody's data",
    "not_a_name": "a person span that is no name: a contraction, an organisation, a stop or chat word, a public figure",
    "too_short_for_a_place": "fewer than three letters, or a public figure's name",
    "public_url": "a domain or public material (articles, documentation, DOIs) points at nobody (see _url)",
    "non_routable_ip": "loopback, link-local, multicast and network addresses identify nobody",
    "example_email": "addresses at reserved or placeholder domains (example.com) are nobody's mailbox",
    "reserved_number": "North American toll-free lines and powers of two are nobody's number",
    "name_in_code": "identifiers in code and pasted tables are no names",
    "private_ip_in_code": "a LAN address in a program or a config is the same router in millions of homes",
    "phone_in_code_list": "a number among short codes is no phone",
    "identifier_in_code_list": "a long number among short codes (card bins, product codes) is one more code",
    "identifier_in_code": "a long number in a program, a log or a config is a constant or a key, not a person's id",
    "truecasing_typo": "a lower-case typo truecasing capitalised is no name",
    "entity_not_selected": "a finder reported an entity this run does not scrub (--entities)",
}
