"""Number-shaped personal data in chat: card numbers, phone numbers, postal codes, ID numbers.

Each finder is a plain function ``text -> [(start, end, entity, score)]`` so it can be tested
alone; ``recognizers.py`` wraps them for Presidio. They decide with their own cue words,
looked up in the text around a candidate *before and after it* ("call me on 785 8949",
"96 228011 office"), case-insensitively on the raw text. Presidio's context boost cannot do
this here: it compares cue words with spaCy lemmas, and the stage loads spaCy without its
lemmatizer (``SPACY_EXCLUDE`` in pii.py), so every Presidio recognizer that relies on it
(its driver-licence, bank-number and passport recognizers) never reaches a usable score.
These finders replace them for the entities we scrub.
"""

from __future__ import annotations

import re

from builder.clean.alternation import Gated, gate

# -- cards ---------------------------------------------------------------------------
# 12-19 digits in groups of 1-6, one separator throughout or none: as typed or pasted, one or two
# spaces or a tab, or a dash (a hyphen, or the en or em dash a word processor makes of it), a space
# on each side or none ("4111 1111 1111 1111", "4111  1111 ...", "4111 – 1111 – ...").
DASHES = "\u2010\u2011\u2013\u2014"  # besides the hyphen (the number-context model's candidates read them too)
CARD_SEP = rf"(?:[ \t]{{1,2}}|[ \t]?[-{DASHES}][ \t]?)"
DASH_DIGIT = rf"[-{DASHES}]\d"
CARD = re.compile(rf"(?<![\w.,/+\-{DASHES}])[1-9]\d{{0,5}}(?:(?P<sep>{CARD_SEP}?)\d{{1,6}})"
                  rf"(?:(?P=sep)\d{{1,6}}){{0,5}}(?![\w/]|[.,]\d|{DASH_DIGIT})")
# Issuer prefixes (IIN ranges) of the networks a chat user is likely to paste.
CARD_PREFIX = re.compile(r"4|5[1-5]|2(?:2[2-9]|[3-6]|7[01]|720)|3[47]|3(?:0[0-5]|[689])|6(?:011|4[4-9]|5)"
                         r"|35(?:2[89]|[3-8])|2131|1800|50[0-9]|5[6-8]|6(?:304|7)|62")


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# A card word right before the number ("credit card 0604 2607 0011", "cc 3509..."): the user says it
# is a card, so neither the Luhn check nor an issuer prefix is asked for (a typo, a test number).
CUED_CARD = re.compile(r"\b(?:(?:credit|debit|bank|visa|master\s?card|amex)\s*card|card|cc)(?:\s*(?:number|no\.?|num|#|nr))?"
                       rf"\s*(?:is|was|=)?\s*[:#]?\s*(?P<num>\d(?:{CARD_SEP}?\d){{11,18}})(?![\w/]|[.,]\d|{DASH_DIGIT})", re.I)
CARD_CUE = re.compile(r"\b(?:card|credit|debit|visa|master\s?card|amex|maestro|payment|pay|cvv|cvc|expir\w*|exp)\b"
                      r"|卡|카드|карт", re.I)
# "coupon_id": "3102024020766862", "订单号 ...": a labelled identifier of a thing, not a card
NOT_CARD_CUE = re.compile(r"(?:\b(?:id|coupon|order|tracking|invoice|isbn|issn|serial|transaction|txn|ref|sku|imei"
                          r"|barcode|ean|upc|iccid|reference|lot|batch|grant)\b|_id|号|编号|id)[\s\"':=#：]*$", re.I)


# Said to be a card: a card's own word earlier in the clause ("my visa is ...", "the card's ...", "here is
# the card info ..."), or an expiry date right after the number ("... 12/25", "..., exp 04/27"). The
# speaker vouches for the number, so no Luhn digit is asked for (a typo, a made-up test number still
# shows how the user shares cards), but an issuer's prefix is, and another identifier's label ("serial",
# "lot", "transaction id") undoes it. Only a card word counts: "pay", "payment", "debit" or "discover"
# alone only ask for a Luhn run.
CARD_WORDS = (r"card|cards|cc|visa|master\s?card|amex|american\s+express|maestro|creditcard"
              r"|carte|karte|kreditkarte|tarjeta|carta|cart[aã]o|kart[aeę]")  # in the languages whose expiry words follow
CARD_WORD_BEFORE = re.compile(rf"\b(?:{CARD_WORDS})\b"
                              r"(?:['’]s)?(?:[^\d\n.!?;]|(?<=\bno|\bnr)\.){0,30}$", re.I)
EXPIRY_AFTER = re.compile(r"^[ \t]*[,(]?[ \t]*(?:(?:exp\w*|valid\s+(?:thru|through|till|until)|caduca|vence|scadenza"
                          r"|g[üu]ltig\s+bis|wa[żz]na\s+do|valable\s+jusqu['’]?au|validade)\.?[ \t]*:?[ \t]*)?"
                          r"(?:0?[1-9]|1[0-2])[ \t]?/[ \t]?(?:\d\d|20\d\d)(?![\w/])", re.I)
# With a card word before it, dots may group a card's digits too ("Card No.4761.4365.3705.6563").
DOTTED_CARD = re.compile(r"(?<![\w,/+-])(?<!\d\.)\d{4}(?:\.\d{4}){3}(?![\w/]|[.,]\d|-\d)")


def said_to_be_a_card(text: str, start: int, end: int) -> bool:
    """A card word earlier in the clause, or an expiry date after the number (see CARD_WORD_BEFORE)."""
    return bool(CARD_WORD_BEFORE.search(text, max(0, start - 60), start) or EXPIRY_AFTER.match(text[end:end + 24]))


# A card's security code: with the number it completes a payment; no one may keep it (PCI DSS).
CVV = re.compile(r"\b(?:cvv2?|cvc2?|csc|cvn|security\s+code|card\s+verification(?:\s+(?:value|code|number))?)"
                 r"(?:\s+(?:is|was|number|no\.?))?\s*[:#=]?\s*(?P<code>\d{3,4})(?![\w/-])", re.I)


# The details typed right after a card's number complete it, whatever words (and language) sit between:
# its expiry and its security code ("5213 4470 9981 0026, exp 02/27, code 118"; "4970 ..., caduca 03/28,
# el de atrás es 412"). Read up to the line's end, at most DETAIL_WINDOW characters on.
DETAIL_WINDOW = 70
CARD_DETAIL = re.compile(r"(?<![\w/.,:-])(?:(?P<exp>(?:0?[1-9]|1[0-2])[ \t]?/[ \t]?(?:\d\d|20\d\d))|(?P<code>\d{3,4}))"
                         r"(?![\w/]|[.,:]\d|-\d)")
# The last four digits, said to be a card's ("last 4 r 0917", "the one ending 6654"): a card word in the
# turn for "ending"/"ends in" (a phone or a year ends too), none for "last four".
LAST_FOUR = re.compile(r"\b(?:(?P<last>last\s+(?:4|four)(?:\s+digits)?(?:\s+(?:of\s+\w+\s+)?(?:is|are|r|=|:|was|were))?)"
                       r"|(?:ending|ends?|finit|finishes|termina|endet)(?:\s+(?:in|with|on|par|en|auf|mit))?(?:\s+(?:is|:))?)"
                       r"\s*:?\s*(?P<code>\d{4})(?![\w/]|[.,:]\d|-\d)", re.I)
AMOUNT_AFTER = re.compile(r"\s?(?:%|dollars?|euros?|pounds?|bucks|usd|eur|gbp|k\b|people|times|tickets|items|pages|words)",
                          re.I)
CARD_IN_TURN = re.compile(rf"\b(?:{CARD_WORDS}|debit|credit)\b", re.I)
EXAMPLES_DETAILS: tuple[tuple[str, list[str]], ...] = (  # (text, the details found)
    ("can u just order on mine, 5213 4470 9981 0026, exp 02/27, code 118, ill tell u", ["02/27", "118"]),
    ("te paso los datos: 4970 1012 3456 7890, caduca 03/28, el de atrás es 412. compra", ["03/28", "412"]),
    ("card 4111 1111 1111 1111 and 2 tickets for 8pm", []),  # a count, a time: no detail
    ("last 4 r 0917 so if the hotel calls its my card", ["0917"]),
    ("its the visa ending in 6654, im freaking out", ["6654"]),
    ("the series ending in 2019 was great", []),  # no card in the turn
    ("the card game ends in 2025", []),  # a year
    ("put it on card 4111 1111 1111 1111 and add 300 dollars", []),  # an amount
)


def card_details(text: str, cards: list[tuple[int, int]]) -> list[tuple[int, int, str, float]]:
    """The expiry and security code after each found card number (``CARD_DETAIL``) and a card's last four
    digits (``LAST_FOUR``)."""
    out = []
    for _, end in cards:
        stop = text.find("\n", end)
        window = text[end:min(end + DETAIL_WINDOW, stop if stop >= 0 else len(text))]
        seen = set()
        for m in CARD_DETAIL.finditer(window):
            kind = "exp" if m.group("exp") else "code"
            if kind in seen or kind == "code" and (AMOUNT_AFTER.match(window, m.end()) or window[:m.start()].rstrip()[-1:] in "$€£¥"):
                continue  # "and 300 dollars", "$120": an amount, not the card's code
            seen.add(kind)
            out.append((end + m.start(), end + m.end(), "CREDIT_CARD", 0.85))
    fours = list(LAST_FOUR.finditer(text))
    card_turn = bool(fours) and CARD_IN_TURN.search(text) is not None
    out += [(m.start("code"), m.end("code"), "CREDIT_CARD", 0.85) for m in fours
            if m.group("last") or card_turn and not YEAR_LIKE.fullmatch(m.group("code"))]  # "the card game ends in 2025"
    return out


def find_cards(text: str) -> list[tuple[int, int, str, float]]:
    """A card's security code after its name ("cvv 737"), and a 12-19 digit run (usual separators)
    that passes the Luhn check and either starts with
    a known issuer prefix or has a card word before it ("card no. 3102 ..."). One in ten
    random numbers passes Luhn, so a bare run of digits with neither is an id, not a card;
    and a run labelled as some other identifier ("coupon_id": ..., "order 4...") is not one."""
    out = [(m.start("num"), m.end("num"), "CREDIT_CARD", 0.85) for m in CUED_CARD.finditer(text)
           if len(set(m.group("num"))) >= 3]
    out += [(m.start("code"), m.end("code"), "CREDIT_CARD", 0.85) for m in CVV.finditer(text)]
    taken = [(s, e) for s, e, _, _ in out]
    for m in [*CARD.finditer(text), *DOTTED_CARD.finditer(text)]:
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        before = text[max(0, m.start() - 40):m.start()]
        cued = bool(CARD_CUE.search(before))
        labelled = bool(NOT_CARD_CUE.search(before))  # "card transaction id ...": another identifier
        if labelled and not cued:
            continue
        dotted = "." in m.group()
        groups = list(re.finditer(r"\d+", m.group()))
        for last in range(len(groups), 0, -1):  # "4111 1111 1111 1111 12/25": drop trailing groups
            end = groups[last - 1].end()
            digits = re.sub(r"\D", "", m.group()[:end])
            if len(digits) < 12:
                break
            if len(digits) > 19 or len(set(digits)) < 2:
                continue
            known = bool(CARD_PREFIX.match(digits))
            # said to be a card, an issuer's prefix, no other identifier's label: no Luhn digit asked for
            said = not labelled and known and said_to_be_a_card(text, m.start(), m.start() + end)
            if dotted and not said:
                break  # dots group versions and addresses: only a card word makes those digits a card
            if said and len(digits) >= 13 and len(set(digits)) >= 3 or luhn_ok(digits) and not dotted:
                if known or cued or said:
                    out.append((m.start(), m.start() + end, "CREDIT_CARD", 0.9 if known or said else 0.7))
                    taken.append((m.start(), m.start() + end))
                break
    numbers = [(s, e) for s, e, _, _ in out if sum(c.isdigit() for c in text[s:e]) >= 12]
    details = [d for d in card_details(text, numbers) if not any(s < d[1] and d[0] < e for s, e, _, _ in out)]
    return out + details


# -- phones --------------------------------------------------------------------------
_EXTENSION = r",?\s?(?:x|ext\.?|extension|#)\s?\d{1,6}"  # "… ext. 291", "…, extension 3345", "… x 22", "… #4"
PHONE = re.compile(
    r"(?<![\w./+#:-])(?:(?:\+|00)\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{1,12}(?:[ .-]\d{1,8}){0,5}"
    rf"(?:{_EXTENSION})?(?![\w/@]|[.,:]\d|-\d)")
EXTENSION = re.compile(rf"{_EXTENSION}$")
PHONE_CUE_BEFORE = re.compile(
    r"(?:\b(?:call(?:ing|s)?|phone|ph|mobile|mob|cell|tel|telephone|number|no|reach|contact|whats\s?app|fax|texts?"
    r"|sms|messages?|viber|telegram|signal|dial|ring|answering|hotline|landline|office|home|work)\b|\+)[^\n\d]{0,12}$"
    r"|\b(?:me|us|him|her)\s+(?:on|at)\s*$",
    re.I)
PHONE_CUE_AFTER = re.compile(r"^[\s,;:()-]{0,3}(?:office|fax|mobile|cell|home|work|phone|tel|landline|direct)\b", re.I)
NANP = re.compile(r"(?:(?:\+?1|001)[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,6})?")
DATE_LIKE = re.compile(r"(?:19|20)\d\d[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./](?:19|20)?\d\d")
YEARS = re.compile(r"(?:1[5-9]|20)\d\d\s?[-–]\s?(?:1[5-9]|20)?\d\d")


def _unix_time(digits: str) -> bool:
    return len(digits) in (10, 13) and digits[0] == "1" and 9.4e8 <= int(digits[:10]) <= 2.1e9


def find_phones(text: str) -> list[tuple[int, int, str, float]]:
    """Phone numbers in the many shapes people write them. A cue word before *or after*
    the number makes 6-15 digits enough; without one only unmistakable shapes count
    (North-American groups, an international prefix, an extension, brackets around an
    area code, an unbroken 10-12 digit run that is not a Unix time)."""
    out = []
    for m in PHONE.finditer(text):
        value = m.group()
        extension = EXTENSION.search(value)
        main = value[:extension.start()] if extension else value  # the dot of "ext." is no decimal point
        digits = re.sub(r"\D", "", main)
        if not 6 <= len(digits) <= 15 or DATE_LIKE.fullmatch(value) or YEARS.fullmatch(value):
            continue
        if main.count(".") and not (re.fullmatch(r"[\d.()+\s]*\d{3}\.\d{3}\.\d{4}", main)
                                    or re.fullmatch(r"\+?\d{2,4}(?:\.\d{2,4}){2,5}", main)):
            continue  # 3.14159, 1.2.3.4: decimals, versions, addresses
        if MATH_AROUND.search(text[max(0, m.start() - 3):m.start()]) or MATH_AROUND.match(text[m.end():m.end() + 12]):
            continue  # "1234567 + 7654321 = 8888888": a sum
        cued = bool(PHONE_CUE_BEFORE.search(text[max(0, m.start() - 40):m.start()])
                    or PHONE_CUE_AFTER.match(text[m.end():m.end() + 14]))
        grouped = bool(re.search(r"[\s.()-]", value.strip()))
        strong = (NANP.fullmatch(value) or value.startswith(("+", "00")) and len(digits) >= 8
                  or extension is not None and not extension.group().lstrip(", ").startswith("#") and len(digits) >= 8
                  or value.startswith("(") and len(digits) >= 8
                  or not grouped and 10 <= len(digits) <= 12 and not _unix_time(digits) and digits[0] != "0")
        if cued and len(digits) >= 6 and (grouped or len(digits) >= 7):
            out.append((m.start(), m.end(), "PHONE_NUMBER", 0.75))
        elif strong:
            out.append((m.start(), m.end(), "PHONE_NUMBER", 0.6))
    return out


LIST_SEP = r"(?:[、,，;；/|和及]|\s(?:and|or|&)(?=\s))"
SHORT_BEFORE = re.compile(rf"(?<!\d)\d{{3,6}}\s*{LIST_SEP}\s*$")
SHORT_AFTER = re.compile(rf"^\s*{LIST_SEP}\s*\d{{3,6}}(?!\d)")


def in_code_list(text: str, start: int, end: int) -> bool:
    """A number between list items too short to be phone numbers ("bins: 522964、458123458124、
    434910"): one more code of the list (two run together), not a phone. A cue word still wins."""
    before = re.sub(rf"[\d\s]*(?:{LIST_SEP}[\d\s]*)*$", "", text[max(0, start - 60):start])  # back over the list
    return bool(SHORT_BEFORE.search(text[max(0, start - 12):start]) and SHORT_AFTER.match(text[end:end + 12])
                and not PHONE_CUE_BEFORE.search(before[-40:]))


# -- postal codes --------------------------------------------------------------------
YEAR_LIKE = re.compile(r"1[5-9]\d\d|20\d\d")  # a four-digit number that could be a year (1500-2099)
US_STATES = ("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH "
             "OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP AA AE AP").split()
POSTAL_SHAPE = (r"\d{5}(?:-\d{4})?|\d{3}[ -]?\d{2}|\d{4,6}|\d{2}-\d{3}|\d{5}-\d{3}|\d{4}\s?[A-Z]{2}"
                r"|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d")
# With the cue word right before it, any code counts ("my zip code is 880", "plz 1010"): people say
# what it is, and short or foreign codes have no shape to recognise.
# The cue word in the languages whose codes these are: German, French, Spanish, Portuguese,
# Italian, Dutch, Polish, Russian, Chinese, Japanese, Korean (the CJK ones need no word boundary).
ZIP_CUE_WORDS = (r"\b(?:zip|zipcode|zip code|postal code|postcode|post code|plz|postleitzahl|cep|pin code|pincode"
                 r"|code postal|c[oó]digo postal|codice postale|(?:cap|cp)(?=\s*:?\s*\d{5}\b)|postcode|kod pocztowy"
                 r"|почтовый индекс|индекс(?=\s*:?\s*\d{6}\b))|邮编|邮政编码|郵便番号|우편번호|〒")
AU_STATES = "NSW|VIC|QLD|WA|SA|TAS|ACT|NT"  # Australia's states and territories, written before the postcode
ZIP_CUED = re.compile(rf"(?:{ZIP_CUE_WORDS})"
                      r"(?:\s+(?:is|was|number|no\.?|é|es|est|ist|è|jest))?\s*\*?(?:[:#：=]|\s[-–]\s)?\s*"
                      rf"(?P<code>(?:(?-i:{AU_STATES})[ \t]+)?[A-Z]{{0,2}}\d[A-Z0-9]{{0,9}}"
                      r"(?:[ -](?=[A-Z]*\d)[A-Z0-9]{2,4}|[ -]?(?-i:[A-Z]{2})(?![a-z]))?)"
                      r"(?![\w-])", re.I)
# ... or further on in its clause: "the zip code there is 80205", "my zip changed from 60614 to
# 60647", "postal code in buenos aires, its C1425": a code shape with four digits or more (not a
# year, not a count) or letters and digits, up to ``CUE_REACH`` characters after the cue word.
ZIP_CUE = re.compile(rf"(?i:{ZIP_CUE_WORDS})")
ZIP_CUE_ANY = gate(ZIP_CUE_WORDS, re.I)  # (asked whether there is one: alternation.py)
CUE_REACH = 60
CLAUSE_END = re.compile(r"[.!?;\n](?!\d)")
WINDOW_CODE = re.compile(rf"(?<![\w.,/-])(?P<code>{POSTAL_SHAPE}|[A-Z]\d{{4}}[A-Z]{{0,3}})(?![\w-]|[.,]\d)")


def _codes_after_cue(text: str) -> list[tuple[int, int]]:
    out = []
    for cue in ZIP_CUE.finditer(text):
        stop = CLAUSE_END.search(text, cue.end())
        for m in WINDOW_CODE.finditer(text, cue.end(), min(stop.start() if stop else len(text), cue.end() + CUE_REACH)):
            code = m.group("code")
            digits = sum(c.isdigit() for c in code)
            if (digits >= 4 or code != code.lower() and digits >= 2) and not YEAR_LIKE.fullmatch(code) \
                    and not MONEY_OR_UNIT.match(text[m.end():m.end() + 12]):
                out.append((m.start(), m.end()))
    return out


# ... or right after it: "is 02139 a valid zip code", "90210 is my postal code"
ZIP_CUE_AFTER = re.compile(r"(?<![\w.,-])(?P<code>\d{5}(?:-\d{4})?|\d{3,6})\s+(?:(?:is\s+)?(?:not\s+)?(?:a|an|my|the|our|your"
                           r"|his|her|their)\s+(?:\w+\s+)?|(?:as|for)\s+(?:a|my|the|our)\s+)?(?:zip\s?codes?|zip(?=\s*(?:[.,!?;:)]|$|\s+(?:is|was|and|but|for|in|area)\b))|(?:postal|post)\s?codes?)\b",
                           re.I)
# ... or labelled in brackets after it: "90210 (zip)", "559218 (postcode)"; never "555 (zip code 90210)"
ZIP_LABEL_AFTER = re.compile(r"(?<![\w.,-])(?P<code>\d{5}(?:-\d{4})?|\d{3,6})\s*\((?:zip|postal|post)\s?(?:codes?)?\)", re.I)
US_STATE_NAMES = ("Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho"
                  "|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota"
                  "|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York"
                  "|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina"
                  "|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming")
ZIP_AFTER_STATE = re.compile(rf"\b(?:{'|'.join(US_STATES)}|{US_STATE_NAMES}),?\s+(?P<code>\d{{5}}(?:-\d{{4}})?)(?![\w-])")
UK_CA_POSTCODE = re.compile(r"(?<![\w-])(?P<code>[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|[A-Z]\d[A-Z]\s\d[A-Z]\d)(?![\w-])")
# A Canadian code is also written without its space ("V3K5N8"): only with the letters Canada Post uses.
# ... set off after a town (", V3K5N8", "(V3K5N8)") or after a province: "A1B2C3" alone is a test string.
CA_BEFORE = re.compile(r"(?:[,(]|\b(?:BC|AB|SK|MB|ON|QC|NB|NS|PE|NL|YT|NT|NU))[ \t]*$")
CA_POSTCODE_JOINED = re.compile(r"(?<![\w-])(?P<code>[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]\d[ABCEGHJ-NPRSTV-Z]\d)(?![\w-])")
# Typed in lower case the shapes need more: a Canadian code only with its letters (no D F I O Q U;
# no W or Z first), a British one only in one of the 121 postcode areas ("ls1 4ap", "sw1a 1aa").
UK_AREAS = ("ab al b ba bb bd bh bl bn br bs bt ca cb cf ch cm co cr ct cv cw da dd de dg dh dl dn dt dy e ec eh en ex fk "
            "fy g gl gu ha hd hg hp hr hs hu hx ig ip iv ka kt kw ky l la ld le ll ln ls lu m me mk ml n ne ng nn np nr nw "
            "ol ox pa pe ph pl po pr rg rh rm s sa se sg sk sl sm sn so sp sr ss st sw sy ta td tf tn tq tr ts tw ub w wa "
            "wc wd wf wn wr ws wv yo ze").split()
LOWER_POSTCODE = re.compile(r"(?<![\w-])(?P<code>[abceghj-nprstvxy]\d[abceghj-nprstv-z]\s\d[abceghj-nprstv-z]\d"
                            rf"|(?:{'|'.join(sorted(UK_AREAS, key=len, reverse=True))})\d[a-z\d]?\s\d[abd-hjlnp-uw-z]{{2}})"
                            r"(?![\w-])")
# A US state in lower case before a ZIP ("austin tx 78701"); an abbreviation that is also a word
# ("in", "or", "me", "oh") only after a comma ("indianapolis, in 46204").
WORD_STATES = frozenset("in or me oh hi ok de la ma pa id co as al ne ms mo ga wa va mt md il aa ae ap".split())
LOWER_STATE_ZIP = re.compile(rf"[a-z.](?:,[ \t]*(?:{'|'.join(s.lower() for s in US_STATES)})"
                             rf"|,?[ \t]+(?:{'|'.join(s.lower() for s in US_STATES if s.lower() not in WORD_STATES)}))"
                             r"[ \t]+(?P<code>\d{5}(?:-\d{4})?)(?![\w-])")
# Where the user lives, by code: "i live in 78701", "we moved to 60614", "i'm in 75008 Paris",
# "my home is in 560034 Bangalore", "in the 94110 area".
HOME_VERBS = (r"\b(?:live|lives|living|lived|moved|moving|move|relocat(?:ed|ing)|based|located|resid(?:e|es|ing)"
              r"|staying|grew\s+up|born|i'?m|i’m|i\s+am|we'?re|we’re|we\s+are|here|deliver(?:ed|ing|y)?|ship(?:ped|ping)?"
              r"|send|sent|mail(?:ed)?|(?:home|house|flat|apartment|place)\s+is)\s+(?:in|to|at|near|around)\s+")
# Words a number counts rather than codes ("Beijing 100000 people", "Leeds 2500 fans"): a plural,
# a unit, or one of the nouns whose plural has no s.
COUNT_NOUNS = frozenset("""people men women children persons folks inhabitants residents staff crew police cattle sheep
fish deer feet teeth mice geese km kg mi ft lb lbs""".split())
# ... and the plurals and units that count after a home verb ("moved 50000 miles", "i'm in 20000 debt"):
# _counted knows a plural by its -s, a lookahead needs them named.
HOME_COUNTS = COUNT_NOUNS | frozenset("""miles meters m dollars euros pounds years steps points debt times users recipients
customers items copies""".split())
AREA_WORDS = r"area|neighbou?rhood|zip|district|postcode"  # "the 02139 area", "the 75002 district"
HOME_CODE = Gated(re.compile(HOME_VERBS + r"(?:the\s+)?(?P<code>\d{5,6}(?:-\d{4})?)"
                             rf"(?![\w-]|[.,]\d|\s+(?:{'|'.join(sorted(HOME_COUNTS))})\b)"
                             r"|\bthe\s+(?P<area>\d{5}(?:-\d{4})?|\d{5}-\d{3}|\d{4}-\d{3}|\d{3}-\d{4}|\d{2}-\d{3}"
                             r"|(?-i:(?!(?:1[5-9]|20)\d\d)[1-9]\d{3} ?[A-Z]{2}"
                             r"|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]\d{2} ?[A-Z\d]{4}))"
                             rf"\s+(?:{AREA_WORDS})\b"
                             r"|\b(?:live|lives|living|lived|based|located|resid(?:e|es|ing))\s*\(\s*(?P<paren>\d{5,6})\s*\)"
                             # ... and, where a home verb says it, the shorter shapes: "im in the 5950 area", "the 221 59
                             # area", "the 724** area" (a four-digit one never a year)
                             r"|" + HOME_VERBS + r"the\s+(?P<home_area>(?!(?:1[5-9]|20)\d\d\b)[1-9]\d{3}|\d{3} \d{2}|\d{3}(?:xx|XX|\*\*))"
                             r"\s+(?:area|neighbou?rhood|district)\b", re.I))
# A code set off by commas or brackets in a clause that says where someone lives: "i live in lyon
# now, 69007, near the river".
HOME_CLAUSE = re.compile(r"\b(?:live|lives|living|lived|moved|based|located|resid(?:e|es|ing)|i['’]?m|i\s+am|we['’]?re"
                         r"|we\s+are)\s+(?:in|to|at|near|from)\b", re.I)  # "im in Denver, 80202 lol"
SET_OFF_CODE = re.compile(r"[,(]\s*(?P<code>\d{5,6})\s*(?=[,)]|$|\.(?!\d)|[ \t]+[^\W\d_])")  # not a count (_counted)
# In an address block a code follows a place name: "Tanzania 53144", "Dallas TX 48486", "GETINGE 37521".
CODE_AFTER_PLACE = re.compile(r"(?<=[^\W\d_]{2}),?[ \t]+(?P<code>\d{4,6}|\d{5}-\d{4}|\d{3}-\d{4}|\d{2}-\d{3})(?![\w-]|[.,]\d)")
# A code where a place stands, after a preposition of place: "what's the weather like in 80290 this
# weekend?", "any good tacos near 60614?", "anyone around 11189-213 wanna trade?". People name their
# area by its code without saying it is one. A plain five or six digits only after "in", "near",
# "nearby" or "outside" ("around 60000" is an amount as often; "around 08540" is not: no amount starts
# with a zero), never a round number ("in 100000"),
# odds ("1 in 50000") or a count ("in 10000 steps": ``_counted``); the shapes no amount or range
# takes (hyphenated 5-3, 5-4 and 4-3, "491xx", "N6S3C2", "D38 X8R7", "VIC 2809") after "around" too;
# Poland's 2-3 and the "322 597" / "114 55" groups, which ranges and thousands also write, only after
# the first four.
PLACE_PREPOSITION = r"\b(?<!\d[ \t])(?<!\bone[ \t])(?P<prep>in|near|nearby|outside|around)[ \t]+(?:the[ \t]+)?"
CODE_AS_PLACE = re.compile(
    PLACE_PREPOSITION + r"(?P<code>(?P<plain>(?!\d{2,3}000(?!\d))\d{5,6})|(?P<grouped>\d{2}-\d{3}|\d{3} \d{3}|\d{3} \d{2})"
    r"|\d{5}-\d{3,4}|[1-9]\d{3}-\d{3}|\d{3}(?:xx|XX|\*\*))"
    r"(?![\w*-]|[.,]\d)", re.I)
# The codes written with letters, which no count, amount or year takes, also after "at", "from" and "to"
# ("we're at M5V 2T6", "i'm from 1017 CT", "anyone near qw4 5tr?"): Canada's (its own letters, with or without the space),
# Britain's in capitals without their space ("SW1A1AA"), Ireland's ("D02 X285", "D02X285"), the
# Netherlands' ("1017 CT", never a year: "in 2019 AD"), Australia's state and code ("VIC 2809") and a
# country's letters before the digits ("D-10115", "CH-8008", "LV-1010").
LETTERED_CODE_AS_PLACE = re.compile(
    r"\b(?i:in|near|nearby|outside|around|at|from|to)[ \t]+(?:(?i:the)[ \t]+)?"
    r"(?P<code>[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d|[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}"
    r"|[AC-FHKNPRTV-Y]\d{2} ?[AC-FHKNPRTV-Y\d]{4}|(?!(?:1[5-9]|20)\d\d)[1-9]\d{3} ?(?!AD|BC|CE|AM|PM)[A-Z]{2}"
    rf"|(?:{AU_STATES})[ \t]+\d{{4}}|(?:[A-Z]{{1,2}})-\d{{4,5}}"
    # ... and typed in lower case with their space, whatever their letters (a British area or Canada's
    # letters are what LOWER_POSTCODE needs without a preposition), never a time, an ordinal or a unit
    # after the space ("at ps4 5pm", "cs2 3rd")
    r"|[a-z]{1,2}\d[a-z\d]? \d(?!st|nd|rd|th|am|pm|gb|mb|kb|kg|km|hp|ft|cm|mm|ml)[a-z]{2}|[a-z]\d[a-z] \d[a-z]\d)"
    r"(?![\w*-]|[.,]\d)")


# A British or Canadian code typed without its space, in any case ("ec2a3ay", "m5r1x7", "EC2A3AY"), in a turn that
# says it is someone's home ("thats my flat", "the other was my old place", "i live ..."): alone the
# shape is also a test string's ("a1b2c3"); a British one of six or seven characters ("s21fe" is a phone).
JOINED_LOWER_CODE = re.compile(r"(?<![\w-])(?P<code>[abceghj-nprstvxy]\d[abceghj-nprstv-z]\d[abceghj-nprstv-z]\d"
                               rf"|(?=\w{{6}})(?:{'|'.join(sorted(UK_AREAS, key=len, reverse=True))})\d[a-z\d]?\d[abd-hjlnp-uw-z]{{2}})"
                               r"(?![\w-])", re.I)
HOME_IN_TURN = re.compile(r"\b(?:(?:my|our)\s+(?:(?:old|new)\s+)?(?:flat|place|house|home|apartment|apt|address|postcode"
                          r"|post\s?code|zip|zip\s?code|postal\s+code)|i\s+live|we\s+live|i['’]?ve\s+moved|we\s+moved)\b", re.I)
# A code named after it in the next words, beyond ZIP_CUE_AFTER's reach: "what broadband options do i
# have in 8620? thats my postcode", "12345, thats my zip" (four to six digits, no other number between;
# said, not asked: "is my zip code right?" names no number); a year too ("2000, thats my postcode").
CODE_THEN_MINE = re.compile(r"(?<![\w.,/-])(?P<code>\d{4,6}(?:-\d{3,4})?)(?![\w-]|[.,]\d)[^\d\n]{0,30}?"
                            r"\b(?:that['’]?s|thats|its|it['’]s)\s+(?:my|our)\s+(?:(?:home|new|old)\s+)?"
                            r"(?:zip|zipcode|zip\s+code|postcode|post\s+code|postal\s+code|pin\s?code|plz)\b", re.I)


_PREPOSITION_THEN_CODE = re.compile(r"\b(?:in|near|nearby|outside|around|at|from|to)[ \t]+(?:the[ \t]+)?[A-Za-z]{0,3}-?\d",
                                    re.I)  # what both need: a cheap test first, most turns have none


def _codes_as_places(text: str) -> list[tuple[int, int]]:
    if _PREPOSITION_THEN_CODE.search(text) is None:
        return []
    return [(m.start("code"), m.end("code")) for m in LETTERED_CODE_AS_PLACE.finditer(text)] + [
        (m.start("code"), m.end("code")) for m in CODE_AS_PLACE.finditer(text)
            if (m.group("prep").lower() != "around" or not (m.group("grouped") or m.group("plain") and m.group("plain")[0] != "0"))
            and not _counted(text, m.end("code")) and not AMOUNT_WORD_AFTER.match(text, m.end("code"))]


_TWO_DIGITS = re.compile(r"\d\D*\d")
_FIVE_DIGITS = re.compile(r"\d{5}")
_SPACE_DIGIT_LETTER = re.compile(r"\s\d[^\W\d_]")
_ZIP_WORD = re.compile(r"zip|post", re.I)
_PIN_WORD = re.compile(r"\b(?:pin\s?code|plz)\b", re.I)
_JOINED_ANY = re.compile(r"[a-z]\d[a-z\d]?\d[a-z]", re.I)  # "ec2a3ay", "m5r1x7"
_AREA_WORD = gate(AREA_WORDS, re.I)  # HOME_CODE without five digits needs one
# A five-character code with its last two hidden ("148xx", "305**"): what a user who hides part of a
# ZIP writes; three digits keep it from "4xx" (HTTP) and "20xx" (a year).
MASKED_CODE = re.compile(r"(?<![\w*-])\d{3}(?:xx|XX|\*\*)(?![\w*])")
# ... said to be one, or written where an address puts it: after a town ("Leeds 148xx", "Leeds, 148xx")
MASKED_BEFORE = re.compile(r"(?i:zip|postcode|postal|plz|cep|pin\s*code|area\s+code)[^.\n]{0,40}$"
                           r"|(?<![A-Za-z])[A-Z][a-zà-ÿ'’-]+,?[ \t]+$")


def find_postal_codes(text: str) -> list[tuple[int, int, str, float]]:
    """ZIP and postal codes with evidence: a cue word, a US state before it, or the
    distinctive UK/Canadian shapes. Codes inside an address block are found by
    :func:`address_block_codes` once the street is known."""
    out: list[tuple[int, int, str, float]] = []
    if _TWO_DIGITS.search(text) is None:
        return out  # every shape holds two digits or more
    cue = ZIP_CUE_ANY.search(text) is not None
    five = _FIVE_DIGITS.search(text) is not None
    shaped = _SPACE_DIGIT_LETTER.search(text) is not None  # "sw1a 1aa", "M5V 2T6": a space, a digit, a letter
    zip_word = _ZIP_WORD.search(text) is not None
    found = [(m.start("code"), m.end("code"), score) for pattern, score, gate in (
        (ZIP_CUED, 0.85, cue), (ZIP_CUE_AFTER, 0.85, zip_word), (ZIP_LABEL_AFTER, 0.85, zip_word), (ZIP_AFTER_STATE, 0.7, five),
        (UK_CA_POSTCODE, 0.6, shaped), (LOWER_POSTCODE, 0.6, shaped), (LOWER_STATE_ZIP, 0.7, five))
        if gate for m in pattern.finditer(text)]  # the cheap gates first: most turns hold no code at all
    found += [(start, end, 0.85) for start, end in _codes_after_cue(text)] if cue else []
    found += [(start, end, 0.6) for start, end in _codes_as_places(text)]
    found += [(m.start(), m.end(), 0.6) for m in CA_POSTCODE_JOINED.finditer(text)
              if CA_BEFORE.search(text[max(0, m.start() - 6):m.start()])]
    found += [(m.start(), m.end(), 0.6) for m in MASKED_CODE.finditer(text)
              if MASKED_BEFORE.search(text[max(0, m.start() - 60):m.start()])]
    for m in HOME_CODE.finditer(text) if five or _AREA_WORD.search(text) else ():
        group = next(g for g in ("code", "area", "paren", "home_area") if m.group(g))
        found.append((m.start(group), m.end(group), 0.7))
    if _JOINED_ANY.search(text) and HOME_IN_TURN.search(text):
        found += [(m.start("code"), m.end("code"), 0.6) for m in JOINED_LOWER_CODE.finditer(text)]
    if zip_word or _PIN_WORD.search(text):
        found += [(m.start("code"), m.end("code"), 0.7) for m in CODE_THEN_MINE.finditer(text)
                  if not _counted(text, m.end("code"))]
    for m in SET_OFF_CODE.finditer(text):
        left = max(text.rfind(c, 0, m.start()) for c in ".!?\n")
        if HOME_CLAUSE.search(text, left + 1, m.start()) and not _counted(text, m.end("code")):
            found.append((m.start("code"), m.end("code"), 0.6))
    for start, end, score in found:
        if not any(start == s and end == e for s, e, _, _ in out):
            out.append((start, end, "ZIP_CODE", score))
    return out


# "10115 Berlin", "75008 Paris": most of Europe writes the code before the town. A number is
# such a code only when the NER reads the next word(s) as a place that ends there (a comma,
# a line's end): "10000 Paris residents" is a count, and a year ("2019 Paris") is a date.
CODE_BEFORE = re.compile(r"(?<![\w.,/-])(?P<code>\d{5}|\d{4}|\d{2}-\d{3}|[1-9]\d{3} ?(?!AD|BC|CE|AM|PM)[A-Z]{2})[ \t]+$")
# ... and most of the rest writes it after the town: "Paris 75002", "Bangalore 560034", "São Paulo,
# 01310-100", "Tokyo 160-0022", "Sydney NSW 2000". Only shapes a count or a year cannot take: five
# or six digits, a hyphenated code, or four digits after an Australian state; never before a word
# that makes it a count ("Beijing 100000 people"). The town is a place when the NER reads it as
# one or, written as a name (a capital, or a word that is at most a noun), its word vectors sit with places'
# (word_kinds: the NER often swallows "Paris 75002" whole).
# The shapes: five to eight digits, the hyphenated ones, India's "462 016", Sweden's "114 55", the
# Netherlands' "1017 CT", Ireland's "D02 X285"; four digits (Oslo 0150, Wien 1010) only after a
# place the NER reads as one, and not a year.
CODE_SHAPES = (r"\d{5}-\d{3,4}|\d{3}-\d{4}|\d{4}-\d{3}|\d{2}-\d{3}|\d{3} \d{3}(?![ \t]\d)|\d{3} \d{2}(?![ \t]?\d)"
               r"|(?!(?:1[5-9]|20)\d\d)[1-9]\d{3} ?(?-i:[A-Z]{2})(?![a-z])|(?-i:[A-Z]\d{2}) ?(?-i:[A-Z\d]{4})|\d{5,6}|\d{8}|\d{4}")
# The code may stand in brackets after its town: "Denver (80203)".
PLACE_THEN_CODE = re.compile(rf"(?<![\w.-])(?P<place>[^\W\d_][^\W\d_'’-]+),?[ \t]+(?:(?P<au>(?:{AU_STATES})[ \t]+\d{{4}})"
                             rf"|\(?(?P<code>{CODE_SHAPES})\)?)(?![\w-]|[.,]\d)")
FUNCTION_AFTER = re.compile(r"[ \t]+(?:is|was|and|or|but|where|which|that|in|to|for)\b")
# A bare number before a lower-case word: four digits after a town are a count or a year as often as a
# code ("Oslo 2500 runners"); five or more are a code unless the word makes them an amount (a plural or
# a unit: ``_counted``; "Mumbai 25000 per month", "Beijing 100000 a year") - "Austin 78701 represent lol".
WORD_AFTER = re.compile(r"[ \t]+[a-z]")
AMOUNT_WORD_AFTER = re.compile(r"[ \t]+(?:per|each|every|a[ \t]+(?:day|week|month|year|head|piece)|thousand|million|billion"
                               r"|lakh|crore|more|less|extra|or[ \t]+so)\b", re.I)
# An Australian address's state and postcode after a comma: "12 grafton street, NSW 2000".
AU_STATE_CODE = re.compile(rf"(?:,|\n)[ \t]*(?P<au>(?:{AU_STATES})[ \t]+\d{{4}})(?![\w-]|[.,]\d)")
# A distinctive code shape (hyphenated, lettered) said to be in a place: "is 14-789 in Kraków?"
CODE_IN_PLACE = re.compile(r"(?<![\w.,/-])(?P<code>\d{2}-\d{3}|\d{5}-\d{3,4}|\d{4}-\d{3}|\d{3}-\d{4}|[1-9]\d{3} ?[A-Z]{2}(?![a-z])"
                           r"|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]\d{2} ?[A-Z\d]{4})"
                           r"[ \t]+(?:in|near|around|outside)[ \t]+(?P<place>[^\W\d_][^\W\d_'’-]+)")


# Words ending in -s that count nothing: "ship to Bhopal, 848 392 thanks!!"
NOT_PLURALS = frozenset("thanks always perhaps besides towards afterwards unless whereas sometimes nowadays".split())


def amount(text: str, end: int) -> bool:
    """The number ending at ``end`` counts or prices something: a unit, a counted noun or an amount
    word follows it, or one word later ("85000 a year", "40000 career points", "25000 per month").
    Named words only: "-s" is no plural in "11101 queens" or "29401 después"."""
    if AMOUNT_WORD_AFTER.match(text, end) or MONEY_OR_UNIT.match(text[end:end + 12]):
        return True
    words = _NEXT_WORDS.match(text, end)
    return words is not None and any(w.lower() in HOME_COUNTS for w in words.groups() if w)


_NEXT_WORDS = re.compile(r"[ \t]+([^\W\d_]+)(?:[ \t]+([^\W\d_]+))?")


ROUND = re.compile(r"\d{2,3}000")  # five or six digits ending in three zeros: a round amount more often than a code


def _counted(text: str, end: int) -> bool:
    m = re.match(r"[ \t]+([^\W\d_][\w'’-]*)", text[end:end + 30])
    if m is None:
        return bool(MONEY_OR_UNIT.match(text[end:end + 12]))
    word = m.group(1).lower()
    return (word in COUNT_NOUNS or bool(MONEY_OR_UNIT.match(text[end:end + 12]))
            or (len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s", "’s"))
                and word not in NOT_PLURALS))


# ... and where a line, a clause or a locative starts it, before a place word that ends the clause,
# whatever the NER makes of it: "75011 paris, 3e étage", "81679 münchen, klingel ...", "deliver to
# 10025 manhattan." A four-digit code that could be a year needs a home verb before it ("im in
# 2042 newtown,"), as "in 2019 Paris, ..." dates.
CODE_THEN_PLACE = re.compile(r"(?:^|[,:;][ \t]*|\b(?:in|at|to|from|near)[ \t]+)(?P<code>\d{4,5})[ \t]+"
                             r"(?P<place>[^\W\d_][^\W\d_'’-]{2,})(?=[ \t]*(?:$|[,.;)!?]))", re.I | re.M)
HOME_BEFORE = re.compile(HOME_VERBS + r"$", re.I)


def codes_before_places(text: str, ents: list) -> list[tuple[int, int, str, float]]:
    """Postal codes next to a town: before one the NER reads as a place ("10115 Berlin", the town
    then ends its line or clause), or after a place ("Paris 75002")."""
    if _TWO_DIGITS.search(text) is None:
        return []  # every code shape here holds two digits or more
    from builder.clean.truecase import at_most_a_noun
    from builder.clean.word_kinds import kind_of

    out = []
    places = {(s, e) for s, e, label in ents if label == "GPE"}
    def by_ner(m: re.Match) -> bool:
        return any(s <= m.start("place") and m.end("place") <= e for s, e in places)

    def is_place(m: re.Match) -> bool:
        """A place by the NER or by its word vectors."""
        word = m.group("place")
        if by_ner(m):
            return True
        named = word[0].isupper() or at_most_a_noun(word)  # "Paris", "bangalore"; not "port 52662"
        return named and kind_of(word[0].upper() + word[1:].lower()) == "place"

    for m in PLACE_THEN_CODE.finditer(text):
        group = "au" if m.group("au") else "code"
        code = m.group(group)
        if group == "code" and len(code) == 4 and code.isdigit():  # the cheap tests first: most are "in 2019"
            # ... and one with a leading zero is neither a year nor a count: "Oslo 0557" needs no NER
            if YEAR_LIKE.fullmatch(code) or _counted(text, m.end(group)) or not (by_ner(m) or code[0] == "0" and is_place(m)):
                continue
        elif _counted(text, m.end(group)) or ROUND.fullmatch(code) or not is_place(m):
            continue  # a count, or a round number after a town ("Wembley Stadium, 90000?"): an amount
        after = m.end(group)
        if code.isdigit() and WORD_AFTER.match(text, after) and not FUNCTION_AFTER.match(text, after) and (
                len(code) <= 4 or AMOUNT_WORD_AFTER.match(text, after)):
            continue  # a bare number before a word that counts it ("Mumbai 25000 per month")
        out.append((m.start(group), m.end(group), "ZIP_CODE", 0.6))
    out += [(m.start("au"), m.end("au"), "ZIP_CODE", 0.6) for m in AU_STATE_CODE.finditer(text)
            if not YEAR_LIKE.fullmatch(m.group("au")[-4:])]  # "Perth, WA 2019 champions"
    out += [(m.start("code"), m.end("code"), "ZIP_CODE", 0.6) for m in CODE_IN_PLACE.finditer(text) if is_place(m)]
    out = list(dict.fromkeys(out))  # a code two patterns find, once
    for m in CODE_THEN_PLACE.finditer(text):
        word, code = m.group("place"), m.group("code")
        if not (word[0].isupper() or at_most_a_noun(word)) or kind_of(word[0].upper() + word[1:].lower()) != "place":
            continue
        if YEAR_LIKE.fullmatch(code) and not HOME_BEFORE.search(text[max(0, m.start("code") - 40):m.start("code")]):
            continue
        out.append((m.start("code"), m.end("code"), "ZIP_CODE", 0.6))
    for start, end, label in ents:
        if label != "GPE" or not re.match(r"\s*(?:$|[,.;)\n])", text[end:end + 2]):
            continue
        before = CODE_BEFORE.search(text[max(0, start - 12):start])
        if before and not YEAR_LIKE.fullmatch(before.group("code")):
            offset = max(0, start - 12)
            span = (offset + before.start("code"), offset + before.end("code"), "ZIP_CODE", 0.6)
            if span not in out:
                out.append(span)
    return out


# Right after the street and its comma, any code shape is the rest of the address: "new place is
# 402 bedford ave, 4800-607", ", 306", ", 346**" (a postal code or a flat's number, the person's either way);
# a grouped one whole ("Bhopal, 848 392": India's, Sweden's "114 55"), not its first group.
CODE_AFTER_STREET = re.compile(r",[ \t]*(?P<code>\d{3} \d{2,3}(?![ \t]?\d)|\d{3,6}|\d{4,5}-\d{3,4}|\d{3}-\d{4}|\d{2}-\d{3}"
                               r"|\d{3}(?:xx|XX|\*\*))(?![\w*-]|[.,]\d)")


def address_block_codes(text: str, start: int, end: int) -> list[tuple[int, int, str, float]]:
    """Postal codes in the few lines after a detected street (the rest of its address)."""
    right = CODE_AFTER_STREET.match(text, end)
    if right and not YEAR_LIKE.fullmatch(right.group("code")) and not _counted(text, right.end("code")):
        return [(right.start("code"), right.end("code"), "ZIP_CODE", 0.6)]
    window_end = min(len(text), end + 160)
    blank = text.find("\n\n", end, window_end)
    window = text[end:blank if blank > 0 else window_end]
    stop = end + len(window)  # searched in the text itself: the place word before the code may end the street
    return [(m.start("code"), m.end("code"), "ZIP_CODE", 0.6) for m in CODE_AFTER_PLACE.finditer(text, end, stop)
            if not (MONTH_BEFORE.search(text[end:m.start()]) and re.fullmatch(r"(?:1[5-9]|20)\d\d", m.group("code")))]


# "baptised 13 January 1864": a year after a month is a date
MONTH_BEFORE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?$", re.I)


# -- identity documents and other personal identifiers ---------------------------------
ID_TOKEN = r"(?P<code>(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{3,22}[A-Za-z0-9])"
_IS = r"(?:\s+(?:is|was|are|=))?\s*[:#]?\s*(?:(?:literally|actually|just|still|now|currently)\s+)?(?:no\.?\s*)?"
LICENCE = re.compile(rf"\b(?:driver'?s?|driving)\s+licen[cs]e(?:\s+(?:number|no\.?|#|id))?{_IS}{ID_TOKEN}(?![\w-])", re.I)
ID_CUED = Gated(re.compile(
    rf"(?:\b(?:my|his|her|our)\s+id\b|\b(?:applicant|application|candidate|student|employee|staff|member(?:ship)?"
    rf"|customer|client|patient|account|passport|national\s+id|identity\s+card|id\s+card|tax"
    rf"|social\s+insurance|insurance|policy|case|registration"
    rf"|matriculation|roll|enrol(?:l)?ment|citizen|voter|personal|reference|booking|ticket|order|tracking"
    rf"|confirmation|reservation)\s*(?:number|no\.?|num|#|id|code|ref(?:erence)?)|\brecord\s+locator|\bpnr)"
    rf"(?:(?<=#)|(?!\w))(?:\s+(?:is|was|:))?{_IS}{ID_TOKEN}(?![\w-])", re.I))


BOOKING_CUE = re.compile(r"(?:booking|confirmation|reservation|record\s+locator|pnr)\b", re.I)


# National documents whose name alone says "identifier" (no "number" after it): "PAN: ABCDE1234F",
# "Personalausweis L01X00T47", "codice fiscale RSSMRA85T10A562S", "Aadhaar 2345 6789 0123".
DOCUMENT_NAMES = (r"pan(?:\s+card)?|personalausweis(?:nummer)?|ausweisnummer|reisepass(?:nummer)?"
                  r"|steuer-?id(?:entifikationsnummer)?|codice\s+fiscale|carta\s+d'identit[àa]|national\s+insurance|nino"
                  r"|ni\s+number|aadhaa?r|curp|rfc|pesel|dni|nif|cpf|bsn|itin|sin|nhs|medicare|tax\s+file|tax\s+id|ssn|hkid|nric"
                  r"|dowodu|dowód(?:\s+osobisty)?")
ID_DOCUMENTS = Gated(re.compile(
    rf"(?:\b(?:{DOCUMENT_NAMES})(?![^\W\d_])"
    rf"|マイナンバー|身份证号?码?|주민등록번호)"
    rf"(?:\s*(?:number|no\.?|nr\.?|#))?(?:\s+(?:is|was|:))?{_IS}(?!(?:is|was|are|no)\b)"
    rf"(?P<code>[A-Za-z0-9](?:[A-Za-z0-9-]|\s(?=\d{{1,6}}\b|[A-Z]\b)){{3,24}}[A-Za-z0-9])(?![\w-])", re.I))
# A vehicle's plate, cued (also in German, Dutch, French, Spanish, Portuguese, Polish): "license plate 7KXX763",
# "car reg DS75 YXN", "plate number (66-BVP-5)", "Kennzeichen B-TB 2208": letters
# and digits in up to four groups, a digit among them ("plate" alone is a dish or a steel sheet).
PLATE = Gated(re.compile(rf"\b(?:(?:licen[cs]e|number|registration|reg|car|vehicle)\s+plates?|plates?\s+(?:number|no\b\.?|#)"
                         rf"|vehicle\s+registration|kennzeichen|kenteken|immatriculation|matr[ií]cula|numer\s+rejestracyjny"
                         rf"|car\s+reg(?:istration)?|vin)\b(?:\s+(?:number|no\.?|#))?{_IS}\(?"
                         r"(?P<code>(?=[A-Za-z0-9 -]{0,14}\d)[A-Za-z0-9]{1,4}(?:-?[A-Za-z0-9]{1,4}|[ ](?-i:[A-Z0-9]{1,4})){1,4})"
                         r"(?![\w-])", re.I))
# ... or "plate" alone before "was"/"is"/":" and a code of letters and digits: "the plate was 7XKR392",
# "plate: FJK-4829" (not "the plate was 12 inches": a code holds a letter and two digits)
BARE_PLATE = re.compile(r"\bplates?\s*(?:was|is|:)\s*(?P<code>(?=[A-Za-z0-9-]*[A-Za-z])(?=(?:[A-Za-z-]*\d){2})"
                        r"[A-Za-z0-9]{1,4}(?:-?[A-Za-z0-9]{1,4}|[ ](?-i:[A-Z0-9]{1,4})){1,3})(?![\w-])", re.I)
MEASURE = re.compile(r"\d+(?:[.,]\d+)?\s?(?:mm|cm|m|kg|g|lbs?|w|kw|v|x\d+\w*)", re.I)  # "100mm", "2x25kg"
# India's PAN (five capitals, four digits, a capital): the shape is the cue.
PAN_SHAPE = re.compile(r"(?<![\w-])[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z](?![\w-])")
# A UK National Insurance number in its printed grouping ("QQ 12 34 56 C"): the shape is unique.
NINO_SPACED = re.compile(r"(?<![\w-])[A-CEGHJ-PR-TW-Z]{2}\s\d{2}\s\d{2}\s\d{2}\s[A-D](?![\w-])")


# ... or given as "mine" after the document is named: "how do you validate passport numbers? mine is
# E181365", "what's your student id? his is 2023-48812".
OWN_ONE = re.compile(rf"\b(?:mine|his|hers|ours|theirs)(?:['’]s|\s+(?:is|was)|\s*:){_IS}{ID_TOKEN}(?![\w-])", re.I)
ID_NAMED = re.compile(r"\b(?:passports?|licen[cs]es?|plates?|registrations?|vin|ids?|ssns?|national\s+insurance|accounts?"
                      r"|member(?:ship)?|student|employee|patient|polic(?:y|ies)|iban|pan|aadhaa?r|tax|social\s+security"
                      r"|insurance|ticket|booking|reference)\b", re.I)


# ... or named after it: "is 21016479 a valid passport number?", "48812 is my student id"
ID_CUE_AFTER = re.compile(
    rf"(?<![\w.,/-]){ID_TOKEN}\s+(?:(?:is|was|isn['’]t|wasn['’]t)\s+)?(?:not\s+)?(?:(?:a|an|my|the|our|your|his|her)\s+)?"
    r"(?:(?:valid|correct|real|wrong|new|old|right|current)\s+)?"
    r"(?:passport|national\s+id|id\s+card|identity\s+card|student|employee|staff|member(?:ship)?|customer|client|patient"
    r"|account|policy|tax|social\s+security|insurance|case|booking|confirmation|reservation|driver'?s?\s+licen[cs]e"
    r"|licen[cs]e)\s*(?:number|no\b\.?|#|id\b|code\b)", re.I)
# ... or by a document's own name, which says "identifier" alone, after an article or a possessive ("is
# 21016479 a valid SIN?", "AB123456C is my NI number"; not "12000 NHS nurses"); the names that are also
# words ("a pan", "a sin") only in capitals or with "card"/"number"
DOCUMENT_NAMES_AFTER = (DOCUMENT_NAMES.replace(r"pan(?:\s+card)?|", r"(?-i:PAN|SIN)|pan(?=\s*card|\s*number)|")
                        .replace("|sin|", r"|sin(?=\s*number)|"))
# ID_DOCUMENT_AFTER's cheap test: the first word of each of DOCUMENT_NAMES (a test keeps the two in step)
DOCUMENT_FIRST_WORDS = frozenset("""pan sin personalausweis personalausweisnummer ausweisnummer reisepass reisepassnummer
steuer steuerid codice carta national nino ni aadhaar aadhar curp rfc pesel dni nif cpf bsn itin nhs medicare tax ssn
hkid nric dowodu dowód""".split())
_WORDS = re.compile(r"[a-zó]+")
_DIGIT = re.compile(r"\d")
ID_DOCUMENT_AFTER = re.compile(
    rf"(?<![\w.,/-]){ID_TOKEN}\s+(?:(?:is|was|isn['’]t|wasn['’]t)\s+)?(?:not\s+)?(?:a|an|my|the|our|your|his|her)\s+"
    r"(?:(?:valid|correct|real|wrong|new|old|right|current)\s+)?"
    rf"(?:{DOCUMENT_NAMES_AFTER})(?:\s*(?:card\s+)?(?:number|no\b\.?|#))?(?![^\W\d_])", re.I)


def find_ids(text: str) -> list[tuple[int, int, str, float]]:
    """Driver licences and other ID numbers named as such ("applicant number: 2023-48812")."""
    if _DIGIT.search(text) is None:
        return []  # every pattern below takes a digit (ID_TOKEN's lookahead, the plates' two, the NINO's)
    out = [(m.start("code"), m.end("code"), "US_DRIVER_LICENSE", 0.85) for m in LICENCE.finditer(text)]
    out += [(m.start(), m.end(), "ID_NUMBER", 0.8) for m in NINO_SPACED.finditer(text)]
    out += [(m.start(), m.end(), "ID_NUMBER", 0.8) for m in PAN_SHAPE.finditer(text)]
    out += [(m.start("code"), m.end("code"), "ID_NUMBER", 0.8) for m in PLATE.finditer(text)
            if sum(c.isdigit() for c in m.group("code")) >= 2 and len(re.sub(r"\W", "", m.group("code"))) >= 5
            and not MEASURE.fullmatch(m.group("code"))]
    out += [(m.start("code"), m.end("code"), "ID_NUMBER", 0.8) for m in BARE_PLATE.finditer(text)
            if len(re.sub(r"\W", "", m.group("code"))) >= 5 and not MEASURE.fullmatch(m.group("code"))]
    for m in ID_DOCUMENTS.finditer(text):
        code = m.group("code")
        if sum(c.isdigit() for c in code) >= 4 and not YEARS.fullmatch(code) and not DATE_LIKE.fullmatch(code):
            out.append((m.start("code"), m.end("code"), "ID_NUMBER", 0.8))
    out += [(m.start("code"), m.end("code"), "ID_NUMBER", 0.8) for m in OWN_ONE.finditer(text)
            if sum(c.isdigit() for c in m.group("code")) >= 4 and ID_NAMED.search(text[max(0, m.start() - 80):m.start()])
            and not YEARS.fullmatch(m.group("code")) and not DATE_LIKE.fullmatch(m.group("code"))]
    out += [(m.start("code"), m.end("code"), "ID_NUMBER", 0.8) for pattern in (ID_CUE_AFTER, ID_DOCUMENT_AFTER)
            if pattern is ID_CUE_AFTER or not DOCUMENT_FIRST_WORDS.isdisjoint(_WORDS.findall(text.lower()))
            for m in pattern.finditer(text) if sum(c.isdigit() for c in m.group("code")) >= 4 and not YEARS.fullmatch(m.group("code"))
            and not DATE_LIKE.fullmatch(m.group("code"))]
    out = list({(s, e): (s, e, entity, score) for s, e, entity, score in out}.values())  # a PAN two patterns find, once
    taken = {(s, e) for s, e, _, _ in out}
    for m in ID_CUED.finditer(text):
        span = (m.start("code"), m.end("code"))
        code = m.group("code")
        # a booking's record locator is six letters and digits ("QX7P2L"): its cue vouches for it
        locator = BOOKING_CUE.match(m.group()) and code.isupper() and 5 <= len(code) <= 8
        if span not in taken and sum(c.isdigit() for c in code) >= (1 if locator else 4):
            out.append((*span, "ID_NUMBER", 0.8))
    return out


# -- identifier-shaped values, whatever their label ----------------------------------------
# A value that is nothing but a long identifier: 9+ digits in groups, or a letter prefix or
# suffix on 7+ digits ("K1234567", "D657-8287-4274", "PLY-1234567"). Chat has few such values
# that are nobody's (maths, money, dates, versions, hashes and code are told apart below), and
# the cued finders above know only the labels somebody listed; a card with a typo, a phone in an
# unlisted country's grouping or an id under an unlisted name is still one of these.
# Digit groups as a keyboard or a word processor separates them: a space, dot, slash or hyphen, and,
# for three groups or more (two are a range: "45000 - 60000", "1990–2000"), two spaces or a dash with
# spaces or an en/em dash ("4563  3048  72611", "3731–111531–41450", "6354 - 2610 - 3954 - 3781").
# (Tabs are not among them: a line with two tabs is a table's row, code.py's.)
WIDE_SEP = r"  |[ ]?[\u2013\u2014][ ]?| - "  # two spaces, an en or em dash, a spaced hyphen
ID_SEP = rf"[ ./\u2010\u2011-]|{WIDE_SEP}"
WIDE_ID_SEP = re.compile(WIDE_SEP)
IDENTIFIER = re.compile(
    rf"(?<![\w.,/+#@$€£¥:)\]{DASHES}-])(?P<value>(?:[A-Z]{{1,4}}-?)?\d+(?:(?:{ID_SEP})\d+){{0,6}}(?:-?[A-Z])?)"
    rf"(?![\w@]|[.,/:]\d|{DASH_DIGIT})")
CUED_IDENTIFIER = re.compile(r"\b(?:number|no\.?|num|nr|#|id|code|acct|account|passport|licen[cs]e|card|ssn|sin|nin"
                             r"|mrn|ref|reference)\s*(?:is|was|=)?\s*[:#]?\s*$", re.I)
MONEY_OR_UNIT = re.compile(r"^\s?(?:%|[kmgt]?b\b|[kmgt]?hz\b|km|kg|mm|cm|ms|px|usd|eur|gbp|dollars?|euros?|pounds?"
                           r"|rupees?|yen|rubles?|times|x\b|years?|people|users|rows|lines|words|tokens|bytes)", re.I)
MATH_AROUND = re.compile(r"[+*/×÷=^<>]\s*$|(?:^|\s)x\s+$|^\s*[+*/×÷=^<>]|^\s+x\s+\d|^\s*-\s+\d")  # "12345 x 6789"
NOT_PERSONAL_CUE = re.compile(r"(?:\b(?:isbn|issn|doi|arxiv|pmid|pii|sha\d*|md5|hash|commit|version|build|v\.?|step|seed"
                              r"|port|pid|epoch|timestamp|unix|coupon|order|tracking|invoice|serial|transaction|txn|sku"
                              r"|imei|barcode|ean|upc|bin|bins|emoji)(?:\s*(?:id|number|no\.?|#|code))?|_id"
                              r"|优惠券?(?:id|码|编号)?|订单(?:号|编号)?|快递单号|运单号|流水号|商品(?:id|编号)?|活动(?:id|编号)"
                              # a format's example ("格式如", "e.g."), not a value of anybody's
                              r"|\be\.g\.|\bfor (?:example|instance)|\bformat(?:ted)?\s*(?:like|as)|格式如|格式为|例如|比如|示例)"
                              r"[\s\"':=#：]*$", re.I)  # a thing's number (an order, a coupon, an article), not a person's


def _looks_identifier(value: str, cued: bool) -> bool:
    digits = re.sub(r"\D", "", value)
    groups = re.findall(r"\d+", value)
    letters = re.sub(r"[^A-Z]", "", value)
    if DATE_LIKE.fullmatch(value) or YEARS.fullmatch(value) or _unix_time(digits) or len(set(digits)) <= 2:
        return False  # 999999999999999: a placeholder
    if re.match(r"(?:CVE|GHSA|RFC|ISO|EN|DIN|IEC)-?\d", value):
        return False  # a public reference
    if "." in value and (len(groups[0]) <= 2 or len(groups) == 4 and all(int(g) < 256 for g in groups)):
        return False  # 3.14159, 10.0.19045 (a version), 192.168.1.20 (the IP finder's)
    if letters:
        return len(digits) >= (5 if cued else 7)
    if cued:
        return len(digits) >= 5
    if len(digits) < 9 or len(groups) > 5:
        return False
    if len(groups) > 1 and (all(YEAR_LIKE.fullmatch(g) for g in groups)
                            or all(g == "000" for g in groups[1:])):
        return False  # "2019 2020 2021": years; "100 000 000": a number with spaced thousands
    if all(len(g) <= 2 for g in groups) and not groups[0].startswith("0"):
        return False  # "10 20 30 40 50": a list of numbers (phones in pairs start with 0: "06 12 ...")
    return len(groups) > 1 or not digits.startswith("0") or len(digits) >= 10


# An IBAN's shape (a country's two letters, two check digits, then 11 to 30 letters and digits, in
# groups of four or not) is an account whoever wrote it, also with a check digit the IBAN finder
# rejects ("GB95 VXVK 9715 5006 8364 78" had only its digits found, as a card, and "GB95 VXVK" left).
IBAN_SHAPE = re.compile(r"(?<![\w-])(?P<value>(?:AD|AE|AT|AZ|BA|BE|BG|BH|BR|CH|CR|CY|CZ|DE|DK|DO|EE|EG|ES|FI|FO|FR|GB|GE|GI"
                        r"|GL|GR|GT|HR|HU|IE|IL|IQ|IS|IT|JO|KW|KZ|LB|LC|LI|LT|LU|LV|MC|MD|ME|MK|MR|MT|MU|NL|NO|PK|PL|PS"
                        r"|PT|QA|RO|RS|SA|SC|SE|SI|SK|SM|ST|SV|TL|TN|TR|UA|VA|VG|XK)\d{2}"
                        r"(?:(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?|[A-Z0-9]{11,30}))(?![\w-])")


def _iban_shaped(text: str) -> list[tuple[int, int, str, float]]:
    out = []
    for m in IBAN_SHAPE.finditer(text):
        value = m.group("value").replace(" ", "")
        if 15 <= len(value) <= 34 and sum(c.isdigit() for c in value) >= 10:
            out.append((m.start("value"), m.end("value"), "ID_NUMBER", 0.65))
    return out


def find_identifiers(text: str) -> list[tuple[int, int, str, float]]:
    """Identifier-shaped values (see IDENTIFIER, IBAN_SHAPE) outside maths, money, units and public references."""
    if sum(map(str.isdigit, text)) < 5:
        return []  # every shape holds five digits or more (_looks_identifier); a cued plate may hold two
    out = _iban_shaped(text)
    for m in IDENTIFIER.finditer(text):
        value, start, end = m.group("value"), m.start("value"), m.end("value")
        before, after = text[max(0, start - 40):start], text[end:end + 12]
        if MATH_AROUND.search(before[-3:]) or MATH_AROUND.match(after) or MONEY_OR_UNIT.match(after):
            continue
        if NOT_PERSONAL_CUE.search(before) or re.search(r"[$€£¥]\s*$", before):
            continue
        if WIDE_ID_SEP.search(value) and len(re.findall(r"\d+", value)) < 3:
            continue
        if _looks_identifier(value, bool(CUED_IDENTIFIER.search(before))) and not any(
                s <= start and end <= e for s, e, _, _ in out):  # part of an IBAN's shape
            out.append((start, end, "ID_NUMBER", 0.6))
    return out
