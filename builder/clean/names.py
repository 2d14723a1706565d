"""Person names the way a careful annotator finds them: NER plus the context around a name.

spaCy's English NER labels many personal names ORG or GPE ("Thanks, Erli", "Hi Tamara") and
misses lower-case ones. A detection counts as a PERSON when the model says so, or when its
context says so whatever the label: a greeting or an introduction before it, an honorific,
a signature after a closing phrase, or a list that holds another name ("Emily, Anna and
Gloria"). ``english_names`` needs spaCy entities (English turns only); ``cued_names`` reads
only the text and works in any language (closings and self-introductions in several
languages, CJK signatures).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from builder.clean.alternation import Gated, gate
from builder.clean.languages import mostly_latin
from builder.clean.nicknames import GREETINGS, LEADING_GREETING_NAMES, NOT_ADDRESSEES, greeting_word, nicknames
from builder.clean.precision import NOT_NAMES, is_public
from builder.traits.fiction import CHAT_LOG


def _latin(case) -> str:
    """The letters of one case (``str.isupper``, ``str.islower``) in Latin-1, Latin Extended-A and -B
    and Latin Extended Additional: names are written with them ("Durmuş", "Dvořák", "Łukasz", "Trần")."""
    return "".join(chr(c) for c in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)) if case(chr(c)))


UPPER = "A-Z" + _latin(str.isupper)  # for character classes: [{UPPER}]
LOWER = "a-z" + _latin(str.islower)
CAP = rf"[{UPPER}][{LOWER}'’\-]+(?:[{UPPER}][{LOWER}]+)?(?![\w])"
CAP_NAME = rf"{CAP}(?:[ \t]+(?:(?:van|von|de|da|del|der|di|du|la|le|bin|al|ibn)[ \t]+)?{CAP}){{0,2}}"  # one line
GREETING = re.compile(r"(?:^|[\s,.!(])(?:hi|hello|hey|heya|hiya|dear|thanks|thank you|thx|cheers|bye|goodbye|welcome"
                      r"|congrats|congratulations|good (?:morning|afternoon|evening|night)|morning|ok|okay|sorry)"
                      r"[,!]?\s+$", re.I)
# "ok Reading package lists...": after these a capitalised word often just starts a sentence;
# they greet someone only when the name closes the address ("Sorry, Anna!", "ok Tom,").
WEAK_GREETING = re.compile(r"\b(?:ok|okay|sorry|morning|welcome)\W*$", re.I)
CLOSES_ADDRESS = re.compile(r"^\s*(?:[,!.?;:)]|\n|$)")
# (the context patterns a name's context only asks "is there one" of: their branches grouped under
# their first letter, alternation.py)
INTRO = gate(r"(?:\bmy name is|\bmy name's|\bmy name|\bi am|\bi['’]m|\bthis is|\bcall me)\s*[,:]?\s*$", re.I)
NAMED = gate(r"\b(?:friend|guy|girl|boy|man|woman|lady|person|kid|someone|colleague|neighbou?r|child|son|daughter"
             r"|student|teacher|character)\s+(?:named|called)\s+$", re.I)
# A record's field that holds people: minutes ("Attendees: ..."), forms ("Emergency contact: ..."),
# mail headers ("Cc: ..."), reviews ("Review by ..."), deliveries ("ship it to ..."). The people a record
# lists are real ones whatever else the dialogue asks (a story earlier, a worksheet); a name right after
# the label is a person even where NER calls it something else (FIELD).
PEOPLE_LABELS = (r"attendees?|participants?|present|absent|apologies|guests?|invitees?|members?"
                 r"|(?:emergency\s+)?contacts?(?:\s+person)?|next\s+of\s+kin|(?:full\s+|first\s+|last\s+|legal\s+)?name"
                 r"|customer|client|patient|applicant|candidate|tenant|landlord|employee|manager|supervisor|reviewer"
                 r"|recipient|sender|from|to|cc|bcc|attn|attention|signed|signature|witness(?:es)?|guardian|parents?"
                 r"|spouse|beneficiary|(?:account|card)\s*holder|owner|driver|passengers?|buyer|seller|referees?"
                 r"|references?|host|organi[sz]er|chair(?:person)?|minute\s+taker|note\s+taker|assignee|requester"
                 r"|reporter")
PEOPLE_LABEL = re.compile(rf"(?:^|(?<=[\s(|,;>*]))(?:{PEOPLE_LABELS})\s*[:#]\s*", re.I)
# ... and phrases that say who a record is by or for; what follows may be a place ("ship it to Germany"),
# so these make no span a name, they only say whose a found name is
PEOPLE_PHRASE = re.compile(r"\b(?:reviewed|review|submitted|prepared|requested|minuted)\s+by\s+"
                           r"|\b(?:ship|deliver|mail|post|send)\s+(?:it|this|them|the\s+\w+)?\s*to\s+", re.I)
NameSpan = tuple[int, int, str, float, str]  # (start, end, "PERSON", score, the basis: "intro", "list", ...)
RECORD_WHY = "the people a record lists (minutes, a form, a mail header, a review, a delivery) are real ones"
RECORD_EXAMPLES = (("Attendees: Ana Ruiz, Tom van der Berg and Priya Raman", "Priya Raman", True),
                   ("Review by Magnus Eriksen (verified buyer): it broke.", "Magnus Eriksen", True),
                   ("ship it to Ana Ruiz, 4 Elm St", "Ana Ruiz", True),
                   ("November 2012-present: Logo is on a special suit", "Logo", False),
                   ("Name: the dog was with Ana", "Ana", False),
                   ("Attendees: Ana Ruiz\nLater Tom Lee came", "Tom Lee", False))
GAP_TOKEN = re.compile(r"[^\W_][\w'’.-]*|\S")  # one word or one mark; linear, nothing to backtrack
FIELD = re.compile(r"(?:\bname\?|\b(?:first |last |full |user |customer |reviewer |guest |patient |client )?name\s*:"
                   r"|\bname\s+(?:on|of|as\s+on|as\s+in)\s+(?:the\s+|your\s+|my\s+)?\w+\s*:"  # "Name on card:", "Name of patient:"
                   r"|\bsigned|\bauthor\s*:|\bfrom\s*:|\bto\s*:|\bcc\s*:|\bcontact\s*:|\battn\.?:?"
                   r"|\b(?:reviewer|reviewed\s+by|posted\s+by|submitted\s+by|customer|guest|tenant|patient|employee)\s*[:\-]"
                   rf"|(?:^|(?<=[\s(|,;>*]))(?:{PEOPLE_LABELS})\s*:"
                   r")\s*[,:]?\s*$", re.I)
# FIELD's cheap necessary condition: what it matches ends, before its spaces, in one of these (its
# patterns end in ":", "?", "-", "signed" or "attn", and a "," or ":" may follow them)
FIELD_END = re.compile(r"(?:[:?,\-]|signed|attn\.?)\Z", re.I)
HONORIFIC = gate(r"\b(?:mr|mrs|ms|miss|mx|dr|prof|professor|sir|madam|mme|mlle|herr|frau|señor|señora|sr|sra)"
                 r"\.?\s+$", re.I)
# How someone is related to the writer: one list, read by RELATION, the lower-case relation cue, RELATION_NOUN
# and relation_word below.
REL_WORDS = (r"wife|husband|partner|girlfriend|boyfriend|friend|teacher|tutor"
             r"|boss|colleague|coworker|co-worker|mother|mom|mum|father|dad|son|daughter|brother|sister"
             r"|neighbou?r|doctor|dentist|grandfather|grandmother|grandma|grandpa|landlord|landlady|manager"
             r"|uncle|aunt|cousin|fianc[eé]e?|roommate|flatmate|client|student|classmate|niece|nephew|kid"
             r"|baby|child|supervisor|advisor|professor|coach|therapist|lawyer|ex"
             # what chat calls them: "my bf jake", "my bestie jas", "my brother-in-law chinedu"
             r"|bf|gf|bff|bestie|hubby|wifey|bae|(?:brother|sister|mother|father|son|daughter)-in-law"
             r"|step-?(?:mom|mum|dad|mother|father|son|daughter|brother|sister)|mommy|daddy|granny|nana"
             r"|sibling|twin|godmother|godfather|godson|goddaughter|housemate|teammate|buddy|pal|mate")
RELATION = gate(rf"\b(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?(?:ex-?)?(?:{REL_WORDS})"
                r"s?(?:,?\s+(?:is|was|called|named|are|were))?,?\s+$", re.I)  # plurals: "my twin brothers, Mateo and Santiago"
# ... or after it, set off by a comma: "Isaac Richards, a friend of mine from home", "Ana, my roommate,"
RELATION_AFTER = re.compile(rf"^\s*,\s*(?:(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?(?:ex-?)?(?:{REL_WORDS})s?\b"
                            rf"|an?\s+(?:[\w'-]+\s+){{0,2}}?(?:{REL_WORDS})\s+of\s+(?:mine|ours)\b)", re.I)
HERE_AFTER = re.compile(r"^\s+here\b", re.I)
# Words around a name that only a person fits: speech ("says X", "X said"), kinship and
# possession ("X's daughter"), what one does to a person ("tell X", "follow up with X"), a
# name introduced as such ("maiden name is X"), credits ("directed by X").
PERSON_VERB_BEFORE = gate(
    r"(?:\b(?:says|said|asked|replied|answered|shouted(?:\s+at)?|whispered|yelled(?:\s+at)?|told|tell|ask|thank"
    r"|thanked|meet|met|marry|married|dating|kissed|hugged|invited|introduced|follow\s+up\s+with|speak\s+to"
    r"|speak\s+with|talk\s+to|talked\s+to|said\s+to|(?:is|was)\s+under|name\s+is|maiden\s+name\s+is|calls\s+me"
    r"|known\s+as|signed\s+by|sent\s+by|from\s+my\s+friend|commenter|(?:reply|replied|respond|responded"
    r"|apologi[sz]e|apologi[sz]ed)\s+to|texted|text|emailed|messaged|broke\s+up\s+with|divorced|divorcing)"
    r"\s+$)", re.I)  # not after "the": "a fan of the NFL" is a league
# Credits of a work: a person for sure, and a public one (a work's director, author, singer).
CREDIT_BEFORE = gate(r"\b(?:directed\s+by|written\s+by|starring|featuring|produced\s+by|performed\s+by"
                     r"|sung\s+by|composed\s+by|painted\s+by|narrated\s+by|illustrated\s+by|by\s+the\s+author"
                     r"|producer|singer|songwriter|author|composer|painter|novelist|fan\s+of|music\s+of|songs\s+of"
                     r"|books\s+of|films\s+of|movies\s+of|works\s+of|(?:in\s+the\s+)?style\s+of|in\s+the\s+manner\s+of|à\s+la"
                     r"|(?:books?|novels?|songs?|albums?|films?|movies?|poems?|paintings?|music|works?|plays?|series"
                     r"|podcasts?|lectures?|talks?)\s+by)\s+$", re.I)
# ... or the works after the name: "which Brandon Sanderson books?", "Taylor Swift's new album"
CREDIT_AFTER = re.compile(r"^(?:['’]s)?\s+(?:(?:new|latest|first|last|early|old|best-selling|bestselling|greatest|famous"
                          r"|debut|final)\s+)?(?:books|novels|songs|albums?|films"
                          r"|movies|music|paintings|poems|plays|podcast|lyrics|discography|filmography)\b"
                          r"|^\s+(?:shoes|heels|sneakers|bags|handbags|perfume|fragrance|jeans|dresses|suits|watches)\b",
                          re.I)  # ... or a designer's line ("Jimmy Choo shoes"; not "Anna's shoes")
PERSON_AFTER = re.compile(
    r"^(?:['’]s?\s+(?:daughter|son|wife|husband|mother|mom|mum|father|dad|brother|sister|friend|boyfriend|girlfriend"
    r"|partner|address|phone|number|email|e-mail|birthday|account|house|home|car|family|parents|kids|children"
    r"|place|flat|apartment|apt|room|bedroom|party|wedding|funeral|bday|graduation|baby|dog|cat|puppy|kitten)\b"
    r"|\s+(?:says|said|asked|replied|answered|shouted|whispered|yelled|told|had\s+given|has\s+given|gave"
    r"|is\s+from|was\s+born|is\s+very\s+reliable|is\s+a\s+\d+\s+year|spent\s+a|points?\s+out|pointed\s+out"
    r"|explained|believes|grew\s+up|graduated|studied\s+at|passed\s+away|smiled|laughed|cried|texted|emailed)\b"
    r"|,\s+(?:can|could|would|will|please|do|did|are|have)\s+(?:you|i|we)\b)", re.I)
CLOSINGS = (r"regards|best regards|kind regards|warm regards|best wishes|best|sincerely|yours(?: truly| sincerely)?"
            r"|thanks|thank you|many thanks|thanks again|cheers|love|xoxo|respectfully|take care"
            r"|saludos|atentamente|un saludo|gracias|cordialement|merci|bien à vous|amicalement|bisous"
            r"|mit freundlichen grüßen|viele grüße|liebe grüße|grüße|gruß|danke|cordiali saluti|saluti|grazie"
            r"|atenciosamente|obrigad[oa]|abraços|с уважением|спасибо|всего доброго|pozdrawiam|dziękuję|groetjes"
            r"|met vriendelijke groet|hälsningar|mvh|med venlig hilsen|ystävällisin terveisin|terveisin"
            r"|谢谢|謝謝|此致|敬礼|敬禮|祝好|顺祝商祺|よろしくお願いします|감사합니다")
SIGNOFF = re.compile(rf"(?:^|\n)[ \t]*(?:{CLOSINGS})[ \t]*[,.!]*[ \t]*(?:\n[ \t]*)?[-–—~]?[ \t]*"
                     rf"(?P<name>{CAP_NAME}|[a-z][a-z'\-]{{2,}}(?:\s+[a-z][a-z'\-]{{2,}})?"
                     rf"|[\u4e00-\u9fff]{{2,4}}|[\u3040-\u30ff\u4e00-\u9fff]{{2,6}}|[\uac00-\ud7a3]{{2,4}}"
                     rf"|[А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)[ \t]*[.!]?[ \t]*$", re.I)
# A turn that ends with a line holding only a name, after a line that closes ("Thanks a lot!\nEero").
# Contact lines may follow the name ("Thanks!\n- Shelly Roberts\n+1 555 123 4567").
# (a name line with a contact line under it is a signature wherever it stands in the turn)
CONTACT_LINES = (r"(?:(?:\n[ \t]*(?:(?=[+(\d][^\n]*(?:\d[^\n\d]*){7})[+(]?\d[\d \t()-]{5,}\d|[\w.+-]+@[\w-]+\.[\w.]+)[ \t]*)+"
                 r"(?=\n|$)|$)")  # a phone (seven digits or more, no dots: no IP, version or date) or an e-mail
LAST_LINE_SIGNATURE = re.compile(rf"[!,.][ \t]*\n[ \t]*[-–—~]?[ \t]*(?P<name>{CAP_NAME})[ \t]*[.!]?[ \t]*{CONTACT_LINES}")
# A pasted chat log: a time stamp, then the speaker ("[10:32] Emeka: are you coming?").
TRANSCRIPT_SPEAKER = re.compile(rf"^[ \t]*\[?\(?\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?\)?\]?[ \t]*[-–]?[ \t]*"
                                rf"(?P<name>{CAP_NAME})[ \t]*:", re.M)
# ... or, in a turn that calls itself a pasted chat (fiction.CHAT_LOG), a speaker without a time stamp.
PASTED_CHAT_SPEAKER = re.compile(rf"^[ \t]*(?P<name>{CAP_NAME})[ \t]*:(?!//)", re.M)
DASH_SIGNATURE = re.compile(rf"\n[ \t]*[-–—~][ \t]*(?P<name>{CAP_NAME})[ \t]*{CONTACT_LINES}")
# Self-introductions, also lower-case ("my name praba") and in other languages.
LOWER_INTRO = re.compile(r"\bmy name(?:'s| is)?\s+(?P<name>[a-z][a-z'\-]{2,}(?:\s+(?!(?:and|from|here)\b)[a-z][a-z'\-]{2,})?)"
                         r"(?=\s*(?:[,.!;]|$|\n"
                         r"|\s+(?:and|i|from|here)\b))", re.I)
OTHER_INTRO_PHRASES = ("меня зовут", "je m'appelle", "je m’appelle", "me llamo", "mi nombre es", "ich heiße", "ich heisse",
                       "mi chiamo", "meu nome é", "eu me chamo", "nazywam się", "mijn naam is", "jag heter", "nimeni on")
OTHER_INTRO = Gated(re.compile(rf"(?:{'|'.join(OTHER_INTRO_PHRASES)})\s+"
                               rf"(?P<name>{CAP_NAME}|[А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)"
                               r"|(?:我叫|我的名字是|我是)(?P<han>[\u4e00-\u9fff]{2,3})(?=[，。,.!！\s]|$)"
                               r"|(?:私の名前は|私は|わたしは|僕は|俺は)(?P<ja>[\u4e00-\u9fff]{2,4}|[\u30a0-\u30ff]{2,8})"
                               r"(?=です|と申します|といいます|だ)"
                               r"|(?:제\s?이름은|내\s?이름은|저는)\s?(?P<ko>[가-힣]{2,4}?)(?=입니다|이에요|예요|이야|야\b)"
                               r"|\b(?:my name is|i am|i'm|call me|this is)\s+(?P<cyr>[А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)", re.I))
LIST = re.compile(rf"{CAP_NAME}(?:\s*,\s*{CAP_NAME})*\s*,?\s+(?:and|&|or|und|et|y|e)\s+{CAP_NAME}")
NER_LABELS_IN_CONTEXT = ("ORG", "GPE", "NORP", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "PERSON")
COMMON_ENDINGS = re.compile(r"(?:ing|ed|ous|ful|ible|able|ive|ant|ent|ly|ness|ment|tion)$")


def _plausible(value: str) -> bool:
    """No public figure, and no word that is never a name ("hey", "thanks", "captain"), unless after
    the first word it is a census surname ("my name is ayse king")."""
    words = [w.lower().strip(".,'’") for w in value.split()]
    return bool(words) and not is_public(value) and all(
        w not in NOT_NAMES or (k > 0 and words[0] not in NOT_NAMES and w in last_names()) for k, w in enumerate(words))


def name_context(text: str, start: int, end: int) -> str | None:
    """What in the words around ``text[start:end]`` says it is a person's name: ``intro``
    ("my name is", "X here"), ``relation`` ("my friend X"), ``greeting``, ``honorific``,
    ``verb`` ("says X", "X's daughter"), ``credit`` ("directed by X", "a fan of X": a public
    person); None when nothing does."""
    before, after = text[max(0, start - 60):start], text[end:end + 30]
    if _introduced(text, start, end, before):
        return "intro"
    if FIELD_END.search(before.rstrip()[-6:]) and FIELD.search(before) or record_field(text, start, end, phrases=False):
        return "field"  # "Name: X", "Attendees: Ana Ruiz, X"
    if NAMED.search(before):
        return "named"
    if RELATION.search(before) or RELATION_AFTER.match(after):
        return "relation"
    greeting = GREETING.search(before)
    if greeting and (not WEAK_GREETING.search(greeting.group()) or CLOSES_ADDRESS.match(after)):
        return "greeting"
    if _own_teacher(text, start, end, before, after):
        return "relation"  # the speaker's own teacher: a relation the title and the class say
    if HONORIFIC.search(before):
        return "honorific"
    if CREDIT_BEFORE.search(before) or CREDIT_AFTER.match(after):
        return "credit"
    if PERSON_VERB_BEFORE.search(before) or PERSON_AFTER.match(after):
        return "verb"
    return None


# A teacher's title before the name, or a class after its possessive ("Dr. Ball", "Griffith's class"), in a
# sentence about one's classes: the speaker's own teacher, a private person, as "my teacher X" says.
TEACHER_TITLE = re.compile(r"\b(?:professor|prof|dr|brother|sister|mr|mrs|ms|miss)\.?\s+$", re.I)
CLASS_AFTER = re.compile(r"^(?:['’]s?)?\s+(?:class|course|lecture|section|office\s+hours)\b", re.I)
CLASS_WORDS = re.compile(r"\b(?:class|classes|course|courses|lectures?|semester|section|midterms?|homework|syllabus"
                         r"|office\s+hours|teach(?:es|ing)?|taught|grad(?:ing|ed|es))\b", re.I)
SPEAKERS = re.compile(r"\b(?:i|i'm|im|my|me|we|our|us|you|your|u|ur)\b", re.I)


def _own_teacher(text: str, start: int, end: int, before: str, after: str) -> bool:
    """name_context's teacher: a title before the name or a class after its possessive, and a class word and
    the speakers ("I", "you", "my") in the 150 characters around it ("My favorite class is my Writings of
    Isaiah Class by Dr. Ball"; not "Dr. Seuss books are great for kids in class")."""
    if not (TEACHER_TITLE.search(before[-12:]) or CLASS_AFTER.match(after)):
        return False
    around = text[max(0, start - 150):start] + " " + text[end:end + 150]
    return CLASS_WORDS.search(around) is not None and SPEAKERS.search(around) is not None


def _introduced(text: str, start: int, end: int, before: str) -> bool:
    """name_context's "intro": "my name is X", "I'm X", or "X here" opening the turn (``before``: the 60
    characters before the span)."""
    return bool(INTRO.search(before) or (HERE_AFTER.match(text[end:end + 30]) and text[:start].strip() == ""))


def _may_be_relation_or_intro(text: str, start: int, end: int) -> bool:
    """A cheap necessary condition for name_context's "relation" or "intro" (their own tests; the
    kinds it tests first can only take their place)."""
    before, after = text[max(0, start - 60):start], text[end:end + 30]
    return (_introduced(text, start, end, before) or bool(RELATION.search(before)) or bool(RELATION_AFTER.match(after))
            or _own_teacher(text, start, end, before, after))


def record_field(text: str, start: int, end: int, phrases: bool = True) -> bool:
    """The span is listed in a record's field of people ("Attendees: Ana Ruiz, Tom Lee"), on its line;
    with ``phrases`` also after a phrase that says who a record is by or for ("Review by Tom Lee
    (verified buyer)", "ship it to Ana Ruiz, 4 Elm St")."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    labels = (PEOPLE_LABEL,) if ":" in before or "#" in before else ()  # a label ends in one of them
    fields = labels + (PEOPLE_PHRASE,) if phrases else labels
    return any(_names_only(before[m.end():]) for field in fields for m in field.finditer(before))


def _names_only(gap: str) -> bool:
    """Between a field and the span: capitalised words (initials too), name particles ("van der"),
    commas, "&" and "and" only."""
    return all(tok in {",", "&", "and"} or tok in PARTICLES or (tok[0].isupper() and not any(c.isdigit() for c in tok))
               for tok in GAP_TOKEN.findall(gap))


# "Zoolander is a 2001 American action-comedy film": a title, not a person
WORK_AFTER = re.compile(r"^\s+(?:is|was)\s+an?\s+(?:[\w-]+\s+){0,4}(?:film|movie|novel|book|song|album|series|show"
                        r"|game|play|opera|musical|band|comic|manga|anime|poem|painting|podcast|brand|company|app)\b",
                        re.I)


def no_private_name_here(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a work ("X is a film"), an identifier, an author cited, a script English
    NER cannot judge ("Оставляем только нужные столбцы"), someone asked about ("how old was X"), a
    bot, an organisation, a monarch or a book of the Bible."""
    return bool(WORK_AFTER.match(text[end:end + 80]) or looks_like_identifier(text[start:end])
                or CITATION.match(text[end:end + 8]) or not mostly_latin(text[start:end])
                or WHO_WAS.search(text[max(0, start - 170):start]) or BOT_AFTER.match(text[end:end + 16])
                or ORG_AFTER.match(text[end:end + 16])
                or REGNAL_AFTER.match(text[end:end + 16]) or BIBLE_REF.match(text[end:end + 10])
                or re.search(r"\bgospels?\s+(?:of|according\s+to)\s+$", text[max(0, start - 30):start], re.I))


def english_names(text: str, entities) -> list[NameSpan]:
    """PERSON spans from spaCy entities (``(start, end, label)``) and their context."""
    from builder.clean.word_kinds import kind_of

    out = []
    for start, end, label in entities:
        if label not in NER_LABELS_IN_CONTEXT:
            continue  # a date, a number, a language: never a name
        start = after_lead_words(text, start, end)  # "I'm Kenji", "Hey Ana": NER took the speaker's words
        possessive = POSSESSIVE_END.search(text[start:end])
        assert possessive is not None  # the pattern matches the empty string at the end
        end -= len(possessive.group())  # "John Smith's agent": the name, not its 's
        if GIVEN_NAME_AN.search(text[max(0, start - 4):start]) and CONSONANT_WORD.match(text, start):
            start -= 3  # "An Nguyen": "an" before a consonant is no article, "An" a given name
        elif " " not in text[start:end].strip() and INDEFINITE_BEFORE.search(text[max(0, start - 4):start]):
            continue  # "I need a Taylor to fix my suit": a name takes no "a"; a noun does
        if label != "PERSON" and not (_plausible(text[start:end]) and name_like(text[start:end])):
            continue  # the cheap tests before the context's (most of the cost: every ORG and GPE)
        if no_private_name_here(text, start, end):
            continue
        kind = name_context(text, start, end)
        if label == "PERSON" and not kind and not name_like(text[start:end]):
            continue  # "Camera Type": NER alone, every word an English word and none a first name
        if label == "PERSON":
            out.append((*with_titles(text, start, end), "PERSON", 0.85, f"ner+{kind}" if kind else "ner"))
        elif kind not in (None, "credit"):
            # a credit says a maker of works, public: it makes no title or band a person ("X-men movies")
            out.append((*with_titles(text, start, end), "PERSON", 0.85, f"ner+{kind}"))
    for m in re.finditer(CAP_NAME, text):  # names NER missed, in an unmistakable context
        start, end = m.start(), m.end() - 2 if m.group().endswith(("'s", "’s")) else m.end()  # "Daniel's place"
        start = _after_sentence_word(text, start, end)
        value = text[start:end]
        if not _plausible(value) or looks_like_identifier(value):
            continue
        like = name_like(value)
        if not like and not _may_be_relation_or_intro(text, start, end):
            continue  # what follows needs a name-like word or one of these two contexts: skip the context's cost
        kind = name_context(text, start, end)
        if not like and not (kind in ("relation", "intro") and all(
                kind_of(w.strip(".,'’")) == "person" for w in value.split())):
            # "reply to Stack Overflow": every word a dictionary word, none a name. After "my ex" or "I'm",
            # a word whose vectors sit with people's names is one ("my ex Oni", "my sister Rose")
            continue
        if kind not in (None, "credit"):
            out.append((*with_titles(text, start, end), "PERSON", 0.82, f"context+{kind}"))
        elif kind is None and full_name_shape(value) and not no_private_name_here(text, start, end) and not any(
                a < end and start < b and label in PLACE_LABELS or a <= start < b and label in BRAND_LABELS
                for a, b, label in entities):
            out.append((*with_titles(text, start, end), "PERSON", 0.82, "full_name"))
    out += first_person_names(text, entities, out)
    return out + list_names(text, out)


def _after_sentence_word(text: str, start: int, end: int) -> int:
    """Where a capitalised run before an appositive relation starts once the English word that opens its
    sentence is left out ("Like Isaac Richards, a friend of mine": "Like" is capitalised as the sentence's
    first word); a known first name stays ("Rose Smith, my teacher")."""
    from builder.clean.truecase import is_english_word

    first = re.match(r"[^\W\d_]+[ \t]+", text[start:end])
    if first is None or first.end() >= end - start or not RELATION_AFTER.match(text[end:end + 60]):
        return start
    word = first.group().strip().lower()
    opens = re.search(r"(?:^|[.!?\n][ \t\"“]*)$", text[:start]) is not None
    return start + first.end() if opens and word not in first_names() and is_english_word(word) else start


POSSESSIVE_END = re.compile(r"(?:(?<=\w)['’]s|(?<=s)['’])?\Z")  # always matches (maybe empty)
PLACE_LABELS = ("GPE", "LOC", "FAC", "NORP")
BRAND_LABELS = ("ORG", "PRODUCT")  # NER reads the first name into a brand: "Mercedes Benz", "Louis Vuitton"


def full_name_shape(value: str) -> bool:
    """A first and a last name, as NER misses them in chat or takes them for a work in quotes ('signed
    the card "Daniel Klemczak"', "send it to Jean Halder"): two or three capitalised words, the first
    a known first name (US census) and the last no English word but a known last name (US census) or
    a word the NER model has never read (unseen_word); or, mirrored, a first word the NER model has
    never read and a known last name. ("Teresa White", "Austin Texas", "Les
    Miserables" are not taken: the last word is a word, the pair a place NER names, a title's word;
    nor "Mercedes Benz", which NER reads as a brand from its first word.)"""
    from builder.clean.truecase import is_english_word

    words = value.split()
    if not (2 <= len(words) <= 3 and all(w[:1].isupper() and w[1:].islower() for w in words) and len(words[-1]) >= 3):
        return False
    if words[0].lower() in first_names():
        return not is_english_word(words[-1]) and (words[-1].lower() in last_names() or unseen_word(words[-1]))
    # ... or the mirror: a first name neither the census nor the NER model knows, then a census last name
    # ("Kiaan Newman", "Pesent Collins")
    return (words[-1].lower() in last_names() and len(words[0]) >= 3 and not is_english_word(words[0])
            and unseen_word(words[0]))


def unseen_word(word: str) -> bool:
    """A word the NER model's vocabulary has no vector for: a rare name ("Klemczak"), not a title's
    or a place's word it has read often ("Les Miserables", "Monte Cristo")."""
    from builder.clean.recognizers import load_ner

    vocab = load_ner().vocab
    return not (vocab.has_vector(word) or vocab.has_vector(word.lower()))


# Closed-class words before a place or an organisation ("to Kraków", "at Nvidia"), not a person.
LOCATIVE_BEFORE = re.compile(r"\b(?:in|at|on|over|along|past|up|down|to|from|of|near|into|across|around|towards?|through|via|outside|inside|visit"
                             r"|visited|visiting|across|within|throughout|between)\s+$", re.I)


# An article or a possessive, then at most two lower-case words ("the old Tsukiji", "our new Kivik"):
# a thing or a place (a relation, "my best friend Jovana", is the relation cue's); "by" credits a work.
THING_BEFORE = re.compile(r"\b(?:this|that|these|those|a|an|the|my|your|our|their|its|his|her)\s+(?:[a-z][\w'-]*\s+){0,2}$"
                          r"|\b(?:by|inspired\s+by|like)\s+$", re.I)
BENEFICIARY_BEFORE = re.compile(r"\bfor\s+$", re.I)  # "a recommendation for Darnell Washington": for whom, no thing
LIST_BEFORE = re.compile(r"(?:[A-Z][\w'’-]*[ \t]*(?:,|&|\band\b)[ \t]*)*$")  # the list items before a name
THING_AFTER = re.compile(r"^\s*(?:\d|gmbh\b|ag\b|s\.?a\.?\b|ltd\b|inc\b|llc\b|corp\b|plc\b|co\.)", re.I)  # "Chandrayan 3"
AUTHOR_AFTER = re.compile(r"^,?\s+(?:[A-Z]\.\s?){1,3}(?:[,(&]|$)|^\s*\(\d{4}\)|^,\s+\d{4}\b")  # "Moser, K. (2009)"


def english_sentence(text: str, start: int, end: int) -> bool:
    """Most words of the sentence around the span are English words (German capitalises every
    noun; a Spanish or Polish sentence inside an English turn is no place for this guess)."""
    from builder.clean.sentence import bounds
    from builder.clean.truecase import is_english_word

    left, right = bounds(text, start, end)
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", (text[left:start] + " " + text[end:right]).lower())
    english = [w.isascii() and (is_english_word(w) or is_english_word(w.split("'")[0]) or w in CHAT_WORDS
                                or w in GREETING_SLANG)
               for w in (w.replace("’", "'") for w in words)]  # "été" is no English word; "what's", "wussup" and "lol" are
    return sum(english) >= 0.75 * len(words) if len(words) >= 3 else all(english)  # "Hi Elena!": one word


def first_person_names(text: str, entities, found: list) -> list[NameSpan]:
    """Proper names NER missed, in a sentence where the user speaks of their own world ("I broke
    up with Marek last month"): capitalised words inside the sentence (its first word only when it is a
    person's name: "Amara won't stop talking about her new job, I'm happy for her"; not after an
    article or a possessive unless "for" names whom), none of them an English word, that NER labelled as no
    product or work; one word alone only when it is a known first name or the NER's word vectors
    place it among people's names (word_kinds.py): "I was considering Rexburg" is a town. Grammar decides, not a list of situations: first person
    (builder/clean/sentence.py) plus the shape of a name that is no dictionary word."""
    from builder.clean.sentence import bounds, own_world
    from builder.clean.truecase import is_english_word

    from builder.clean.word_kinds import kind_of, product

    other = [(s, e) for s, e, label in entities if label not in ("PERSON", "GPE", "ORG", "NORP", "LOC")]
    blocked = other + [(f[0], f[1]) for f in found]
    out = []
    for m in re.finditer(rf"(?<![\w'’-]){CAP_NAME}", text):
        start, end = m.start(), m.end()
        words = [w.strip(".,'’\"") for w in m.group().split()]
        if any(is_english_word(w.lower()) or w.lower() in NOT_NAMES for w in words):
            continue  # the cheap test first: most capitalised words are English words ("The", "Python")
        if any(s < end and start < e for s, e in blocked) or re.match(r"[-'’]\w", text[end:end + 2]):
            continue  # "AI-generated", "Isn't", "Wynwood's": a word part, not a name
        if (AUTHOR_AFTER.match(text[end:end + 12]) or THING_AFTER.match(text[end:end + 12])
                or not english_sentence(text, start, end)):
            continue
        left, _ = bounds(text, start, end)
        head = text[left:start]
        listed = LIST_BEFORE.search(head)
        assert listed is not None  # the pattern matches the empty string at the end
        head = head[:len(head) - len(listed.group())] or head  # "inspired by Wallace & Gromit"
        person_word = words[0].lower() in first_names() or kind_of(words[0]) == "person"
        if ((not head.strip() and not person_word) or re.search(r"[\"“'‘(:#@/*]\s*$|\s[-–—]\s+$", head)
                or THING_BEFORE.search(head[-30:]) and not BENEFICIARY_BEFORE.search(head[-6:])
                or LOCATIVE_BEFORE.search(head[-14:]) or re.search(r"(?:^|\s)[A-Z][\w&'’.-]*\s+$", head)):
            continue  # "the old Tsukiji market", "inspired by Wallace", "IKEA Kivik": a place, a work, a product
        if (is_public(m.group()) or looks_like_identifier(m.group()) or not mostly_latin(m.group()) or any(product(w) for w in words)):
            continue
        if own_world(text, start, end) and (len(words) > 1 or person_word):
            out.append((*with_titles(text, start, end), "PERSON", 0.82, "first_person"))
    return out


INDEFINITE_BEFORE = re.compile(r"(?:^|\s)(?:a|an)\s+$", re.I)
GIVEN_NAME_AN = re.compile(r"(?:^|\s)An $")  # English writes "a" before a consonant: "An Nguyen" is a name
CONSONANT_WORD = re.compile(r"[B-DF-GJ-NP-TV-Z][a-z]")  # not "An Honest", "An FBI agent"
CITATION = re.compile(r"^,?\s+et\s+al\b")  # "(Qiu et al., 2021)": authors of a public paper
REGNAL_AFTER = re.compile(r"^\s+(?:[IVX]{1,5}\b|the\s+(?:great|elder|younger)\b)")  # "Gustav III": a monarch
BIBLE_REF = re.compile(r"^\s+\d{1,3}:\d{1,3}")  # "Matthew 4:1-11": a book of the Bible
ORG_AFTER = re.compile(r"^\s+(?:dynasty|empire|kingdom|order|entertainment|inc|ltd|llc|corp|university|college"
                       r"|school|church|garden|gardens|street|road|river|mountain|island|lake|group|company|foundation)\b",
                       re.I)  # "the Shang Dynasty", "Corus Entertainment"
BOT_AFTER = re.compile(r"^\s+(?:assistant|bot|ai|gpt|mode)\b", re.I)  # "Jail-Broke Assistant:" is a persona
# "Who were Atatürk, Tito and Lee Kuan Yew?": asking who someone is means a public figure.
WHO_WAS = re.compile(r"\b(?:who|how\s+old)\s+(?:is|was|were|are)\b[^?.!\n]{0,160}$|\b(?:biography|life)\s+of\s+$",
                     re.I)


@functools.cache
def _census(name: str) -> frozenset[str]:
    path = Path(__file__).with_name(name)
    return frozenset(line.strip() for line in path.read_text().splitlines() if line and not line.startswith("#"))


def first_names() -> frozenset[str]:
    return _census("first_names.txt")


def last_names() -> frozenset[str]:
    return _census("last_names.txt")


MONTHS = frozenset("january february march april may june july august september october november december".split())


def lower_case_first_name(word: str) -> bool:
    """A lower-case word that is a known first name and, as an English word, only a noun ("sarah",
    "tyler", "mike": WordNet lists people and things by those names): in the slot of a name it is
    one. A first name that is also a verb, an adjective or a stop word ("mark", "grace", "will"),
    or a month, stays a word."""
    from builder.clean.truecase import at_most_a_noun

    w = word.lower()
    return w in first_names() and w not in MONTHS and len(w) >= 3 and at_most_a_noun(w)


def lower_case_name(value: str) -> bool:
    """"sarah", "sarah kowalczyk": a lower-case first name (lower_case_first_name), then words that
    are no English words."""
    from builder.clean.truecase import is_english_word

    first, *rest = value.split() or [""]
    return lower_case_first_name(first) and not any(is_english_word(w) for w in rest)


def census_name(value: str) -> bool:
    """Some word of ``value`` is a known first or last name."""
    words = [w.strip(".,'’\"").lower() for w in value.split()]
    return any(w in first_names() or w in _census("last_names.txt") for w in words)


def name_like(value: str) -> bool:
    """A word that is not an English word, or a known first or last name (US census lists)."""
    from builder.clean.truecase import is_english_word

    words = [w.strip(".,'’\"").lower() for w in value.split()]
    return any(w and (w in first_names() or w in _census("last_names.txt") or not is_english_word(w)) for w in words)


PARTICLES = frozenset("van von de da del der di du la le bin al ibn ben bint dos das y e".split())
DETERMINER_BEFORE = re.compile(r"\b(?:this|that|these|those|a|an|the|my|your|our|their|its)\s+$", re.I)
# the name word beside a span, over the particles between them ("Derrick de la [Garza]"); "y" and "e"
# are also "and" ("Juan y Sevilla", "Nadal e Federer"), so they join nothing
PARTICLES_RE = "|".join(sorted(PARTICLES - {"y", "e"}, key=len, reverse=True))
NEXT_NAME_WORD = re.compile(rf"(?P<particles>(?:[ \t]+(?:{PARTICLES_RE})){{0,3}})[ \t]+(?P<word>[{UPPER}][{LOWER}'’\-]{{1,}}"
                            rf"(?:[{UPPER}][{LOWER}]+)?)(?![\w])")
PREV_NAME_WORD = re.compile(rf"(?<![\w.])(?P<word>[{UPPER}][{LOWER}'’\-]{{1,}}(?:[{UPPER}][{LOWER}]+)?)"
                            rf"(?P<particles>(?:[ \t]+(?:{PARTICLES_RE})){{0,3}})[ \t]+$")


def whole_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span widened over the capitalised name words right beside it on the same line
    ("Pierpaolo" before a found "Rossi"): half a name left behind still says who it was. A word
    joins when it is a known first or last name or no English word, and not a stop or chat word
    nor the first word of a sentence that is an English word."""
    from builder.clean.truecase import is_english_word

    def joins(word: str, sentence_start: bool, over_particles: str = "", census: frozenset = frozenset()) -> bool:
        low = word.lower().strip("'’")
        known = low in first_names() or low in _census("last_names.txt")
        if low in NOT_NAMES or is_public(word) and not known:
            return False  # a public word joins only as a surname people have ("Darnell Washington")
        if greeting_word(low):
            return False  # "Hola Luisa": the greeting is not her first name (a census name greets too: "Elaine Chao")
        if over_particles.strip():  # "Messi de la Argentina", "Maria de Janeiro": only a name joins over "de la"
            return low in census
        return known and not (sentence_start and is_english_word(low)) or not is_english_word(low)

    if is_public(text[start:end]):
        return start, end  # a well-known name is whole as found
    while True:
        m = NEXT_NAME_WORD.match(text, end)
        if not m or not joins(m.group("word"), False, m.group("particles"), last_names()):
            break
        end = m.end("word")
    while True:
        m = PREV_NAME_WORD.search(text, max(0, start - 60), start)
        if not m:
            break
        head = text[max(0, m.start("word") - 3):m.start("word")]
        if DETERMINER_BEFORE.search(text[max(0, m.start("word") - 8):m.start("word")]):
            break  # "this Fender …": a word after a determiner names a thing, not the person's first name
        if not joins(m.group("word"), not head.strip() or bool(re.search(r"[.!?:\n]\s*$", head)), m.group("particles"),
                     first_names()):
            break
        start = m.start("word")
    return start, end


NEXT_LOWER_WORD = re.compile(rf"[ \t]+([{LOWER}][{LOWER}'’\-]+)(?![\w])")


def unknown_name_word(word: str) -> bool:
    """A lower-case word that may be a surname no list knows: no English word, of four letters or more with a
    vowel ("kowalski"; not "tmrw", "ngl"), or of any length with an accent ("carl bùi", "an lê": no slang)."""
    from builder.clean.truecase import is_english_word

    return not is_english_word(word) and (len(word) >= 4 and re.search(r"[aeiouyà-öø-ÿ]", word) is not None
                                          or not word.isascii())


def whole_lower_case_name(text: str, start: int, end: int) -> tuple[int, int]:
    """A lower-case first name widened over the surname typed after it ("magdalena van der linde",
    "ksenia abernathy"): particles before a surname, known last names that are at most nouns
    ("smith", not "said") and words of four letters or more, with a vowel, that are no English words
    join ("tmrw", "ngl" do not), and so do shorter ones with an accent ("carl bùi")."""
    from builder.clean.truecase import at_most_a_noun

    at = end
    while True:
        m = NEXT_LOWER_WORD.match(text, at)
        if not m:
            break
        word = m.group(1).strip("'’")
        possessive = word.endswith(("'s", "’s"))
        word = word[:-2] if possessive else word
        if word in PARTICLES:
            at = m.end(1)  # "van der" joins only with the surname after it
            continue
        if word in NOT_NAMES or not ((word in _census("last_names.txt") and at_most_a_noun(word)) or unknown_name_word(word)):
            break  # "said", "young": census surnames that are verbs or adjectives in lower case
        at = end = m.end(1) - (2 if possessive else 0)
        if possessive:
            break
    while end > start and text[end - 1] in "'’-":
        end -= 1
    return start, end


def trim_lower_case(text: str, start: int, end: int) -> tuple[int, int]:
    """The capitalised words of an NER span in a turn that capitalises ("with amasing bread",
    "ins imple eng - Whether"): whoever capitalises anything capitalises names, so lower-case
    words (name particles aside) are not part of one. Keeps the longest run of capitalised
    words; an empty span when there is none."""
    words = list(re.finditer(r"\S+", text[start:end]))
    if any(c.isdigit() for w in words for c in w.group()):
        return start, end  # "Chandrayan 3", "Vol. 2": a span with digits is for keep_span to judge
    runs: list[list[tuple[int, int]]] = []
    run: list[tuple[int, int]] = []
    for m in words:
        word = m.group().strip(".,'’\"")
        if word[:1].isupper() or (run and word.lower() in PARTICLES):
            run.append((start + m.start(), start + m.end()))
        else:
            if run:
                runs.append(run)
            run = []
    if run:
        runs.append(run)
    if not runs:
        return start, start
    best = max(runs, key=lambda r: r[-1][1] - r[0][0])
    while best and text[best[-1][0]:best[-1][1]].lower() in PARTICLES:
        best = best[:-1]
    return (best[0][0], best[-1][1]) if best else (start, start)


IDENTIFIER = re.compile(r"[a-z][A-Z]|[_<>=(){}\[\]/\\|]|\.[a-z]")
NAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|Du|Le|La|Van|Von|O'|O’|D'|D’)(?=[A-Z])")


def looks_like_identifier(value: str) -> bool:
    """``TextField``, ``radius_manager``, ``obj.name``: code, not a person ("McDonald",
    "DeRose" and "PhD" are not code)."""
    return any(IDENTIFIER.search(NAME_PREFIX.sub("", word)) for word in value.split() if word not in ("PhD",))


TITLE_BEFORE = re.compile(r"\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|dame|rev|fr)\.?\s+$", re.I)
TITLE_AFTER = re.compile(r"^,?\s+(?:jr|sr|phd|md|dds|esq|ii|iii|iv)\b\.?", re.I)


def with_titles(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a name over its honorific and suffix ("Mr. John Hansen Jr."): a title next to a
    redacted name says who it was just as well."""
    before = TITLE_BEFORE.search(text[max(0, start - 8):start])
    if before:
        start -= len(before.group())
    after = TITLE_AFTER.match(text[end:end + 8])
    return start, end + (after.end() if after else 0)


ADDRESSEE_BEFORE = re.compile(rf"\b(?:to|for|attn\.?|c/o)[ \t]+(?P<name>{CAP_NAME}),[ \t]*$", re.I)
ADDRESS_LINE = re.compile(r"(?:^|\n)[ \t>*?]*(?P<name>" + CAP_NAME + r")[ \t]*$")


def address_block_names(text: str, streets: list[tuple[int, int]]) -> list[NameSpan]:
    """The addressee lines just above a street ("Haley Fukunaga\nMuckrock Inc\n60 Main St")."""
    out = []
    for start, _ in streets:
        inline = ADDRESSEE_BEFORE.search(text, max(0, start - 60), start)  # "ship it to Nnamdi Lemaire, Flat 9, ..."
        if inline and _plausible(inline.group("name")) and name_like(inline.group("name")):
            out.append((inline.start("name"), inline.end("name"), "PERSON", 0.8, "address_block"))
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip(" \t>*?"):
            continue  # the street does not start its line: no block above it
        cut = line_start - 1
        for _ in range(2):
            m = ADDRESS_LINE.search(text, max(0, cut - 60), max(0, cut))
            if not m or not _plausible(m.group("name")):
                break
            out.append((m.start("name"), m.end("name"), "PERSON", 0.8, "address_block"))
            cut = m.start("name") - 1
    return out


def list_names(text: str, found: list[NameSpan]) -> list[NameSpan]:
    """The other items of a list that holds a found name: "Emily, <PERSON> and Gloria". Where two
    items or more are found names, an item that is also a word is a name too ("<PERSON>, Kat, and
    <PERSON>"), unless it reads as a place or a product."""
    from builder.clean.word_kinds import kind_of

    people = [(f[0], f[1]) for f in found if f[2] == "PERSON"]
    out = []
    for m in LIST.finditer(text):
        if not any(s < m.end() and m.start() < e for s, e in people):
            continue
        items = [item for item in re.finditer(CAP_NAME, m.group()) if item.group().lower() not in ("and", "or")]
        names = sum(name_like(item.group()) for item in items)
        for item in items:
            value = item.group()
            if _plausible(value) and (
                    name_like(value) or names >= 2 and " " not in value and kind_of(value) not in ("place", "product")
                    and not is_public(value)):
                out.append((m.start() + item.start(), m.start() + item.end(), "PERSON", 0.82, "list"))
    return out


LATIN = "a-zß-öø-ÿ\u0100-\u017f"  # Latin letters with their accents ("bjørn", "łukasz", "szabó")
LOWER_WORD = rf"(?P<name>[{LATIN}][{LATIN}']{{2,}}(?:-[{LATIN}]{{2,}})?)(?![’'\w-])"
# Cues people type in lower case before a name: a self-introduction, a greeting or thanks that
# ends the sentence, a relation ("i'm lucia", "thanks, oleksandr", "my brother priya says hi").
_CHAT_AFTER = "lol|lmao|haha|hehe|xd|btw|tbh|omg"  # chat words that close a clause as a full stop does ("im sandra lol")
LOWER_CUES = (
    ("intro", re.compile(rf"\b(?:i'?m|i\s+am|this\s+is|call\s+me|it'?s\s+me),?\s+{LOWER_WORD}(?=(?:[ \t]+[{LATIN}][{LATIN}']{{2,}})?"
                         rf"\s*(?:[,.!?;:)…]|$|\n|\s+(?:and|from|here|btw|by\s+the\s+way|{_CHAT_AFTER})\b))", re.I)),
    ("greeting", re.compile(rf"(?:^|[\n.!?]\s*)(?:hi|hello|hey|heya|thanks|thank\s+you|thx|ty|bye|cheers|dear"
                            rf"|good\s+(?:morning|night|evening))\s*,?\s+{LOWER_WORD}"
                            rf"(?=(?:[ \t]+[{LATIN}][{LATIN}']{{2,}})?\s*(?:[,.!?;:)…]|$|\n))",
                            re.I)),
    ("relation", re.compile(rf"\b(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?(?:ex-?)?(?:{REL_WORDS}),?\s+{LOWER_WORD}", re.I)),
    # the subject of what only a person does, opening a sentence: "hamid just called", "wojtek broke his
    # arm" (a known first name or a word whose vectors sit with people's names; no product: "chatgpt said")
    ("subject", re.compile(rf"(?:^|[\n.!?]\s*|\b(?:so|and|but|ok|okay|lol|omg|ugh|anyway|yesterday|today),?\s+)"
                           rf"{LOWER_WORD}\s+(?:just\s+|finally\s+|also\s+|still\s+|never\s+|literally\s+)?"
                           r"(?:said|says|told|tells|texted|called|asked|wants|wanted|tried|broke|forgot|bought|cooked"
                           r"|sent|gave|keeps|kept|is\s+(?:coming|waiting|getting|going|visiting)|was\s+(?:there|here))\b",
                           re.M)),
)
RELATION_NOUN = re.compile(rf"(?:(?:my|our|your|his|her|their)\s+)?(?:(?:best|old|close|dear|little|big)\s+)?(?:ex-?)?"
                           rf"(?:{REL_WORDS})\s+", re.I)


_RELATION_WORD = re.compile(rf"(?:ex-?)?(?:{REL_WORDS})", re.I)


def relation_word(word: str) -> bool:
    """A word that names how someone is related to the writer ("sister", "roommate", "bf"): never part of
    the name after it ("my sister keisha")."""
    return _RELATION_WORD.fullmatch(word) is not None


def after_relation_noun(text: str, start: int, end: int) -> int:
    """Where the name starts in an NER span that took the relation noun before it ("friend ayesha
    moreno-vidal", "my sister priya": NER read the truecased "Friend Ayesha Moreno-Vidal"); ``start``
    when it took none."""
    m = RELATION_NOUN.match(text, start, end)
    return m.end() if m and text[start].islower() and m.end() < end else start


# A name never starts with the speaker's own words: NER reads "I'm Kenji", "Hey Ana" or "gracias maca" as one
# name (the greetings are nicknames.py's).
# A greeting that is also a census name ("Ty Cobb", "Chao Li") starts a name unless a comma or "!" ends it.
_NAME_GREETING = "|".join(sorted(LEADING_GREETING_NAMES))
LEAD_WORDS = re.compile(rf"(?:(?:(?:i['’]?m|i\s+am|dear|yo|(?!(?:{_NAME_GREETING})\b)(?:{GREETINGS}))\b[,!]?"
                        rf"|(?:{_NAME_GREETING})\b[,!])\s+)+(?=[^\W\d_])", re.I)


def after_lead_words(text: str, start: int, end: int) -> int:
    """Where the name starts in an NER span that took a self-introduction or a greeting before it
    ("I'm Kenji", "Hey Ana"); ``start`` when it took none."""
    m = LEAD_WORDS.match(text, start, end)
    return m.end() if m and m.end() < end else start


CONJUNCTIONS = frozenset("and but or so from here btw i".split())  # "im ksenia and i ...": the name ends there
LOWER_SURNAME = re.compile(rf"[ \t]+([{LATIN}][{LATIN}']{{2,}}(?:-[{LATIN}]{{2,}})?)(?![’'\w-])")
GREETING_SLANG = frozenset("sup wussup wassup whassup yo heyy heyyy hiii".split())
CHAT_WORDS = frozenset("bruh bro fam homie sis bestie chief buddy dawg dude mate gonna wanna gotta tryna kinda sorta "
                       "lol lmao haha hehe omg idk tbh btw pls plz thx ty np yep nope yeah yea nah ok okay oops "
                       "hurray ugh hmm hmmm wow yay yikes woah whoa ooh aww meh".split())


def lower_case_names(text: str) -> list[NameSpan]:
    """Lower-case names after a cue (``LOWER_CUES``): a word that is no English word nor chat word,
    or a known first name that is no English word ("lucia", "oleksandr"; never "fine" or "bruh")."""
    from builder.clean.truecase import is_english_word
    from builder.clean.word_kinds import kind_of, product

    out = []
    for kind, pattern in LOWER_CUES:
        for m in pattern.finditer(text):
            name = m.group("name")
            if (not name.islower() or name in CHAT_WORDS or name in NOT_NAMES
                    or any(is_english_word(part) for part in name.split("-"))
                    and not (kind in ("relation", "intro") and lower_case_first_name(name))):
                continue  # "my brother mike", "i'm magdalena": there a first name that is only a noun is one
            if kind == "subject" and (product(name.title()) or is_public(name) or not (
                    name in first_names() or kind_of(name.title()) == "person")):
                continue
            end = m.end("name")
            after = LOWER_SURNAME.match(text, end)
            if (kind not in ("relation", "subject") and after and is_english_word(after.group(1)) and name not in first_names()
                    and after.group(1) not in CONJUNCTIONS and after.group(1) not in CHAT_WORDS):
                continue  # "i'm sooo tired": an unknown word before an English one is slang, not a name
            for more in LOWER_SURNAME.finditer(text, end):  # "lucia garcia": the surname goes too
                word = more.group(1)
                if more.start() != end or word in CHAT_WORDS or is_english_word(word):
                    break
                end = more.end()
            _, end = whole_lower_case_name(text, m.start("name"), end)  # "sandra salinas", "john de la garza"
            out.append((m.start("name"), end, "PERSON", 0.85, "lower_cue"))
    return out


def _title_follows(text: str, at: int) -> bool:
    """"08:30 Ultimate Spider-Man: Back In Black": title-case words after the colon are a
    programme's subtitle (a schedule), not a chat message."""
    line = text[at:text.find("\n", at) if "\n" in text[at:] else len(text)]
    words = re.findall(r"[^\W\d_][\w'’-]*", line)[:4]
    content = [w for w in words if w.lower() not in ("to", "of", "the", "a", "an", "in", "at", "and", "on")]
    return len(words) >= 2 and words[0][0].isupper() and all(w[0].isupper() for w in content)


# -- vocatives: the name a speaker calls the other by -------------------------------------------
# People address each other by name at the edges of a clause, set off by a comma or a greeting:
# "Brooke, how's life?", "Any luck, Adam?", "what about you noelle?", "hey again keena". The slot
# says "a person's name" in any chat, whoever types it; the word must still look like a name.
VOC_NAME = rf"(?P<name>[{UPPER}{LOWER}][{LOWER}'’-]{{1,}}|[A-Z]{{4,6}})"
VOC_END = r"(?=[ \t]*(?:[.!?,;:)…]|$|\n))"
VOCATIVE_SLOTS: tuple[re.Pattern | Gated, ...] = (  # (the slots with cue words are tried only where their gate finds one: alternation.py)
    Gated(re.compile(rf"(?:^|[.!?][ \t]+|\n)[ \t]*(?:so|and|well|ok|okay|oh),?[ \t]+{VOC_NAME}[ \t]*,[ \t]*\w",
                     re.I | re.M)),
    re.compile(rf"(?:^|[.!?][ \t]+|\n)[ \t]*{VOC_NAME}[ \t]*,[ \t]*\w", re.M),  # (a known name only)
    re.compile(rf",[ \t]*{VOC_NAME}(?=[ \t]*(?:[.!?…]|$|\n))"),  # at the sentence's end: ", numbers," is a list
    Gated(re.compile(rf"\b(?:hi|hey|hello|heya|hiya|yo|sup|wussup|wassup|whassup|wh?at'?s\s+up|what\s+up|howdy|thanks|thank\s+you|thx|bye|goodbye"
                     rf"|good\s+(?:morning|afternoon|evening|night)|congrats|welcome(?:\s+back)?)(?:[ \t]+(?:again|there|back))?"
                     rf"[ \t]*,?[ \t]+{VOC_NAME}(?![\w'’-])", re.I)),
    Gated(re.compile(rf"\b(?:about|and|thank|to|for|with)\s+you,?[ \t]+{VOC_NAME}{VOC_END}", re.I)),
    re.compile(rf"(?:^|[.!?][ \t]+|\n)[ \t]*{VOC_NAME}[ \t]*!+[ \t]*\w", re.M),  # "Scott!!! long time" (a census name only)
    # A sentence opened by the name and then "you": "collin you really rock that beanie", "Maddy you're right".
    re.compile(rf"(?:^|[.!?][ \t]+|\n)[ \t]*{VOC_NAME}[ \t]*,?[ \t]+(?:you|u|ur|you'?re|youre|you’re)\b(?![’'-])", re.M),
    # A line that is the name alone, capitalised, after an interjection at most: "Kelley!", "yeah Emily"
    # (these two slots take a known first name only; the line is no answer to a question: see _answer).
    re.compile(rf"^[ \t]*(?:(?i:yeah|yea|yes|ok|okay|oh|hey|lol|haha|omg|wait|dude|bro)[ \t]*,?[ \t]+)?{VOC_NAME}"
               rf"[ \t]*[.!?…]*[ \t]*$", re.M),  # (capitalised: see vocative_names)
)
VOCATIVE_YOU, VOCATIVE_LINE = 6, 7  # the slots' positions above
INTERJECTIONS = frozenset("jesus god gosh lord christ man dude bro sis oh wow dang darn geez jeez yay yes no yeah yep nope "
                          "sure well okay ok hey hi hello thanks please sorry lol haha hahaha hehe omg guys everyone "
                          "everybody all friend friends buddy pal sir madam maam ma'am mate folks team there".split())


def _vocative_word(word: str) -> bool:
    """A word in a vocative slot that is a name: a known first name (even "Nick" or "Jade": the slot
    vouches for it), or no English word, chat word, interjection, product or public name."""
    from builder.clean.truecase import is_english_word
    from builder.clean.word_kinds import product

    low = word.lower().strip("'’")
    if len(low) < 2 or low in INTERJECTIONS or low in CHAT_WORDS or low in NOT_NAMES or is_public(word):
        return False
    if low in NOT_ADDRESSEES and not (word[0].isupper() and low in first_names()):
        return False  # "good morning, sunshine": a term of address (nicknames.py's); "Hi Cara!" is a name
    if low in first_names():
        return True
    forms = {low, re.sub(r"(?:es|s|ed|ing|ly)$", "", low), re.sub(r"s$", "", low)}  # "numbers" is a word too
    return (len(low) >= 3 and "-" not in low and not any(is_english_word(f) for f in forms if len(f) >= 3)
            and not product(word.title()) and not looks_like_identifier(word))


def _answer(text: str, start: int) -> bool:
    """The text before the line at ``start`` (within the turn) ends with a question mark."""
    before = text[:start].rstrip()
    return before.endswith("?")


def vocative_names(text: str) -> list[NameSpan]:
    """Names in a vocative slot (see VOCATIVE_SLOTS) of an English sentence, in any case. Set off by
    commas ("Brooke, how's life?", "Any luck, Adam?") only a known first name or a word whose vectors
    sit with people's names counts ("Sure," and "..., illuminati" stand there too); after a greeting
    or "you" any name-like word does ("hey keena", "what about you noelle?")."""
    from builder.clean.truecase import is_english_word
    from builder.clean.word_kinds import kind_of

    out = []
    for k, pattern in enumerate(VOCATIVE_SLOTS):
        for m in pattern.finditer(text):
            word = m.group("name")
            if k in (VOCATIVE_YOU, VOCATIVE_LINE) and word.lower() not in first_names():
                continue  # "Hvae you heard", "Ooof.", "Yuck": the opener and the line take a known first name only
            if not english_sentence(text, m.start("name"), m.end("name")):
                continue  # "Luca, der Blitz,": the slots are English grammar
            if k not in (3, 4) and word.lower() not in first_names() and (k == 5 or kind_of(word.title()) != "person"):
                continue  # only a greeting or "you ..." vouches for an unknown word ("hey keena")
            if k == VOCATIVE_LINE and (_answer(text, m.start()) or not word[0].isupper()):
                continue  # "who's your favourite? / LeBron!": an answer; "merlin" alone on a line: a word
            if k == 5 and (not word[0].isupper() or word.lower() in SEASONS
                           or is_english_word(word) and not lower_case_first_name(word)):
                continue  # "Merry!! christmas", "Hope! this helps": a census name that is also a verb or an adjective
            if _vocative_word(word):
                basis = "vocative_greeting" if k == 3 else "vocative"  # "Hi Elena!": a greeting word says it
                out.append((m.start("name"), m.end("name"), "PERSON", 0.85, basis))
    return out


EMAIL = re.compile(r"(?<![\w.+-])(?P<local>[A-Za-z][\w.+-]*)@[\w-]+(?:\.[\w-]+)+")


def email_owner_names(text: str) -> list[NameSpan]:
    """The words of an e-mail's local part written out as a name in the same turn: "john burton,
    09/22/1988, john.burton@gmail.com" (the address says whose the name is, in any case). Two
    words or more, or one that is a known first name."""
    out = []
    for m in EMAIL.finditer(text):
        parts = [p for p in re.split(r"[._+\-\d]+", m.group("local").lower()) if len(p) >= 2]
        if not parts or any(p in ROLE_WORDS or not name_like(p) for p in parts):
            continue  # customer.service@, no.reply@, mark.done@: a role or words, not a person
        if len(parts) == 1 and parts[0] not in first_names():
            continue
        words = r"[ \t]+".join(re.escape(p) for p in parts)
        for hit in re.finditer(rf"(?<![\w@.]){words}(?![\w@])", text, re.I):
            if m.start() <= hit.start() < m.end() or (len(parts) == 1 and not hit.group()[0].isupper()):
                continue  # one word alone only written as a name ("Mark", not "mark this done")
            out.append((hit.start(), hit.end(), "PERSON", 0.85, "email_owner"))
    return out


SEASONS = frozenset("summer winter spring autumn fall christmas easter".split())
ROLE_WORDS = frozenset("""customer service support team info contact sales admin no reply noreply help office hr billing
accounts account jobs careers hello mail webmaster postmaster news newsletter press media marketing orders order
privacy legal security abuse feedback enquiries inquiries booking bookings reservations hotel shop store""".split())


_ASCII_INTRO_PHRASES = tuple(p for p in OTHER_INTRO_PHRASES if p.isascii())


def _may_hold_other_intro(text: str) -> bool:
    """A cheap necessary condition for OTHER_INTRO: every other alternative of it needs a letter
    outside ASCII (Cyrillic, Han, kana, Hangul, "é", "ß"), and under IGNORECASE an ASCII text
    matches an ASCII phrase only as its lower-case self."""
    if not text.isascii():
        return True
    lower = text.lower()
    return any(p in lower for p in _ASCII_INTRO_PHRASES)


def cued_names(text: str) -> list[NameSpan]:
    """Names any language shows by its shape: a signature after a closing phrase, a
    self-introduction (also lower-case: "my name praba")."""
    out = []
    for pattern in (SIGNOFF, DASH_SIGNATURE):
        m = pattern.search(text)
        if m and _plausible(m.group("name")) and not COMMON_ENDINGS.search(m.group("name").lower()) and (
                not m.group("name").islower() or m.group("name").split()[0] in first_names()) and (  # "thank youuu"
                pattern is SIGNOFF or name_like(m.group("name"))):  # a dash alone: "- Apples" is a list's item
            out.append((m.start("name"), m.end("name"), "PERSON", 0.85, "signoff"))
    m = LAST_LINE_SIGNATURE.search(text)
    if m and _plausible(m.group("name")) and all(name_like(w) for w in m.group("name").split()):
        out.append((m.start("name"), m.end("name"), "PERSON", 0.85, "signoff"))
    pasted = list(PASTED_CHAT_SPEAKER.finditer(text))  # the cheaper test first
    speakers = list(TRANSCRIPT_SPEAKER.finditer(text)) + (pasted if pasted and CHAT_LOG.search(text) else [])
    for m in speakers:
        if _plausible(m.group("name")) and name_like(m.group("name")) and not _title_follows(text, m.end()):
            out.append((m.start("name"), m.end("name"), "PERSON", 0.85, "transcript"))
    for m in LOWER_INTRO.finditer(text):
        name = m.group("name")
        if _plausible(name) and not COMMON_ENDINGS.search(name.split()[0].lower()):
            out.append((m.start("name"), m.end("name"), "PERSON", 0.85, "intro"))
    for m in OTHER_INTRO.finditer(text) if _may_hold_other_intro(text) else ():
        group = next(g for g in ("name", "han", "ja", "ko", "cyr") if m.group(g))
        out.append((m.start(group), m.end(group), "PERSON", 0.85, "intro"))
    if "@" in text:
        out += email_owner_names(text)
    return out + lower_case_names(text) + vocative_names(text) + nicknames(text)
