"""Street addresses as people write them, in many countries' orders, and the rest of the block.

A street is found in one of four forms, each needing its own evidence:

- number first, type word last: ``42 Willow Lane``, ``1432 Gemsbok St`` (English; the name
  words must look like a name: not a unit of measure or time, not stop words, so "45 minute
  drive" and "the 1940s as a way" are not streets);
- a type word first: ``44 Rue Abderrahmen Ziad``, ``Via Capo le Case 143``, ``ul. Zuchów 65``
  (a number before or after is required);
- the name first, the number after, with a street-type ending: ``Puruntie 82``,
  ``Simavikveien 231``, ``Király u. 23.``; without such an ending only when the next line of
  the address (a unit or a postal code) follows: ``Gralla 30 Suite 617``;
- military and post-office boxes: ``PSC 4926, Box 7979 APO AA 63682``, ``USS Dam FPO AE 94560``,
  ``P.O. Box 108``.

Once a street is found, the address around it is personal too: building numbers written
before it, the unit, the town, state or country and the postal code that follow it (up to a
blank line). Case matters in mixed-case text (the name words are capitalised); an all
lower-case message is read case-insensitively.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from spacy.lang.en.stop_words import STOP_WORDS as _STOP_WORDS

from builder.clean.alternation import by_first_letter, gate
from builder.clean.numbers import AU_STATES
from builder.clean.precision import INTERJECTIONS

L = r"[^\W\d_]"  # a letter in any script
# Words no street name holds: a street's name stops before them ("241 rue des Lilas and my zip is ...")
NOT_IN_NAME_WORDS = frozenset("""my your his her our their is are was were am be and or but so if please thanks thank it i
we you he she they zip postcode phone email call number live lives living near next with for from""".split())
NOT_IN_NAME = r"(?!(?:" + by_first_letter("|".join(sorted(NOT_IN_NAME_WORDS))) + r")\b)"  # (tried at every word: alternation.py)
NOT_PLACE_WORDS = NOT_IN_NAME_WORDS | INTERJECTIONS  # no town in an address block ("Uhm, well ...")
NAME_WORD = rf"(?:{NOT_IN_NAME}{L}[\w'’.\-]*|\d{{1,4}}(?:st|nd|rd|th)\b)"
EN_TYPES = (
    "street|st|avenue|ave|av|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|ter|close|crescent"
    "|cres|square|sq|parkway|pkwy|highway|hwy|loop|mall|isle|trail|trl|circle|cir|row|walk|alley|heights|hts|hill|tce"
    "|point|ridge|run|path|pike|plaza|gardens|grove|green|mews|quay|wharf|vale|view|bypass|causeway|crossing"
    "|expressway|freeway|junction|manor|meadows?|mount|oval|pass|rise|shores?|spur|summit|turnpike|villas?|wells"
    "|cove|creek|crest|estates?|falls|ferry|fields?|ford|forest|fork|fort|gateway|glen|harbou?r|haven|hollow|island"
    "|knoll|lakes?|landing|mills?|motorway|orchard|pines|plains|prairie|ranch|rapids|river|springs?|stream|trace"
    "|track|tunnel|valley|viaduct|vista|broadway|embankment|parade|esplanade|promenade|avenida|str|lawn|crt")
# The rest of the USPS street suffixes (Publication 28, appendix C1): real streets are named
# "Kim Oval", "Gonzalez Trafficway", "Brown Station". In the singular they end a street as the
# common ones do; the plurals are also counts of things ("10 National Parks", "3 Key Points"), so a
# street ending in one needs its address around it: a cue before ("I live at") or a unit or code after.
USPS_TYPES = (
    "branch|bridge|brook|burg|camp|canyon|cape|center|centre|club|common|corner|course|crossroad|curve|dale|dam"
    "|divide|extension|flat|forge|garden|inlet|key|light|loaf|lock|lodge|mission|mountain|neck|overpass|park"
    "|passage|pine|plain|port|radial|ramp|rapid|rest|route|rue|shoal|skyway|station|stravenue|throughway"
    "|trafficway|underpass|union|village|ville|wall|well")
WEAK_TYPES = (
    "bridges|brooks|burgs|camps|centers|circles|cliffs|commons|corners|courts|coves|crossroads|drives|extensions"
    "|fords|forges|forks|gardens|glens|greens|groves|harbou?rs|hills|islands|isles|junctions|keys|knolls|lights"
    "|locks|manors|mountains|parks|parkways|pines|plains|points|ports|ridges|roads|shoals|squares|streets|unions"
    "|valleys|views|villages|walks|ways"
    # Australia's and New Zealand's road types (Australia Post, AS 4590): most are English words, so a
    # cue or a code around them ("I live at 7 Griffith End", "6/170 Reynolds Wade")
    "|access|alleyway|amble|anchorage|approach|arcade|artery|basin|beach|bend|brace|brae|brow|byway|centreway"
    "|chase|circlet|circuit|circus|colonnade|concourse|copse|courtyard|cross|crossway|cruiseway|cutting|dell"
    "|deviation|dip|distributor|driveway|edge|elbow|end|entrance|fairway|firetrail|footway|foreshore|frontage"
    "|gap|gate|gates|glade|grange|gully|highroad|interchange|laneway|lees|link|lookout|meander|mew|nook"
    "|outlook|parklands|pathway|plateau|pocket|quad|quadrangle|quadrant|quays|ramble|reach|reserve|retreat"
    "|ridgeway|riverway|riviera|roadway|ronde|rotary|siding|slope|strand|subway|tarn|thoroughfare|tollway"
    "|tor|towers|wade|walkway|wynd")
# Words that follow a number without naming a street ("45 minute drive", "3 lane road").
NOT_STREET_WORDS = frozenset("""
minute minutes min mins hour hours hr hrs second seconds day days week weeks month months year years yr
mile miles km kilometer kilometre meter metre meters metres foot feet ft inch inches yard yards mph kmh
times time percent per lane lanes way ways step steps point points people person persons car cars
the a an and or of to in on at for as by with from is are was be it this that my your our their
""".split())
PREFIX_TYPES = (
    r"rue|place|avenue|av|avda|avenida|calle|c/|carrer|ctra|carretera|camino|paseo|plaza|pza|via|viale|vicolo|piazza"
    r"|corso|cours|largo|rua|r|travessa|tv|praça|pça|alameda|estrada|rodovia|quai|boulevard|bd|bld|chemin|allée|impasse"
    r"|route|ul|ulica|al|aleja|pl|plac|os|osiedle|strada|calea|bulevardul|str|ulitsa|ул|улица|пр|проспект|пер"
    r"|переулок|οδός|λεωφόρος|sokak|cadde|caddesi|jalan|jl|rambla|ronda|passeig|via|v\.le|p\.za|tr|stra[ßs]e"
    # Italian, Spanish, Mexican and Brazilian types beyond the common ones ("Contrada Danilo, 77",
    # "Glorieta Ana 3", "Recanto Gabrielly Viana, 81")
    r"|borgo|canale|contrada|incrocio|rotonda|stretto|callej[oó]n|cañada|cuesta|glorieta|pasaje|urbanizaci[oó]n"
    r"|acceso|calzada|cerrada|privada|prolongaci[oó]n|andador|circuito|retorno|perif[eé]rico|ch[aá]cara"
    r"|col[oô]nia|colonia|condom[ií]nio|conjunto|fazenda|jardim|ladeira|parque|quadra|recanto|residencial|setor"
    r"|s[ií]tio|trecho|vila|viela|vereda|morro|praia|lagoa")
NAME_FIRST_ENDINGS = (
    r"tie|katu|kuja|polku|kaari|rinne|ranta|väylä|vej|gade|gyde|stræde|vænget|allé|alle|veien|vegen|vei|vegur"
    r"|vägen|väg|gatan|gata|gaten|gränd|stigen|backen|torget|weg|straat|laan|plein|steeg|gracht|kade|singel|dreef"
    r"|strasse|straße|str|gasse|platz|allee|ufer|damm|steig|pfad|chaussee|stræti|braut|sletta|bakken|svingen|stien"
    r"|haugen|åsen|utca|útja|ulice|ulica|třída|náměstí|ská|sokak|sokağı|caddesi|bulvarı|baan|dijk"
    r"|road|street|avenue|lane|drive|way")
# Short type words that must stand alone ("Király u. 23", "Andrássy út 12", "Gül sk. 5"):
# as word endings they would make "Ubuntu 22" and "Writing task 2" streets.
NAME_FIRST_WORDS = r"u\.|út|sk\.|cad\.|nám\."
UNIT_WORDS = r"apt|apartment|suite|ste|unit|flat|room|rm"
UNIT = rf"(?:{UNIT_WORDS}|#)\.?[ \t]*#?[ \t]*\d{{1,5}}[a-z]?\b"
# Alone, without a street: only the words that mean a home ("Apt 4B"), never "Unit 4" of a
# textbook or "Room 12" of a school.
LONE_UNIT = re.compile(r"(?:apt|apartment|suite|ste)\b", re.I)
UNIT_WORD = re.compile(r"(?:apt|apartment|suite|ste|unit|flat|room|rm|floor|level|building|block)\b\.?\s*#?\s*\d", re.I)
# the longer shapes first: "7320 AB" (Dutch) is one code, not "7320" and a word
POSTAL = r"(?:\d{4}\s?[A-Z]{2}(?![a-z])|\d{5}-\d{3}|\d{5}(?:-\d{4})?|\d{3}-\d{4}|\d{4,6}|\d{3}\s\d{2}|\d{2}-\d{3}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})"
# The house number's own label, as many countries write it after the street's name: "Atatürk Caddesi
# No: 15", "Hauptstraße Nr. 12", "Calle Mayor Nº 5", "Rua Augusta n° 100".
NUMBER_LABEL = r"(?:no|nr|n[º°]|núm|número|numer)\.?[ \t]*:?[ \t]*(?=\d)"
NUM = r"\d{1,5}[a-zA-Z]?(?:/\d{1,4}[a-zA-Z]?)?(?![\w/])"  # "47/7": house and flat
COMPASS_POINTS = "n|s|e|w|ne|nw|se|sw"  # before a grid city's street: "221 w 34th", "1214 s wabash"
COMPASS_WORDS = f"{COMPASS_POINTS}|north|south|east|west"
# A word of a street's name stands alone: the letter of a house number ("12a", "35b") is no word of it
# (read as one, "Hauptstraße 12a" held the stop word "a" and was no street).
_NAME_WORD_ALONE = re.compile(rf"(?<!\d){NAME_WORD}")
_NUMBER_LABEL = re.compile(rf"(?<!\w)(?:{NUMBER_LABEL})", re.I)


def name_words(value: str) -> list[str]:
    """The words of a street's name in ``value``: not a house number's letter, nor its label ("No: 15")."""
    return _NAME_WORD_ALONE.findall(_NUMBER_LABEL.sub(" ", value))


# "Flat 9, 307 Cranbrook Road", "102/8 Bay Street" and "1203-88 Harbour St" (a unit, then the house)
# (the unit form right before the name only: "(212) 555-0187, 42 Willow Lane" is a phone, then a street)
LEAD = (rf"(?:{UNIT},?\s+)?(?:\d{{1,5}}[a-zA-Z]?,?\s+)?"
        rf"(?:(?:(?:unit|apt|flat|suite|ste)\.?[ \t]*)?(?!24/7\b)\d{{1,5}}[a-zA-Z]?[/-]\d{{1,5}}[a-zA-Z]?\s+"
        rf"|\d{{1,5}}[a-zA-Z]?,?\s+)")  # not "24/7"; "Unit 4/12 Smith St": the unit's word with it
CUE = re.compile(r"\b(?:address|live[sd]?|living|located|ship(?:ped|ping)?\s+to|deliver(?:ed|y)?\s+to|send\s+it\s+to"
                 r"|moved?\s+to|meet\s+(?:\w+\s+)?at|stay(?:ing)?\s+at|visit\s+us\s+at|office\s+(?:is\s+)?at"
                 r"|located\s+at|come\s+to|(?:new|my|our|his|her|their|(?!(?:it|that|what|there|here|who|he|she|let)['’]s)(?-i:[A-Z])\w*['’]s)\s+"
                 r"(?:place|house|home(?!\s+to\b)|flat|apartment|apt|condo))\b"
                 r"[^.\n]{0,20}$", re.I)

# A street named without its number is still the user's home when they say they live, moved or
# stay there: "we moved to Birchwood Drive", "I'm at Harbour View Crescent", "my street, Maple Avenue".
# With "on" any home does ("the house on Elm Street"); with "at", "to" or "in" only the user's or
# their people's ("we moved to", "my mum lives in"): a story's "dropped off home at Chamomile
# Valley" is no one's address.
PLOT_PARTS = "sector|block|phase|lane"  # "Plot 87, Sector 5"
HOME_VERBS = r"live|lives|lived|living|grew\s+up|moved|moving|move|relocated|staying|stay|stays|reside|resides|residing"
HOME_NOUNS = r"house|home|flat|apartment|condo"
FIRST_PERSON = r"i|we|i've|we've|i'd|we'd|my\s+\w+|our\s+\w+"
HERE = r"we're|we\s+are|i'm|i\s+am"  # "I'm at Harbour View Crescent" (not "I'm in Wall Street")
STREET_FORMS = (
    ("number_first", rf"{LEAD}(?P<name>(?:{NAME_WORD}\s+){{1,4}})(?:{EN_TYPES}|{USPS_TYPES})\b\.?", 0.6),
    # the grid of Colombian (and Venezuelan) towns: the street's type and number, then the crossing street's number
    # and the distance along it ("Carrera 7 # 45-12", "Cl. 10 Sur # 23-08", "Diagonal 74 No. 11-20")
    ("grid", r"\b(?:calle|cl|carrera|cra|kr|cr|transversal|tv|diagonal|dg|avenida|av|circular|cq)\.?[ \t]+\d{1,3}[ \t]?[a-z]?"
             r"(?:[ \t]+(?:bis|sur|norte|este|oeste))?[ \t]*(?:#|no\.?|n[º°])[ \t]*\d{1,3}[ \t]?[a-z]?[ \t]*-[ \t]*\d{2,3}\b", 0.6),
    # Korea's road names, number first as they are written in English: "123 Teheran-ro", "45 Sejong-daero 12-gil"
    ("number_first_road", rf"{LEAD}(?:{NAME_WORD}\s+){{0,2}}{L}[^\W\d_]*-(?:ro|daero|gil)(?:\s+\d{{1,3}}(?:beon)?-gil)?", 0.6),
    ("number_first_weak", rf"{LEAD}(?P<name>(?:{NAME_WORD}\s+){{1,3}})(?:{WEAK_TYPES})\b\.?", 0.6),
    # no house number, but a home on it: "we live on Elm Street", "i live on maple drive"
    ("lives_on", rf"(?:\b(?:live|lives|lived|living|grew\s+up|{HOME_NOUNS})\s+on|\b(?:{FIRST_PERSON})\s+(?:\w+\s+){{0,2}}?"
                 rf"(?:{HOME_VERBS})\s+(?:on|at|to|in)|\b(?:{HERE})\s+(?:on|at)"
                 rf"|\b(?:my|our)\s+(?:street|road|address)\s*(?:is\b|:|,)?)\s+(?:the\s+)?"
                 rf"(?P<street>(?P<name>(?:{NAME_WORD}\s+){{1,3}})(?:{EN_TYPES})\b\.?)", 0.6),
    ("type_first", rf"(?:{LEAD})?(?:{PREFIX_TYPES})\.?\s+(?:{NAME_WORD}\s+){{0,4}}{NAME_WORD}(?:,?\s+(?:{NUMBER_LABEL})?{NUM}\.?)?", 0.6),
    ("name_first", rf"(?:{LEAD})?(?:{NAME_WORD}\s+){{0,3}}(?:{L}*(?:{NAME_FIRST_ENDINGS})\.?|{NAME_WORD}\s+"
                   rf"(?:{NAME_FIRST_WORDS}))(?!\w),?\s+(?:{NUMBER_LABEL})?{NUM}\.?", 0.6),
    ("number_name_unit", rf"{LEAD}(?:{NAME_WORD}\s+){{0,3}}{NAME_WORD},?\s*\n?[\s>]*{UNIT}", 0.6),
    ("corner", rf"\bthe\s+corner\s+of\s+[^\n]{{3,60}}?\s+and\s+(?:{NAME_WORD}\s+){{1,3}}(?:{EN_TYPES})\b\.?", 0.6),
    ("name_number_unit", rf"(?:{LEAD})?(?:{NAME_WORD}\s+){{0,3}}{NAME_WORD}\s+{NUM},?\s*\n?[\s>]*{UNIT}", 0.6),
    ("name_number", rf"(?:{LEAD})?(?:{NAME_WORD}\s+){{0,3}}{NAME_WORD}\s+{NUM}\.?", 0.6),
    # a ship's name is an address only with its FPO line ("USS Enterprise" alone is the ship)
    ("military", r"(?:PSC|CMR|Unit)\s+\d{3,5},?\s+Box\s+\d{2,5}(?:,?\s*\n?\s*[AFD]PO\s+A[AEP](?:\s+\d{5})?)?"
                 r"|(?:(?:USS|USNS|USNV|USCGC|USCG)\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?,?\s*\n?\s*)?"
                 r"\b[AFD]PO\s+A[AEP]\s+\d{5}", 0.7),
    # South Asian plots and sectors ("Plot 87, Sector 5", "House No. 12, Block C")
    ("plot", rf"\b(?:plot|house|h)\.?\s*(?:no\.?|#)?\s*\d{{1,5}}[a-z]?,?\s+(?:{PLOT_PARTS})\s*(?:no\.?)?\s*\w{{1,4}}\b",
     0.6),
    ("po_box", rf"(?:{LEAD})?\bP\.?\s?O\.?\s+Box\s+\d{{1,6}}", 0.6),
    # Singapore's public housing: "Blk 131 Tampines St 25 #07-30" (block, street and its number, floor-unit)
    ("block", rf"\b(?:blk|block)\.?[ \t]*\d{{1,4}}[a-z]?[ \t]+(?:{NAME_WORD}[ \t]+){{1,3}}(?:{EN_TYPES}|ring|cres)\b\.?"
              r"(?:[ \t]+\d{1,3}[a-z]?)?(?:,?[ \t]*#\d{1,3}-\d{1,5}[a-z]?)?", 0.6),
    # a numbered street after a compass point, its type left out: "221 w 34th", "3100 nw 57th st"
    # (a one-digit house number only with the type: "3 w 5th place" is a ranking)
    ("ordinal", rf"{LEAD}(?:{COMPASS_WORDS})\.?\s+\d{{1,3}}(?:st|nd|rd|th)\s+(?:{EN_TYPES})\b\.?"
                rf"|\d{{2,5}}[a-z]?\s+(?:{COMPASS_WORDS})\.?\s+\d{{1,3}}(?:st|nd|rd|th)\b", 0.6),
    # Japanese block numbers before the district: "2-14-3 Nishi-Shinjuku", "1-22-8 jingumae"
    ("chome", r"\b\d{1,2}-\d{1,2}-\d{1,3}\s+(?-i:[A-Z])[\w'’]*(?:-[\w'’]+)?", 0.6),
    ("unit", rf"\b{UNIT}", 0.5),
)
_COMPILED = [(name, re.compile(rf"(?<![\w'’-]){regex}(?!\w)", re.I), score) for name, regex, score in STREET_FORMS]
STOP_IN_NAMES = (NOT_STREET_WORDS | _STOP_WORDS) - {"the", "of", "and", "via", "do", "da", "de", "la", "le", "du"}
PLACE_WORD = rf"(?:{L}[\w'’.\-]*|\(\w+\))"
PLACE_SEP = r"[ \t]*(?:\n[ \t>]*,|,[ \t]*\n?|\n)[ \t>]*|[ \t]+"
# After the street, a flat or floor as other languages write it: "apto 42", "2º Esq.", "bât. C"
FOREIGN_UNIT = (r"(?:apto|ap|dpto|depto|piso|puerta|pta|escalera|esc|apartamento|appartamento|interno|int|scala|piano"
                r"|bloco|andar|wohnung|whg|etage|étage)\.?[ \t]*\d{1,5}[a-z]?\b"  # "Puerta 3", "Appartamento 17", "Piano 1"
                r"|\d{1,2}[ºª°][ \t]*(?:[a-z]{1,5}\.?)?|bât\.?[ \t]*[a-z0-9]\b")
# A floor or a flat written before the street and set off by a comma, as many countries write it: "3rd
# floor, 45 Ogunlana Drive", "2º andar, Rua da Boavista 112", "apto 42, Rua Augusta 100" (the English
# unit words without a comma are the forms' own LEAD: "Flat 9, 307 Cranbrook Road").
UNIT_BEFORE = re.compile(rf"(?<![\w-])(?:\d{{1,2}}(?:st|nd|rd|th)[ \t]+(?:floor|fl\.?)|{FOREIGN_UNIT}),[ \t]*\Z", re.I)
EXT_UNIT = re.compile(rf"(?:{PLACE_SEP})?(?:{UNIT}|{FOREIGN_UNIT})", re.I)
EXT_POSTAL = re.compile(rf"(?:{PLACE_SEP})(?!(?:19|20)\d\d(?![\w-]))\b{POSTAL}(?![\w-])")
# "...\n\n Mexico 52199": a country and code after one blank line still close the block
EXT_LAST_LINE = re.compile(rf"[ \t]*\n[ \t>]*\n[ \t>]*{PLACE_WORD}(?:[ \t-]+{PLACE_WORD}){{0,5}}[ \t]+{POSTAL}(?![\w-])")
EXT_PLACE = re.compile(rf"(?:{PLACE_SEP})(?P<words>{PLACE_WORD}(?:[ \t-]+{PLACE_WORD}){{0,5}})")


# Type words that say "street" on their own: after a house number and a name, they make a street in
# lower case too ("252 oakridge rd", "120 willow lane") in a turn that capitalises elsewhere.
STRONG_TYPES = re.compile(r"(?:street|st|avenue|ave|road|rd|lane|ln|drive|boulevard|blvd|terrace|crescent|parkway"
                          r"|pkwy|highway|hwy|close|court|way|place)\.?$", re.I)


def _ordinal_name_typed_cased(words: list[str], value: str) -> bool:
    """A street named by an ordinal alone whose type word is capitalised ("4th Blvd", "80th Street")."""
    kind = value.rstrip(". ").split()[-1]
    return (bool(words) and all(re.fullmatch(r"\d{1,4}(?:st|nd|rd|th)", w, re.I) for w in words) and kind[:1].isupper()
            and kind.lower() not in ("place", "way", "close", "court"))  # "2nd Place": a rank as often


# A grid city's street after its compass point, the type left out as people text it: "1214 s wabash",
# "at 3344 N Racine #2", "830 w diversey" (English turns only: english_streets; vetted by _compass_street).
COMPASS_STREET = re.compile(rf"(?<![\w'’-])\d{{3,5}}[a-z]?[ \t]+(?P<point>{COMPASS_POINTS})\.?[ \t]+(?P<name>{L}[\w'’-]{{2,}})"
                            rf"(?:[ \t]+(?:{EN_TYPES}|{USPS_TYPES})\b\.?)?(?!\w)", re.I)
# What a number and a letter count rather than place: a decade written apart ("the 1960 s"), watts
# ("850 w psu", "a 1000 W microwave"), "n" for "and" ("rock 1000 n roll"), "e" for electric ("3000 e
# bikes"). After any point but "s" the name is then no dictionary word, or a name-list word the
# dictionary has only as a noun ("2912 n lincoln"; not "1000 w power supply"), and none of these.
COMPASS_NOT_NAMES = frozenset("psu gpu cpu rgb usb led leds rms amp amps coli".split())  # "e coli"


def _compass_street(m: re.Match) -> bool:
    """Whether a COMPASS_STREET match names a street (see COMPASS_NOT_NAMES)."""
    from builder.clean.names import first_names, last_names
    from builder.clean.truecase import at_most_a_noun, is_english_word

    bare = m.group("name").lower().strip("'’-")
    if (bare in STOP_IN_NAMES or bare in NOT_IN_NAME_WORDS or bare in TIME_WORDS or bare in COMPASS_NOT_NAMES
            or re.fullmatch(UNIT_WORDS, bare)):
        return False
    if m.group("point").lower() == "s":
        return not re.match(r"(?:1\d|20)\d0\b", m.group())  # "in the 1960 s"
    return not is_english_word(bare) or (bare in first_names() or bare in last_names()) and at_most_a_noun(bare)


# ... or a preposition of place before it: "uber dropped me at 892 maple street", "we're near 12 oak lane"
AT_PLACE = re.compile(r"\b(?:at|near|outside)[ \t]+\Z", re.I)


def _name_ok(words: list[str], lower_text: bool) -> bool:
    for word in words:
        w = word.lower().strip(".,'’")
        if w in STOP_IN_NAMES or re.fullmatch(r"\d{3}0s", w):
            return False
    return lower_text or any(w[:1].isupper() for w in words)


def find_streets(text: str) -> list[tuple[int, int, str, float]]:
    """``[(start, end, "STREET_ADDRESS", score)]``: streets, each extended over its block."""
    lower_text = not any(c.isupper() for c in text)
    found = []
    digits = _DIGIT.search(text) is not None
    if digits:
        classes = _word_classes(text)
        has_unit = ("unit" in classes or "#" in text) and bool(_UNIT_ANY.search(text))
        gates = {"name_number": has_unit or bool(_CODE_ANY.search(text)) or bool(CUE_ANY.search(text)),
                 "type_first": "type_first" in classes or "type_first_letter" in classes and bool(_TYPE_NOT_A_WORD.search(text)),
                 "number_first": "number_first" in classes, "number_first_weak": "number_first_weak" in classes,
                 "ordinal": bool(_ORDINAL_ANY.search(text)), "number_first_road": bool(_ROAD_ANY.search(text)),
                 "grid": bool(_GRID_ANY.search(text)), "chome": bool(_CHOME_ANY.search(text)), "plot": "plot" in classes,
                 "number_name_unit": has_unit, "name_number_unit": has_unit, "unit": has_unit,
                 "corner": "corner" in text.lower(), "po_box": "box" in text.lower(),
                 "block": bool(BLOCK_ANY.search(text)),
                 "name_first": _ending_any(text, classes),
                 "military": "military" in classes and bool(_MILITARY_ANY.search(text)),
                 "lives_on": bool(LIVES_ON_ANY.search(text))}
    else:  # only a home named without its number can stand in a text without digits
        gates = {"lives_on": bool(LIVES_ON_ANY.search(text))}
    for name, pattern, score in _COMPILED:
        if not gates.get(name, digits):
            continue  # cheap checks first: most chat has no unit, code or cue word
        for m in _candidates(pattern, text):
            value = m.group()
            if name in ONE_LINE_FORMS and "\n" in value:  # a street is written on one line: read it to the line's end
                m = pattern.match(text, m.start(), m.start() + value.index("\n"))
                if m is None:
                    continue  # "Ubuntu.\n\n2." and "60\nGrade point" are no streets
                value = m.group()
            if name == "type_first":  # its name ends before a word no street's name holds ("rue des Lilas where r u")
                stop = next((w for w in re.finditer(NAME_WORD, value) if w.group().lower() in STOP_IN_NAMES), None)
                if stop is not None:
                    m = pattern.match(text, m.start(), m.start() + stop.start())
                    if m is None or not re.search(r"\d", m.group()):
                        continue
                    value = m.group().rstrip()
            if name in ONE_LINE_FORMS and YEAR_AFTER_COMMA.search(value):
                continue  # "(Qiu, 2015)": a citation
            if name == "type_first":
                short = SHORT_TYPES.match(value)
                if short and not (value[short.end():short.end() + 1] == "." or (
                        short.group("type")[0].isupper() and short.group("type").lower() == "via")):
                    continue
                if not re.search(r"(?<![\w-])\d{1,5}[a-zA-Z]?(?![\w-])", value):
                    continue  # "via the M1 motorway": no house number
            if (name == "number_first" and USPS_END.search(value) and not _stands_as_address(text, m.start(), m.end())
                    and not CUE.search(text[max(0, m.start() - 60):m.start()])):
                continue  # "Day 3 Central Park and the Met", "7 Union Station train"
            # a sentence typed without capitals inside a turn that has some reads like a lower-case text
            lower_here = lower_text or _lower_sentence(text, m.start(), m.end())
            lower_street = False
            first_word = m.group("name").split()[0] if name in ("lives_on", "number_first", "number_first_weak") else ""
            if first_word.lower() in _STOP_WORDS and (name == "lives_on" or first_word.islower()):
                continue  # "I'm on the road", "we live in a street", "below 70, the actual grade point" ("12 The Green" is one)
            inside = re.search(r"\d([:./-])$", text[max(0, m.start() - 3):m.start()])
            if inside:
                # it starts inside a time or a date: "11:30 The Hollow" is a schedule, no house number; in
                # "19/09/1988, 12 Oak Street" the street is what follows the date's year
                lead = re.match(r"\d{1,5},?\s+", value)
                rest = pattern.match(text, m.start() + lead.end(), m.end()) if lead else None
                if rest is not None and re.match(r"\d", rest.group()):
                    m, value = rest, rest.group()
                elif inside.group(1) in ":.":
                    continue
            if name in ("number_first", "number_first_weak") and re.search(r"\b(?:the|a|an)\s+$", text[max(0, m.start() - 5):m.start()], re.I):
                continue  # "the 1969 moon landing": an article numbers an event or a thing, never a house
            if name in ("number_first", "number_first_weak", "lives_on"):
                # an ordinal name has no case: its capitalised type says it ("448 4th Blvd", "1749 80th Street")
                street_name = m.group("name").split()
                cased = _ordinal_name_typed_cased(street_name, value)
                lower_street = (not lower_here and not cased and not _name_ok(street_name, False)
                                and bool(STRONG_TYPES.search(value.rstrip())))
                if not (cased or _name_ok(street_name, lower_here or lower_street)) or re.match(r"\d{3}0s\b", value):
                    continue
            elif name == "block":
                if not (re.match(r"blk", value, re.I) or "#" in value or re.search(r"\d[a-z]?[ \t]+[A-Z]", value)):
                    continue  # "block 2 in the first row": a block of a game or a program, no housing block
                if not _name_ok(name_words(value)[1:], lower_here or bool(BLK_UNIT.match(value))):
                    continue  # "blk 351 tampines st 26 #07-42": "blk" and a "#" unit say it in any case
            elif name not in ("military", "po_box", "unit", "corner", "ordinal", "plot"):
                if name.startswith("name_number") and UNIT_WORD.match(value):
                    continue  # "Room 3", "Unit 4": a unit (or a puzzle's room), never a street's name
                words = [w for w in name_words(value) if not re.fullmatch(UNIT, w, re.I)]
                # a type word of its own ("rua", "calle", "ul.") says "street" in a lower-case name too
                typed = name == "type_first" and _foreign_type(value)
                if not _name_ok(words, lower_here or typed) or not re.search(r"\d", value):
                    continue
                if not lower_here and not value[:1].isdigit() and not value[:1].isupper() and name != "type_first":
                    continue
            cued = name == "lives_on" or bool(CUE.search(text[max(0, m.start() - 60):m.start()]))
            start = m.start("street") if name == "lives_on" else m.start()
            if name == "unit" and not (cued or LONE_UNIT.match(value)):
                continue
            end, coded = extend_block(text, m.end(), lower_here) if name != "unit" else (m.end(), False)
            line = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.end()) % (len(text) + 1)]
            if name == "name_number" and (not (cued or coded) or "\t" in line):
                continue  # "Windows 10", a table row: a name and a number are a street only inside an address
            placed = lower_street and AT_PLACE.search(text, max(0, start - 12), start) is not None
            if (lower_street or name == "number_first_weak") and not (cued or coded or placed):
                continue  # "2 main road options", "10 National Parks": such a street needs its address around it
            if organisation_before(text, start):
                continue  # a university's or a publisher's address is public, not a person's
            if historical(text, start, m.end()):
                continue
            found.append((start, end, "STREET_ADDRESS", min(0.9, score + 0.15 * cued)))
    if digits and ADDRESS_CUE_ANY.search(text):
        found += [span for span in cued_houses(text) if not any(s < span[1] and span[0] < e for s, e, *_ in found)]
    best: dict[tuple[int, int], tuple[int, int, str, float]] = {}
    for span in found:  # a street two forms find, once, at its better score
        before = UNIT_BEFORE.search(text, max(0, span[0] - 30), span[0])
        span = (before.start(), *span[1:]) if before else span  # "3rd floor, 45 Ogunlana Drive"
        if span[:2] not in best or span[3] > best[span[:2]][3]:
            best[span[:2]] = span
    return list(best.values())


# A house number and its street's name right after a cue that says "address", the type word left
# out as people text it: "i live at 4206 Fairmount now", "my address is 64 dunraven, come by",
# "ship it to 1437 N Hoyne", "my adress is 7-46-2 jingumae". The name is one to three words up to a
# stop word; its first word is no English word typed in lower case ("send it to 2 people", "i live at 5 min from campus"), no English
# plural in any case ("send them to 3 Friends") and no time ("meet at 5 pm").
ADDRESS_WORDS = "address|adress|addres|adres|addy"
STAY_WORDS = "live|lives|living|staying|stay|stays"
SEND_WORDS = "ship|mail|send|deliver"
ADDRESS_CUE = re.compile(rf"\b(?:(?:{ADDRESS_WORDS})(?:[ \t]+is)?[ \t]*:?"
                         rf"|(?:{STAY_WORDS})[ \t]+at"
                         rf"|(?:{SEND_WORDS})(?:ped|ed|ing)?[ \t]+(?:(?:it|them|this|that|the\s+\w+)[ \t]+)?to)\Z", re.I)
ADDRESS_CUE_ANY = gate(rf"\b(?:{ADDRESS_WORDS}|{STAY_WORDS}|{SEND_WORDS})", re.I)  # its words anywhere: a cheap test
CUED_HOUSE = re.compile(rf"(?<![\w/-])(?P<number>\d{{1,5}}[a-zA-Z]?(?:[/-]\d{{1,5}}[a-zA-Z]?){{0,2}})[ \t]+"
                        rf"(?:(?:{COMPASS_WORDS})\.?[ \t]+)?"
                        rf"(?P<name>{L}[\w'’.\-]*(?:[ \t]+{L}[\w'’.\-]*){{0,2}})")
TIME_WORDS = frozenset("am pm a.m. p.m. oclock o'clock ish min mins minute minutes hour hours hr hrs sec".split())
# ... or right after a preposition of place, where the name's first word is no word at all: "at 94
# fernleigh", "from 210 kingsway to the airport", "at 2b/14 mitchell". What follows "at 9" or "to 500"
# otherwise is a dictionary word ("pm", "followers"), a unit ("usd"), a plural ("8 superbowls"), a
# gerund ("99 smithing"), a contraction ("at 9 I'll") or an interjection.
PLACE_WORDS = "at|from|to|near|outside"
PLACE_BEFORE = re.compile(rf"\b(?:{PLACE_WORDS})\Z", re.I)
PLACE_BEFORE_ANY = gate(rf"\b(?:{PLACE_WORDS})\s+[1-9]", re.I)  # such a word before a house number: a cheap test


# Chat shorthand, time zones and kitchen units that follow "at 9", "from 2", "to 80": no dictionary has them.
AFTER_A_NUMBER = frozenset("""tmrw tmr tmw tmrow tomoz tonite 2nite 2day omw ppl lvl lvls xp hp dmg kph mph fps rpm
bst gmt utc cet cest eet est edt cst cdt mst mdt pst pdt akst hst aest aedt jst kst ist sgt wib
tbsp tbs tsp oz lbs kgs mins secs hrs yrs wks mos yo""".split())


def _placed_house(m: re.Match, preposition: str) -> bool:
    """A CUED_HOUSE match after a preposition of place names a street: a house number (no leading zero,
    after "at" no clock hour: "at 9 tmrw"), then a word no dictionary has, that ends like no plural or
    gerund ("to 8 Superbowls", "to 99 smithing"), no contraction, interjection, chat word, time zone or unit."""
    from builder.clean.numbers import MONEY_OR_UNIT
    from builder.clean.truecase import is_english_word

    number, bare = m.group("number"), m.group("name").split()[0].lower().strip(".,")
    unit = MONEY_OR_UNIT.match(bare)
    if number[0] == "0" or number.isdigit() and int(number) <= 24 and preposition.lower() == "at":
        return False
    return (len(bare) >= 3 and bare.isalpha() and not is_english_word(bare) and bare not in INTERJECTIONS
            and bare not in AFTER_A_NUMBER and not bare.endswith(("ing", "s"))
            and not (unit and unit.end() == len(bare)))


def cued_houses(text: str, placed: bool = False) -> list[tuple[int, int, str, float]]:
    """Streets named by their house number and name after an address cue (see ADDRESS_CUE) or, with
    ``placed`` (English turns only: english_streets), with a name no dictionary has right after a
    preposition of place (PLACE_BEFORE)."""
    from builder.clean.truecase import is_english_word

    out = []
    lower_text = not any(c.isupper() for c in text)
    for m in CUED_HOUSE.finditer(text):
        before = m.start() - 1 if text[m.start() - 1:m.start()].isspace() else m.start()
        cued = ADDRESS_CUE.search(text, max(0, m.start() - 40), before) is not None
        preposition = PLACE_BEFORE.search(text, max(0, m.start() - 12), before) if placed and not cued else None
        if cued == placed or placed and not (preposition and _placed_house(m, preposition.group())):
            continue
        words = m.group("name").split()
        keep = 0
        for word in words:
            bare = word.lower().strip(".,'’")
            if bare in STOP_IN_NAMES or bare in NOT_IN_NAME_WORDS or bare in TIME_WORDS:
                break
            keep += 1
        if not keep:
            continue
        first = words[0].strip(".,'’")
        if (is_english_word(first.lower()) and (first.islower() or first.lower().endswith("s"))
                or words[0].lower().strip(".") in TIME_WORDS):
            continue  # "2 people", "3 Friends of mine", "5 min": a count, in any case when plural
        name_end = m.start("name") + len(" ".join(words[:keep]))
        end = name_end - (1 if text[name_end - 1] in ".," else 0)
        if organisation_before(text, m.start()) or historical(text, m.start(), end):
            continue
        end, _ = extend_block(text, end, lower_text)
        out.append((m.start(), end, "STREET_ADDRESS", 0.75))
    return out


def english_streets(text: str) -> list[tuple[int, int, str, float]]:
    """The street shapes that read English words, for English turns only (recognizers' EnglishStreets):
    a grid street after its compass point (COMPASS_STREET) and a house after a preposition of place
    (``cued_houses(placed=True)``). In Polish "2000 w banku" is "in the bank", in Czech "to 20 minut"
    is "it's 20 minutes"."""
    if not _DIGIT.search(text):
        return []
    out = cued_houses(text, placed=True) if PLACE_BEFORE_ANY.search(text) else []
    if _COMPASS_ANY.search(text):
        lower_text = not any(c.isupper() for c in text)
        for m in COMPASS_STREET.finditer(text):
            if _compass_street(m) and not organisation_before(text, m.start()) and not historical(text, m.start(), m.end()):
                out.append((m.start(), extend_block(text, m.end(), lower_text)[0], "STREET_ADDRESS", 0.6))
    return out


YEAR = re.compile(r"(?:\b(?:in|on|of|since|from|to|and|until|till|by|born|died|circa|c\.|january|february|march|april|may|june"
                  r"|july|august|september|october|november|december)\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?|\()"
                  rf"(1[5-9]\d\d|20\d\d)(?![\w-]|[.,]\d|[ \t]+(?:{COMPASS_POINTS})\.?[ \t]+\w"
                  rf"|[ \t]+(?:{L}[\w'’-]*[ \t]+){{1,3}}(?:{EN_TYPES}|{USPS_TYPES})\b)", re.I)
# a year is dated: "in 1872", "13 January 1872"; a house number is none, before a compass point or a street's
# name and type ("to 1507 n 4th", "from 1910 cedar crest")


USPS_END = re.compile(rf"\b(?:{USPS_TYPES})\.?$", re.I)
# What may come before an address's house number: the start of a line or a sentence, or a word
# that leads to a place ("at", "to", "is"); a label word ("Day 3", "version 2") numbers something else.
BEFORE_ADDRESS = re.compile(r"(?:^|[\n:;,.!?(\[\-–—>\"“]|\b(?:at|to|on|from|in|is|was|near|of|and|or|by|via|address"
                            r"|live|lives|lived|moved|ship|send|deliver|visit))\s*$", re.I)


def _stands_as_address(text: str, start: int, end: int) -> bool:
    """A street ending in a USPS word that is also a common noun ("Station", "Park", "Club") is one
    only where an address stands: after a line start, punctuation or a leading word, and before a
    break, a unit or a code (not "3 Power Station sites")."""
    return bool(BEFORE_ADDRESS.search(text[max(0, start - 20):start])
                and re.match(r"\s*(?:$|[\n,.;:)!?]|(?:apt|suite|unit|ste|#))", text[end:end + 8], re.I))


def historical(text: str, start: int, end: int) -> bool:
    """An address the text dates before 1920 ("...of 3 Caledonian Terrace, Kent. He was baptised
    in 1872"): the people who lived there are long dead, and privacy law protects the living.
    Every year written within 200 characters must be before 1920, and one must be there."""
    years = [int(y) for y in YEAR.findall(text[max(0, start - 200):start] + " " + text[end:end + 200])]
    return bool(years) and max(years) < 1920


_DIGIT = re.compile(r"\d")
# (a word from its start only: tried inside a word, the same match fails again, a letter at a time)
_WORD_BEFORE_NUMBER = re.compile(rf"(?<![^\W\d_])([^\W\d_]+)\.?,?\s+(?:{NUMBER_LABEL})?\d", re.I)
_ENDINGS = tuple(NAME_FIRST_ENDINGS.split("|"))
_SHORT_TYPE_BEFORE_NUMBER = re.compile(rf"\s(?:{NAME_FIRST_WORDS})(?!\w),?\s+(?:{NUMBER_LABEL})?\d", re.I)


_TYPE_WORD = re.compile(rf"(?:{LEAD})?(?P<type>{PREFIX_TYPES})(?P<dot>\.)?(?:(?<=[/.])|(?![^\W\d_]))", re.I)  # the whole word: "avenida", not "av"


BLK_UNIT = re.compile(r"blk\b.*#\s?\d", re.I)


def _foreign_type(value: str) -> bool:
    """The street's type word is no English word ("rua", "calle") or an abbreviation with its dot
    ("ul."): it says "street" whatever the case of the name ("place the cursor 5" is English)."""
    from builder.clean.truecase import is_english_word

    m = _TYPE_WORD.match(value)
    return m is not None and (bool(m.group("dot")) or len(m.group("type")) >= 3 and (
        not is_english_word(m.group("type")) or m.group("type").lower() in ALSO_ENGLISH_TYPES))


# Foreign type words that English also has as a word of its own: "rue" (regret) never follows a house
# number or precedes a street's name ("5547 rue sainte-catherine").
ALSO_ENGLISH_TYPES = frozenset({"rue"})


def _ending_any(text: str, classes: set[str]) -> bool:
    """A word ending like a street's type right before a number ("Schillerstraße 12"): the gate of
    the name_first form, a word at a time (an alternation of 80 endings tried at every character
    cost more than the rest of the street finder). ``classes``: the text's word classes."""
    return ("name_first" in classes and any(m.group(1).lower().endswith(_ENDINGS) for m in _WORD_BEFORE_NUMBER.finditer(text))
            or "name_first_short" in classes and bool(_SHORT_TYPE_BEFORE_NUMBER.search(text)))
# Type words of other languages that are English words or common abbreviations: "via" a
# route, "TV", "al."; they count only capitalised ("Via Roma 3") or with their dot ("al. Jana 5").
SHORT_TYPES = re.compile(rf"(?:{LEAD})?(?P<type>via|r|tv|al|os|pl|tr|bd|bld|av|ul|jl|str|ctra|pza|pça|ул|пр|пер)\b",
                         re.I)
ONE_LINE_FORMS = ("grid", "number_first", "number_first_road", "number_first_weak", "lives_on", "type_first", "name_first",
                  "name_number", "corner", "ordinal", "chome")
YEAR_AFTER_COMMA = re.compile(r",\s*(?:1[5-9]|20)\d\d\.?$")  # "(Qiu, 2015)": a citation
# (the gates' branches grouped under their first letter: alternation.py)
LIVES_ON_ANY = gate(rf"\b(?:(?:{HOME_VERBS}|{HOME_NOUNS})\s+(?:on|at|to|in)|(?:{HERE})\s+(?:on|at)"
                    r"|(?:my|our)\s+(?:street|road|address)\b)", re.I)
_UNIT_ANY = re.compile(rf"\b{UNIT}", re.I)
AU_STATE_LAST = re.compile(rf"(?<![^\s,])(?:{AU_STATES})$")  # "..., Sydney NSW" before its postcode
BLOCK_ANY = re.compile(r"\b(?:blk|block)\.?[ \t]*\d", re.I)
_CODE_ANY = re.compile(rf"(?<![\w.-]){POSTAL}(?![\w-])")
CUE_ANY = gate(CUE.pattern.replace(r"[^.\n]{0,20}$", ""), re.I)
# Cheap necessary conditions of the forms below, each what the form's own pattern must hold
# (tested against the finder with every gate open: tests/clean/test_clean_recognizers.py):
_COMPASS_ANY = re.compile(rf"\d[a-z]?[ \t]+(?:{COMPASS_POINTS})\.?[ \t]+[^\W\d_]", re.I)  # "1214 s wabash"
_ORDINAL_ANY = re.compile(r"\d(?:st|nd|rd|th)(?!\w)", re.I)  # "221 w 34th", "3100 nw 57th st"
_ROAD_ANY = re.compile(r"-(?:ro|daero|gil)", re.I)  # "123 Teheran-ro"
_GRID_ANY = re.compile(r"-[ \t]*\d\d")  # "Carrera 7 # 45-12"
_CHOME_ANY = re.compile(r"\d-\d{1,2}-\d")  # "2-14-3 Nishi-Shinjuku"
MILITARY_WORDS = "PSC|CMR|Unit|[AFD]PO"  # what the military form's lines start with
_MILITARY_ANY = re.compile(rf"\b(?:{MILITARY_WORDS})\b", re.I)
_TYPE_NOT_A_WORD = re.compile(r"c/|v\.le|p\.za", re.I)  # the prefix types that are no word of letters alone
# ... and the words they need. A form's type word (or unit, or plot word) stands whole in the text:
# no letter on either side of it (a space, a mark or the start before it; a space, a dot, a digit
# or the end after it), so it is one of the text's letter runs, and each run is judged once: 250
# type words tried at every character cost more than the rest of the street finder. The plot's
# word starts a run ("Sector 5", "sectorA").
_LETTER_RUN = re.compile(r"[^\W\d_]+")
_WORD_CLASSES: dict[str, Callable[[str], object]] = {
    "type_first": re.compile(PREFIX_TYPES, re.I).fullmatch,
    "type_first_letter": re.compile(r"[cvp]", re.I).fullmatch,  # "c/", "v.le", "p.za": _TYPE_NOT_A_WORD
    "number_first": re.compile(f"{EN_TYPES}|{USPS_TYPES}", re.I).fullmatch,
    "number_first_weak": re.compile(WEAK_TYPES, re.I).fullmatch,
    "plot": re.compile(PLOT_PARTS, re.I).match,
    "military": re.compile(MILITARY_WORDS, re.I).fullmatch,
    "unit": re.compile(UNIT_WORDS, re.I).fullmatch,  # (the unit's "#" is asked of the text itself)
    "name_first": lambda word: word.lower().endswith(_ENDINGS),
    "name_first_short": re.compile(NAME_FIRST_WORDS.replace(r"\.", ""), re.I).fullmatch,  # "u.", "út", "sk."
}


@functools.lru_cache(maxsize=1 << 16)
def _classes_of_word(word: str) -> frozenset[str]:
    return frozenset(name for name, test in _WORD_CLASSES.items() if test(word))


def _word_classes(text: str) -> set[str]:
    """The classes of the words ``text`` writes."""
    classes: set[str] = set()
    for word in set(_LETTER_RUN.findall(text)):
        classes |= _classes_of_word(word)
    return classes


# Public institutions and publishers: their addresses are printed everywhere. (A company, a
# department or a ministry above a street is a person's work address in a letter: it stays personal.)
ORGANISATION = re.compile(r"\b(?:university|universit[éä]t?|universidad|college|institute|publishers?|press|museum"
                          r"|library|embassy|consulate|all\s+rights\s+reserved|copyright)\b|©|大学|学院|大學", re.I)


# A public building's address: "the Empire State Building at 350 Fifth Avenue", "the Apple Store on 5th Avenue".
LANDMARK_AT = re.compile(r"\bthe\s+(?:[A-Z][\w'’.-]*\s+){0,3}(?:Building|Tower|Museum|Gallery|Palace|Cathedral|Stadium"
                         r"|Theat(?:re|er)|Hall|Store|Hotel|Arena|Library|Memorial)\s+(?:at|on)\s+$")


def organisation_before(text: str, start: int) -> bool:
    """An organisation named on the street's own line or in the three lines above it, within
    the same block ("Western Kentucky University, Bowling Green, KY 42101", "Elsevier Science
    Inc.\n655 Avenue of the Americas")."""
    window = text[max(0, start - 200):start]
    if LANDMARK_AT.search(window[-80:]):
        return True
    block = window.rsplit("\n\n", 1)[-1]
    *above, own = block.split("\n")
    heading: list[str] = []  # the lines right above that read as an address block's, not a chat message's prose
    for line in reversed(above[-3:]):
        if _prose(line):
            break  # "Yeah. College is fun. I've had ..." is somebody's message, not a letterhead
        heading.insert(0, line)
    return bool(ORGANISATION.search("\n".join([*heading, own])))


SPEAKING = re.compile(r"\b(?:i|i['’]m|i['’]ve|my|me|we|our|you|your)\b", re.I)
SENTENCE_GOES_ON = re.compile(r"([^\W\d_]+)[.!?]\s+[A-Z][a-z]")
ABBREVIATIONS = frozenset("Inc Ltd Co Corp Dept Univ St Ave Dr Mr Mrs Ms Jr Sr No Vol pp Ed Eds".split())


def _prose(line: str) -> bool:
    """Somebody speaking, or one sentence ending and another starting ("Yeah. College is fun."; not
    "Elsevier Science Inc.   All rights reserved.")."""
    return bool(SPEAKING.search(line)) or any(len(m.group(1)) > 1 and m.group(1) not in ABBREVIATIONS
                                              for m in SENTENCE_GOES_ON.finditer(line))


def _candidates(pattern: re.Pattern, text: str):
    """Every match, also those starting inside a rejected one ("my address to 92 Eusebio
    Dávila 57": the first candidate starts at "change" and fails, the street starts later)."""
    pos = 0
    while pos < len(text):
        m = pattern.search(text, pos)
        if not m:
            return
        yield m
        nxt = re.search(r"\s\S", text[m.start():m.end()])
        pos = m.start() + nxt.end() - 1 if nxt else m.end()


def _lower_sentence(text: str, start: int, end: int) -> bool:
    from builder.clean.sentence import bounds

    left, right = bounds(text, start, end)
    return not any(c.isupper() for c in text[left:right])


ABBREVIATION_END = re.compile(r"\b(?:st|ave|av|rd|blvd|ln|dr|ct|pl|ter|cres|sq|pkwy|hwy|cir|trl|hts|str|crt|mt|ft)\.$", re.I)


def extend_block(text: str, end: int, lower_text: bool) -> tuple[int, bool]:
    """Extend a street over the unit, places and postal code written after it; also say
    whether a unit or a postal code was among them (what makes a block an address)."""
    limit, coded = min(len(text), end + 160), False
    if text[end - 1:end] == "." and not ABBREVIATION_END.search(text[max(0, end - 8):end]) and re.match(
            r"[ \t]+[A-Z]", text[end:end + 3]):
        return end, coded  # "I live at 350 Fifth Avenue. The Empire State Building ...": a full stop ends it
    after_place = False
    for _ in range(8):
        for pattern in (EXT_UNIT, EXT_POSTAL, EXT_LAST_LINE):
            m = pattern.match(text, end, limit)
            if m:
                # a unit, a 5-digit or lettered code, or a code after an Australian state makes a block;
                # "RTX 3050" does not
                end, coded = m.end(), coded or pattern is not EXT_POSTAL or after_place or bool(
                    re.search(r"\d{5}|[A-Z]", m.group()))
                after_place = False
                break
        else:
            m = EXT_PLACE.match(text, end, limit)
            place_end = _place_end(m, text, lower_text) if m else None
            if m is None or place_end is None:
                return end, coded
            after_place = AU_STATE_LAST.search(text, m.start("words"), place_end) is not None
            end = place_end
    return end, coded


def _place_end(m: re.Match, text: str, lower_text: bool) -> int | None:
    """Where a town/state/country segment ends, or None when it is not one: name-like words
    (capitalised in mixed-case text, short particles allowed), then a break, a code, the
    end, or (in mixed-case text) the first lower-case word after the capitalised run."""
    end = None
    for token in re.finditer(r"\S+", m.group("words")):
        t = token.group()
        if (t.lower() in STOP_IN_NAMES or t.lower().strip(".,") in NOT_PLACE_WORDS) and not (
                end is None and t.lower() in ("saint", "st")):
            break
        if not lower_text and not (t[:1].isupper() or len(t) <= 3 or t.startswith("(")):
            break
        end = m.start("words") + token.end() - (len(t) > 3 and t.endswith("."))
    if end is None:
        return None
    rest = text[end:end + 12]
    if re.match(rf"\s*(?:$|\n|,|\.|;|\?|!|{POSTAL}(?![\w-])|[-–—]|\))", rest):
        return end
    return end if not lower_text and re.match(r"[ \t]+[a-z]", rest) else None


def street_spans(text: str) -> list[tuple[int, int]]:
    return [(s, e) for s, e, _, _ in find_streets(text)]


# -- addresses in scripts without spaces or capitals -----------------------------------------
# Chinese: the units run big to small with no space (省, 市, 区/县, then a road 路/街/道/巷/弄 and a
# house number 号, then building, unit and room); Japanese: a prefecture (都/道/府/県), a city or
# ward, then block-lot-house numbers (1-2-3, 1丁目2番3号); Russian: a street word (ул., улица,
# проспект ...) and a house (д. 5), then a flat (кв. 12). Each needs its house number: "建国路"
# alone is a road anyone names.
HAN = r"\u4e00-\u9fff"
KANA = r"\u3040-\u30ff"
CN_ADDRESS = re.compile(rf"(?:[{HAN}]{{1,8}}?(?:省|自治区|市|区|县|镇|乡))*[{HAN}]{{1,10}}?(?:路|街|大道|道|巷|弄|胡同)"
                        rf"[{HAN}]{{0,4}}?\d+(?:-\d+)?号(?:[{HAN}]{{0,6}}?\d+(?:号楼|号院|楼|单元|栋|幢|层|座|室|号)){{0,4}}")
JP_ADDRESS = re.compile(rf"(?:東京都|北海道|京都府|大阪府|[{HAN}]{{2,3}}県)?[{HAN}{KANA}]{{1,10}}?(?:市|区|町|村)"
                        rf"[{HAN}{KANA}]{{0,10}}?\d+(?:丁目|-|－|−)\d+(?:(?:番地?|-|－|−)\d+)?(?:号)?")
RU_ADDRESS = re.compile(r"(?:(?:г\.|город)\s*[А-ЯЁ][а-яё\-]+,?\s*)?(?:ул\.|улица|пр-т|пр\.|проспект|пер\.|переулок|б-р"
                        r"|бульвар|ш\.|шоссе|наб\.|набережная|пл\.|площадь)\s*[А-ЯЁ0-9][А-Яа-яЁё0-9\-]+(?:\s+[А-ЯЁа-яё\-]+)?"
                        r",?\s*(?:д\.|дом)\s*\d+[а-я]?(?:,?\s*(?:корп\.|к\.|стр\.|кв\.|квартира)\s*\d+)*")
# An institution's letterhead line above the address makes it the institution's: "天津职业技术师范大学教务处\n…\n地址：…"
HAN_ORG_LINE = re.compile(r"(?:大学|学院|学校|公司|集团|银行|医院|政府|委员会|中心|研究所|研究院|教务处|办公室|局|厅|会)\s*$", re.M)
LEAD_IN = re.compile(r"^.*?(?:住在|住址[是为：:]?|地址[是为：:]?|在|于|是|[：:])(?=.{4})")  # "我住在" before the address


def find_non_latin_addresses(text: str) -> list[tuple[int, int, str, float]]:
    """Chinese, Japanese and Russian street addresses with their house numbers (see above)."""
    out = []
    if re.search(rf"[{HAN}]", text):
        for pattern in (CN_ADDRESS, JP_ADDRESS):
            for m in pattern.finditer(text):
                if HAN_ORG_LINE.search(text[max(0, m.start() - 80):m.start()]):
                    continue
                lead = LEAD_IN.match(m.group())
                out.append((m.start() + (lead.end() if lead else 0), m.end(), "STREET_ADDRESS", 0.8))
    if re.search(r"[А-Яа-яЁё]", text):
        out += [(m.start(), m.end(), "STREET_ADDRESS", 0.8) for m in RU_ADDRESS.finditer(text)]
    return out
