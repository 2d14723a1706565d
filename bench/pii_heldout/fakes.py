"""Fake personal data for the canary set: generated, never a real person's.

Names are random first/last combinations from the lists below; numbers are random digits in
each country's shape (cards pass Luhn); e-mails are built from random names at common
providers. The wordings (TEMPLATES) were written by hand to read like people type in chat:
lower case, typos, odd separators, several countries' formats. HELD OUT from rule tuning.
"""

from __future__ import annotations

import random
import re

FIRST = ["Jake", "Emily", "Connor", "Hannah", "Tyler", "Madison", "Bethany", "Trevor", "Kelsey", "Brandon", "Shelby", "Dustin", "Caitlin", "Garrett", "Brooke", "Mateo", "Valentina", "Alejandro", "Camila", "Joaquin", "Lucia", "Diego", "Ximena", "Rodrigo", "Paola", "Priya", "Arjun", "Ananya", "Rohan", "Kavya", "Vikram", "Sneha", "Aditya", "Meera", "Rahul", "Wei", "Hiroshi", "Yuki", "Jae-won", "Min-ji", "Haruto", "Xiaoyu", "Takumi", "Seo-yeon", "Omar", "Layla", "Yusuf", "Fatima", "Karim", "Nour", "Reza", "Shirin", "Emre", "Elif", "Kwame", "Amara", "Chidi", "Ngozi", "Tendai", "Folake", "Sipho", "Wanjiru", "Kofi", "Ayodele", "Lukas", "Sofie", "Matteo", "Giulia", "Thibault", "Elodie", "Piotr", "Agnieszka", "Sven", "Ingrid", "Dmitri", "Katya", "Bram", "Annelies", "Joost", "Oona", "Aleksi", "Nikos", "Eleni", "Declan", "Siobhan", "Callum", "Niamh", "Mikael", "Freya", "Tobias", "Leonie", "Rafael", "Beatriz", "Thiago", "Larissa", "Anh", "Bao", "Linh", "Duc", "Maricel", "Jomar", "Dalia", "Tamar", "Yosef", "Avi", "Noa", "Keanu", "Leilani", "Tavita", "Hemi", "Aroha", "Bronwyn", "Lachlan", "Marisol", "Esteban", "Hope", "Rose", "Grace", "Faith", "Will", "Jack", "Dawn", "Summer", "Hunter", "Chase", "Mark", "Pat", "Rob", "Bill", "Penny", "Sandy"]
LAST = ["Okafor", "Lindqvist", "Ramirez", "Hashemi", "Kowalczyk", "Brennan", "Nakamura", "Patel", "Fitzgerald", "Okonkwo", "Vasquez", "Thorsen", "Abernathy", "Whitfield", "Castellano", "Dubois", "Halvorsen", "Iyer", "Kapoor", "Menon", "Zhang", "Liu", "Tanaka", "Park", "Nguyen", "Tran", "Haddad", "Yilmaz", "Demir", "Novak", "Horvat", "Petrov", "Sokolova", "O'Sullivan", "McAllister", "Goldberg", "Friedman", "Adeyemi", "Mensah", "Osei", "Moreau", "Laurent", "Rossi", "Esposito", "Bianchi", "Schneider", "Becker", "Hoffmann", "Jansen", "Kovacs", "Szabo", "Popescu", "Andersson", "Nieminen", "Garza", "Ochoa", "Salazar", "Whitaker", "Pennington", "Holloway", "Cartwright", "Blackwood", "Delgado", "Fonseca", "Quintero", "Baptiste", "Achterberg", "Van", "Dijk", "Mahlangu", "Chaudhry", "Siddiqui", "Rahimi", "Karimova", "Takahashi", "Kobayashi", "Hwang", "Choi", "Pham", "Dang", "Bautista", "Mercado", "Lindgren", "Virtanen", "Kaur", "Gill", "Sandhu", "Reyes", "Cruz", "Morales", "Ferreira", "Azevedo", "Walsh", "Doherty", "Kearney", "Grabowski", "Wojcik", "Mwangi", "Otieno", "Banda", "Phiri", "Nkemelu", "Eze", "Alvarado", "Espinoza", "Henning", "Krause", "Vogel", "Brandt", "Lund", "Dahl", "Strand"]
STREET_NAMES = ["Larkspur", "Juniper", "Foxglove", "Hawthorn", "Kingsley", "Ashby", "Meadowbrook", "Sycamore", "Briar", "Quarry", "Orchard", "Mill", "Chapel", "Harbour", "Pinecrest", "Redbud", "Magnolia", "Tamarack", "Cobblestone", "Heron", "Osprey", "Bramble", "Thistle", "Alder", "Ridgeview", "Holly", "Clover", "Wren", "Buckthorn", "Fenwick", "Sandpiper", "Elmhurst", "Greystone", "Hollis", "Marlow", "Ashcombe", "Tanglewood", "Copperfield", "Bluebell", "Primrose", "Laurel", "Chestnut", "Whitmore", "Brookside", "Fairhaven", "Oakmont", "Kestrel", "Linden"]
CITIES = {  # by the country of the street format, so that an address hangs together
    "us": ["Springfield", "Tucson", "Dayton", "Fresno", "Boise", "Salem", "Eugene", "Toledo", "Akron"],
    "uk": ["Leeds", "Bristol", "Leicester", "Norwich", "Swansea"], "de": ["Graz", "Kassel", "Erfurt", "Bonn"],
    "fr": ["Lyon", "Nantes", "Lille", "Rennes"], "es": ["Zaragoza", "Murcia", "Valladolid"],
    "it": ["Bologna", "Verona", "Padova"], "nl": ["Utrecht", "Tilburg", "Groningen"], "se": ["Uppsala", "Malmö"],
    "pl": ["Gdansk", "Poznan", "Lublin"], "au": ["Geelong", "Fitzroy", "Hobart"], "in": ["Pune", "Mysuru", "Indore"],
    "br": ["Curitiba", "Recife", "Campinas"], "ca": ["Halifax", "Hamilton", "Regina"], "ie": ["Cork", "Galway"],
}
DOMAINS = ["gmail.com", "gmail.com", "gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "icloud.com", "protonmail.com", "gmx.de", "web.de", "yahoo.co.uk", "btinternet.com", "live.ca", "rediffmail.com", "orange.fr", "libero.it", "uol.com.br", "mail.ru", "naver.com", "aol.com", "hotmail.co.uk", "yahoo.com.au"]


def digits(rng: random.Random, n: int, first_nonzero: bool = False) -> str:
    out = "".join(rng.choice("0123456789") for _ in range(n))
    return (rng.choice("123456789") + out[1:]) if first_nonzero and n else out


def luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + digits(rng, length - len(prefix) - 1)
    total = 0
    for i, d in enumerate(reversed(body)):  # the check digit will sit to the right of body
        v = int(d) * (2 if i % 2 == 0 else 1)
        total += v - 9 if v > 9 else v
    return body + str((10 - total % 10) % 10)


def luhn_ok(number: str) -> bool:
    ds = [int(c) for c in number if c.isdigit()]
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d * 2 > 9 else d * 2) for i, d in enumerate(reversed(ds)))
    return total % 10 == 0


def _group(s: str, sizes, sep: str) -> str:
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    return sep.join(out)


class Fakes:
    """One generator per slot; each returns (value, style)."""

    def __init__(self, rng: random.Random, avoid: set[str] = frozenset()):
        self.rng = rng
        self.avoid = {a.lower() for a in avoid}
        self.person: tuple[str, str] | None = None  # the snippet's person, reused by {email}
        self.country: str | None = None  # the snippet's street format, reused by {city} and {zip}

    def _name(self, pool):
        choices = [n for n in pool if n.lower() not in self.avoid]
        return self.rng.choice(choices)

    def first(self):
        f = self._name(FIRST)
        self.person = (f, self._name(LAST))
        return f, "first_name"

    def last(self):
        last = self._name(LAST)
        self.person = (self._name(FIRST), last)
        return last, "last_name"

    def full(self):
        f, last = self._name(FIRST), self._name(LAST)
        self.person = (f, last)
        if self.rng.random() < 0.12:
            return f"{f} {self.rng.choice('ABCDEFGHJKLMPRSTW')}. {last}", "full_name_initial"
        return f"{f} {last}", "full_name"

    def city(self):
        return self.rng.choice(CITIES[self.country or self.rng.choice(sorted(CITIES))]), "city"

    def email(self):
        r = self.rng
        f, last = self.person or (self._name(FIRST), self._name(LAST))
        f, last = re.sub(r"[^a-z]", "", f.lower()), re.sub(r"[^a-z]", "", last.lower())
        local = r.choice([f"{f}.{last}", f"{f}{last}{r.randint(1, 99)}", f"{f[0]}.{last}", f"{f}_{last}",
                          f"{f}{last[0]}", f"{f}{r.randint(1975, 2006)}", f"{last}.{f}", f"{f}-{last}",
                          f"{r.choice(['xx', 'the', 'its', 'real', 'lil'])}{f}{r.randint(1, 999)}"])
        domain = r.choice(DOMAINS)
        if r.random() < 0.1:
            return f"{local.replace('.', ' dot ')} at {domain.replace('.', ' dot ')}", "spelled_out"
        return f"{local}@{domain}", "plain"

    def phone(self):
        r = self.rng
        style = r.choice(["us", "us", "uk", "de", "fr", "in", "au", "br", "jp", "ng", "mx", "nl", "ie"])
        d = lambda n: digits(r, n)
        area = str(r.randint(201, 989))
        shapes = {
            "us": [f"({area}) {d(3)}-{d(4)}", f"{area}-{d(3)}-{d(4)}", f"{area}.{d(3)}.{d(4)}", f"{area}{d(7)}",
                   f"+1 {area} {d(3)} {d(4)}", f"1-{area}-{d(3)}-{d(4)}", f"{area} {d(3)} {d(4)}"],
            "uk": [f"07{d(3)} {d(6)}", f"+44 7{d(3)} {d(6)}", f"+44 (0)20 {d(4)} {d(4)}", f"07{d(9)}",
                   f"0161 {d(3)} {d(4)}"],
            "de": [f"+49 15{d(1)} {d(4)} {d(4)}", f"015{d(1)}/{d(8)}", f"030 {d(7)}", f"+49 (0)89 {d(6)}"],
            "fr": [f"06 {d(2)} {d(2)} {d(2)} {d(2)}", f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}", f"07.{d(2)}.{d(2)}.{d(2)}.{d(2)}"],
            "in": [f"+91 9{d(4)} {d(5)}", f"09{d(4)} {d(5)}", f"+91-9{d(9)}", f"9{d(9)}"],
            "au": [f"04{d(2)} {d(3)} {d(3)}", f"+61 4{d(2)} {d(3)} {d(3)}", f"(02) {d(4)} {d(4)}"],
            "br": [f"+55 11 9{d(4)}-{d(4)}", f"(21) 9{d(4)}-{d(4)}"],
            "jp": [f"090-{d(4)}-{d(4)}", f"+81 80 {d(4)} {d(4)}"],
            "ng": [f"+234 80{d(1)} {d(3)} {d(4)}", f"080{d(1)}{d(7)}"],
            "mx": [f"+52 55 {d(4)} {d(4)}", f"55 {d(4)} {d(4)}"],
            "nl": [f"06-{d(8)}", f"+31 6 {d(8)}"],
            "ie": [f"087 {d(3)} {d(4)}", f"+353 86 {d(3)} {d(4)}"],
        }
        return r.choice(shapes[style]), style

    def card(self):
        r = self.rng
        kind = r.choice(["visa", "visa", "mastercard", "mastercard", "amex", "discover"])
        if kind == "amex":
            n = luhn_complete(r.choice(["34", "37"]), 15, r)
            return r.choice([_group(n, (4, 6, 5), " "), _group(n, (4, 6, 5), "-"), n]), kind
        prefix = {"visa": "4", "mastercard": str(r.randint(51, 55)), "discover": "6011"}[kind]
        n = luhn_complete(prefix, 16, r)
        return r.choice([_group(n, (4, 4, 4, 4), " "), _group(n, (4, 4, 4, 4), "-"), n, _group(n, (4, 4, 4, 4), "  ")]), kind

    def zip(self):
        r = self.rng
        L = lambda: r.choice("ABCDEFGHJKLMNPRSTUWXY")
        style = {"us": r.choice(["us", "us_plus4"]), "ie": "ie"}.get(self.country, self.country) or r.choice(
            ["us", "us", "us_plus4", "uk", "uk", "ca", "de", "in", "nl", "br", "jp", "au", "fr", "es", "it", "se", "pl", "ie"])
        value = {
            "us": digits(r, 5, True),
            "us_plus4": f"{digits(r, 5, True)}-{digits(r, 4)}",
            "uk": f"{L()}{L()}{r.randint(1, 20)} {r.randint(1, 9)}{L()}{L()}",
            "ca": f"{L()}{r.randint(1, 9)}{L()} {r.randint(1, 9)}{L()}{r.randint(1, 9)}",
            "de": digits(r, 5, True),
            "in": digits(r, 6, True),
            "nl": f"{digits(r, 4, True)} {L()}{L()}",
            "br": f"{digits(r, 5, True)}-{digits(r, 3)}",
            "jp": f"{digits(r, 3, True)}-{digits(r, 4)}",
            "au": digits(r, 4, True),
            "fr": digits(r, 5, True),
            "es": f"{r.randint(1, 52):02d}{digits(r, 3)}",
            "it": digits(r, 5, True),
            "se": f"{digits(r, 3, True)} {digits(r, 2)}",
            "pl": f"{digits(r, 2, True)}-{digits(r, 3)}",
            "ie": f"{r.choice('ADFHKNPRTVWXY')}{digits(r, 2)} {L()}{digits(r, 1)}{L()}{digits(r, 1)}",
        }[style]
        return (value.lower() if r.random() < 0.3 else value), style

    def street(self):
        r = self.rng
        name = r.choice(STREET_NAMES)
        n = r.randint(1, 9800) if r.random() < 0.6 else r.randint(1, 99)
        style = r.choice(["us", "us", "uk", "de", "fr", "es", "it", "nl", "se", "pl", "au", "in", "br", "ca", "ie"])
        self.country = style
        unit = r.randint(1, 40)
        value = {
            "us": r.choice([f"{n} {name} {r.choice(['St', 'Street', 'Ave', 'Avenue', 'Dr', 'Drive', 'Rd', 'Ln', 'Ct', 'Blvd', 'Way', 'Pl'])}",
                            f"{n} {name} {r.choice(['st', 'ave', 'dr', 'rd', 'ln'])} apt {unit}{r.choice('ABCD')}",
                            f"{n} N {name} Rd", f"{n} {name} Terrace #{unit}"]),
            "uk": r.choice([f"{n % 200 + 1} {name} {r.choice(['Road', 'Close', 'Crescent', 'Gardens', 'Mews', 'Grove', 'Lane'])}",
                            f"Flat {unit}, {n % 120 + 1} {name} Road"]),
            "de": f"{r.choice(['Amsel', 'Birken', 'Eichen', 'Holunder', 'Ahorn', 'Rosen', 'Lerchen', 'Mühlen', 'Wiesen'])}{r.choice(['straße', 'str.', 'weg', 'allee'])} {n % 150 + 1}",
            "fr": f"{n % 150 + 1} {r.choice(['rue des Lilas', 'rue du Moulin', 'avenue des Tilleuls', 'impasse des Glycines', 'chemin de la Source', 'rue de la Forge'])}",
            "es": f"{r.choice(['calle', 'Calle', 'avenida', 'c/'])} {r.choice(['de los Almendros', 'del Olmo', 'Mayor', 'de la Fuente', 'San Bartolo'])} {n % 150 + 1}, {r.randint(1, 8)}º {r.choice(['izq', 'dcha', 'B', 'A'])}",
            "it": f"{r.choice(['via', 'Via', 'viale'])} {r.choice(['dei Ciclamini', 'delle Rose', 'del Pozzo', 'San Rocco', 'dei Mille'])} {n % 150 + 1}",
            "nl": f"{r.choice(['Zonnebloem', 'Klaproos', 'Vlinder', 'Kastanje', 'Merel'])}{r.choice(['straat', 'laan', 'weg'])} {n % 150 + 1}",
            "se": f"{r.choice(['Björk', 'Tall', 'Gran', 'Lönn', 'Ek'])}{r.choice(['vägen', 'gatan'])} {n % 90 + 1}",
            "pl": f"ul. {r.choice(['Słoneczna', 'Lipowa', 'Polna', 'Leśna', 'Ogrodowa'])} {n % 90 + 1}/{unit}",
            "au": r.choice([f"Unit {unit}/{n % 200 + 1} {name} St", f"{unit}/{n % 200 + 1} {name} Cres", f"{n % 300 + 1} {name} Pde"]),
            "in": f"Flat {r.randint(1, 12)}0{r.randint(1, 9)}, {name} Apartments, {r.choice(['4th Cross', '2nd Main', '6th Cross'])}",
            "br": f"Rua das {r.choice(['Palmeiras', 'Acácias', 'Hortênsias'])}, {n % 900 + 1}, apto {unit}",
            "ca": f"{n} {name} {r.choice(['St', 'Ave', 'Cres', 'Blvd'])}",
            "ie": f"{n % 90 + 1} {name} Park",
        }[style]
        return (value.lower() if r.random() < 0.25 else value), style

    def ssn(self):
        r = self.rng
        a, b, c = f"{r.randint(1, 665):03d}", f"{r.randint(1, 99):02d}", f"{r.randint(1, 9999):04d}"
        return r.choice([f"{a}-{b}-{c}", f"{a} {b} {c}", f"{a}{b}{c}"]), "ssn"

    def passport(self):
        r = self.rng
        return r.choice([digits(r, 9, True), f"{r.choice('CFGHJKLMNPRTVWXYZ')}{digits(r, 7)}",
                         f"{r.choice('CFGHJKLMNPRTVWXYZ')}{r.choice('CFGHJKLMNPRTVWXYZ')}{digits(r, 7)}"]), "passport"

    def idnum(self):
        r = self.rng
        L = lambda: r.choice("ABCEGHJKLMNPRSTWXYZ")
        style = r.choice(["aadhaar", "ca_sin", "national_id"])
        value = {
            "aadhaar": f"{digits(r, 4, True)} {digits(r, 4)} {digits(r, 4)}",
            "ca_sin": _group(luhn_complete(str(r.randint(1, 7)), 9, r), (3, 3, 3), r.choice([" ", "-"])),
            "national_id": f"{L()}{L()}{digits(r, 6)}{L()}",
        }[style]
        return value, style

    def ni(self):
        L = lambda: self.rng.choice("ABCEGHJKLMNPRSTWXYZ")
        d = lambda: digits(self.rng, 2)
        return f"{L()}{L()} {d()} {d()} {d()} {self.rng.choice('ABCD')}", "uk_ni"

    def dl(self):
        r = self.rng
        L = lambda: r.choice("ABCDEFGHJKLMNPRSTWXYZ")
        return r.choice([f"{L()}{digits(r, 3)}-{digits(r, 4)}-{digits(r, 4)}", f"{L()}{digits(r, 7)}",
                         f"{digits(r, 3)} {digits(r, 3)} {digits(r, 3)}"]), "driver_licence"

    def aadhaar(self):
        r = self.rng
        return f"{digits(r, 4, True)} {digits(r, 4)} {digits(r, 4)}", "aadhaar"

    def sid(self):
        return digits(self.rng, self.rng.choice([8, 9]), True), "student_id"


SLOT_KIND = {"first": "PERSON", "last": "PERSON", "full": "PERSON", "street": "STREET", "zip": "ZIP",
             "phone": "PHONE", "email": "EMAIL", "card": "CARD", "ssn": "ID", "passport": "ID", "idnum": "ID", "ni": "ID", "dl": "ID", "sid": "ID", "aadhaar": "ID",
             "city": None}

# (group, template). {slot} is filled from Fakes; {first2} etc. are second values of a slot.
TEMPLATES = {
    "person": [
        "btw i'm {first}", "oh I forgot to introduce myself, I'm {first}!", "my name's {first} by the way",
        "{first} here lol", "call me {first}, everyone does", "this is {first} from the saturday group",
        "im {first} nice to meet u", "hey its {first} again", "thanks!!\n- {first}", "cheers, {first}",
        "my bf {first} says hi", "my little sister {first} is obsessed with that", "my roomate {first} thinks so too",
        "me and my cousin {first} went last summer", "my husband {first} would disagree haha",
        "my son {first} just turned 7", "my best friends name is {first}", "i was named after my grandma {first}",
        "my coworker {first} told me about it", "my mom, {first}, cooks that every sunday", "{first} (my daughter) loves it",
        "our neighbour {first} has two of those", "me n my wife {first} tried it", "ask my brother {first}, he knows more",
        "my gf {first} made me watch it", "my step dad {first} is a huge fan", "i think my aunt {first} has the book",
        "my name is {full}", "I'm {full}, I work in accounting", "full name: {full}", "my teacher mrs {last} always said that",
        "my boss {full} wants the report by friday", "it was my uncle {full} who got me into it",
        "can you help me write a birthday message for my grandpa {full}? he's turning 80",
        "my friend {full} is a nurse and she says the same", "my ex {full} still has my hoodie lol",
        "dr. {last} is my dentist and he recommended it", "hi, {full} here (the new tenant)",
        "surname {last}, first name {first}", "my maiden name was {last}", "my dad {full} grew up near there",
        "Regards,\n{full}", "my kid's teacher mr {last} is always late", "I'm {first}, {last} is my last name",
        "my landlord {full} never fixes anything", "my sister in law {first} is visiting",
        "I'm {first} and this is my partner {first}", "greetings from {full}",
    ],
    "street": [
        "i live at {street}, {city}", "we just moved to {street} in {city}", "send it to {street}, {city}",
        "our house is the blue one at {street}", "grandmas place is on {street} so we drive past it",
        "im at {street} rn", "my address is {street}", "come over anytime, we're at {street}",
        "the party is at my place, {street}!", "my old apartment was {street}, {city}, tiny but cute",
        "delivery address: {street}", "can you check if {street} {city} is in the flood zone",
    ],
    "phone": [
        "my number is {phone}", "text me at {phone}", "call me {phone} after 6", "my cell: {phone}",
        "whatsapp {phone}", "u can reach me on {phone}", "ph {phone}", "my mums number is {phone} if i dont answer",
        "{phone} is my work line", "my phone # is {phone}", "my new number {phone} save it",
        "if anything comes up ring {phone}", "my number changed, its {phone} now",
    ],
    "email": [
        "my email is {email}", "email me at {email}", "shoot me a msg {email}", "send the pics to {email} pls",
        "contact: {email}", "my personal email is {email}", "it's {email}, all lower case", "my email adress is {email}",
        "add me {email}", "you can forward it to {email}",
    ],
    "card": [
        "my card number is {card} exp 08/26, is it safe to put it on that site?", "visa {card}",
        "i paid with {card} and they charged me twice", "here's my credit card: {card}, can you check if its valid",
        "cc# {card}", "can you tell me what bank issues {card}?", "my debit card {card} got declined again",
        "the number on my card is {card} and the cvv is on the back",
    ],
    "zip": [
        "my zip is {zip}", "we're in {zip} if that helps", "postcode {zip}", "our postcode is {zip}",
        "the zip code for my place is {zip}", "what's the weather like in {zip}? that's where i live",
        "my postal code is {zip}", "i'm in the {zip} area",
    ],
    "id": [
        "my ssn is {ssn}", "social security number {ssn}", "my passport number is {passport}, do i need to renew it?",
        "passport no. {passport}", "my id number is {idnum}", "my license number is {dl}", "driving licence no {dl}",
        "here is my number for the form: {idnum}", "my SSN: {ssn} (dont share this lol)", "passport # {passport}",
        "my national insurance is {ni}", "NI number: {ni}", "student id {sid}", "my aadhaar is {aadhaar}",
    ],
    "combo": [
        "I'm {full}, you can reach me at {phone}", "my name is {first} and my email is {email}",
        "send it to {full}, {street}, {city} {zip}", "my sister {first} lives at {street} now",
        "call my dad {first} on {phone}", "please write a cover letter for me: {full}, {phone}, {email}, applying for barista",
        "ship to: {full} / {street} / {city} / {zip}", "my address is {street}, {city} {zip}",
        "im {first}, {phone} is my cell", "{full}\n{street}\n{city} {zip}\n{phone}",
        "for the booking: {full}, passport {passport}", "my name is {full}, ssn {ssn}, dob is on the form",
    ],
}
GROUP_WEIGHTS = {"person": 0.30, "street": 0.12, "phone": 0.13, "email": 0.11, "card": 0.08, "zip": 0.08,
                 "id": 0.09, "combo": 0.09}


def fill(template: str, fakes: Fakes, lower: bool) -> tuple[str, list[dict]]:
    """The snippet text and its values [{start, value, kind, style}] (start within the snippet)."""
    out, values, pos = "", [], 0
    fakes.person = fakes.country = None
    for m in re.finditer(r"\{(\w+)\}", template):
        out += template[pos:m.start()]
        slot = m.group(1)
        value, style = getattr(fakes, slot)()
        if lower:
            value = value.lower()
        if SLOT_KIND[slot]:
            values.append({"start": len(out), "value": value, "kind": SLOT_KIND[slot], "style": style})
        out += value
        pos = m.end()
    return out + template[pos:], values
