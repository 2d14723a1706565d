"""The plainest personal values a careful reviewer removes, and the look-alikes that must stay:
finders alone (no NER), so each case says exactly which shape or cue decides."""

from __future__ import annotations

import pytest

from builder.clean.addresses import find_non_latin_addresses, find_streets
from builder.clean.dates import find_birth_dates
from builder.clean.names import RELATION, whole_name
from builder.clean import numbers
from builder.clean.numbers import codes_before_places, find_cards, find_ids, find_phones, find_postal_codes


def values(finder, text: str) -> list[str]:
    return [text[s:e] for s, e, *_ in finder(text)]


@pytest.mark.parametrize("text, found", [
    ("cc 3509413199654323 exp 04/27", ["3509413199654323", "04/27"]),  # "cc" right before: no Luhn or issuer needed
    ("my credit card 060426070011 was charged twice", ["060426070011"]),
    ("card number: 4111 1111 1111 1111", ["4111 1111 1111 1111"]),
    ("visa 4111111111111111", ["4111111111111111"]),
    ("the card game 1234 5678 9012", []),  # not Luhn, no card word right before
    ("order id 4111111111111111", []),  # labelled as another id
    ("card 000000000000", []),  # no number anybody has
])
def test_cards(text, found):
    assert values(find_cards, text) == found


@pytest.mark.parametrize("text, found", [
    ("card no. 4532-0151-1283-0366, exp 12/26, cvc 019", ["019", "12/26", "4532-0151-1283-0366"]),  # its details too
    ("my card expires 09/27 and the cvv is 737", ["737"]),
    ("the cvs pharmacy is at 123", []),
])
def test_card_security_codes(text, found):
    assert sorted(values(find_cards, text)) == found


@pytest.mark.parametrize("text, found", [
    ("please stop receiving messages to 0688 872 49 99", ["0688 872 49 99"]),
    ("my whatsapp is 612 345 678", ["612 345 678"]),
    ("the meeting is on 2024-03-05", []),
])
def test_phones(text, found):
    assert values(find_phones, text) == found


@pytest.mark.parametrize("text, found", [
    ("my zip code is 880", ["880"]),
    ("my zip is 90210 and the weather is nice", ["90210"]),  # the word after the code is no part of it
    ("Zip Code - 12345, or zip=54321", ["12345", "54321"]),  # a dash or an equals sign between
    ("12345 is my zip, the 02108 zip area", ["02108", "12345"]),  # "zip" alone after the code ...
    ("I sent 12345 zip files", []),  # ... not before a noun
    ("postcode SW1A 1AA please", ["SW1A 1AA"]),
    ("zip it 123 times", []),
    ("is 02139 a valid zip code for Cambridge?", ["02139"]),  # the cue after the code
    ("90210 is my postal code", ["90210"]),
    ("Our house in Springfield, Illinois 62704 has a leak", ["62704"]),  # a state written out
    ("Postleitzahl: 80331", ["80331"]),  # the cue in the code's own language
    ("〒100-0001 東京都千代田区", ["100-0001"]),
    ("邮编：100080", ["100080"]),
    ("I walked 10000 steps in California 2 days ago", []),
    ("the CAP theorem says 3 things", []),  # "cap" counts only before a five-digit code
    # lower case: a state before a ZIP (a state that is also a word only after a comma), a Canadian or a
    # British shape with its own letters and areas, a home given by its code
    ("springfield, il 62704 and austin tx 78701", ["62704", "78701"]),
    ("indianapolis, in 46204", ["46204"]),
    ("I counted them in 46204 ways", []),
    ("toronto m5v 2t6, leeds ls1 4ap", ["ls1 4ap", "m5v 2t6"]),
    ("press a1 2bc then q2 4ff", []),  # no such British area, no such Canadian letters
    ("i moved to 60614 last year, we lived in the 94110 area", ["60614", "94110"]),
    ("im in the 1017CT area, she is in the 01310-100 area", ["01310-100", "1017CT"]),  # other countries' shapes
    ("print it in the A4 area of the page", []),  # a paper size
    ("SPX bounced off the 4200 area again; ETH held the 100000 area", []),  # prices, not places
    ("my zip is 148xx, Leeds 305** too", ["148xx", "305**"]),  # a code its writer half hid
    ("we follow the ISO 270xx family; the intel i9-139xx chips", []),
    ("Perth, WA 2019 champions", []),  # a year after a state
    ("a town of 12000 people, moved to 12000 miles away", []),
    # shorter shapes where a home verb says where someone is (a four-digit one never a year)
    ("im in the 5950 area, hbu", ["5950"]), ("im in the 221 59 area", ["221 59"]), ("we live in the 724** area", ["724**"]),
    ("my mmr is in the 4000 area", []), ("we live in the 2000 area lol", []),
    ("im in Denver, 80202 lol", ["80202"]), ("im in Denver, 80202 people live here", []),  # set off after "I'm in"
    ("we live near Woodsburgh (M3R5V6)", ["M3R5V6"]), ("Vancouver, BC V3K5N8", ["V3K5N8"]),  # Canada's, joined
    ("the hex is A1B2C3", []),
    # a code where a place stands, after a preposition of place; plain digits not after "around"
    ("what's the weather like in 80290 this weekend?", ["80290"]), ("any good tacos near 560034?", ["560034"]),
    ("anyone around 24629-649 or outside 30-001 wanna trade?", ["24629-649", "30-001"]),
    ("anyone around 491xx, in N6S3C2 or in D38 X8R7?", ["491xx", "D38 X8R7", "N6S3C2"]),
    ("salary is around 60000 now; around 10-100 people; around 322 597", []),  # amounts, ranges
    ("is it safe to walk around 08540 at night?", ["08540"]), ("around 0900 we left", []),  # no amount starts with 0
    # the lettered shapes also after "at", "from", "to"; in lower case whatever their letters; not a time or an ordinal
    ("we're at M5V 2T6, im from 1017 CT, moved to D-10115", ["1017 CT", "D-10115", "M5V 2T6"]),
    ("near SW1A1AA or in D02X285", ["D02X285", "SW1A1AA"]), ("anyone near qw4 5tr?", ["qw4 5tr"]),
    ("at ps4 5pm lets play; got my cs2 3rd place; in 2019 AD; flew in an F-35", []),
    ("1 in 50000 chance; one in 10000; in 100000; in 12000 steps; in 50000 per year", []),  # odds, round, counted
])
def test_postal_codes_after_their_cue(text, found):
    assert sorted(set(values(find_postal_codes, text))) == found


@pytest.mark.parametrize("text, ents, found", [
    ("Wohnt in 10115 Berlin, Invalidenstraße 117.", [(15, 21, "GPE")], ["10115"]),  # Europe: the code before the town
    ("I'm in 75008 Paris, near the park", [(13, 18, "GPE")], ["75008"]),
    ("10000 Paris residents signed", [(6, 11, "GPE")], []),  # a count: the place runs on into a noun
    ("in 2019 Paris, the summit met", [(8, 13, "GPE")], []),  # a year
    ("Paris 75002, France", [(0, 5, "GPE")], ["75002"]),  # the code after the town
    ("Sydney NSW 2000", [(0, 6, "GPE")], ["NSW 2000"]),  # four digits only after an Australian state
    ("Tokyo 160-0022", [(0, 5, "GPE")], ["160-0022"]),
    ("Lisbon 1100-148", [(0, 6, "GPE")], ["1100-148"]),  # Portugal: four digits, three
    ("Data Mining, 474-483; Mexico, 2000-2017", [(30, 36, "GPE")], []),  # pages and years
    ("1017 CT Amsterdam", [(8, 17, "GPE")], ["1017 CT"]),  # Dutch: four digits and two letters
    ("London 2012 was great; Beijing 100000 people", [(0, 6, "GPE"), (23, 30, "GPE")], []),  # a year; a count
    ("500 BC Athens", [(7, 13, "GPE")], []),
    ("Paris 75002 is where I live; bangalore 560034", [], ["75002", "560034"]),  # places by their word vectors
    ("timeout for 127.0.0.1 port 52662", [], []),  # "port" is also a verb: no town
    # the world's shapes after a town, and a code said to be in one
    ("Bhopal 462 016, Kraków 30-001, Stockholm 114 55", [], ["462 016", "30-001", "114 55"]),
    ("I'm in Oslo 0557, which shops are open?", [], ["0557"]), ("Oslo 0800 departure", [], []),  # a leading zero
    ("What's the capacity of Wembley Stadium, 90000?", [], []),  # a round number after a place: an amount
    ("Leeds 73580 represent lol", [], ["73580"]),  # five digits after a town: its code unless a word makes an amount
    ("Leeds 73580 per month", [], []),
    ("Leeds 73580, represent lol", [], ["73580"]),
    ("Leeds 2500 fans came; Oslo 2019 was cold", [(0, 5, "GPE"), (23, 27, "GPE")], []),  # a count; a year
    ("Oslo 0150 is where I grew up", [(0, 4, "GPE")], ["0150"]),  # four digits after a place the NER reads
    ("is 14-789 in Kraków? my gps is confused", [], ["14-789"]),
    ("new place is 40 grafton street, VIC 4202. come visit", [], ["VIC 4202"]),  # an Australian state after a comma
    ("rent in Mumbai 25000 per month is normal", [(8, 14, "GPE")], []),  # a number a word counts
    ("I watched the Beijing 2008 HD remaster", [(14, 21, "GPE")], []),  # a year, not a Dutch code
])
def test_postal_codes_before_the_town(text, ents, found):
    assert [text[s:e] for s, e, *_ in codes_before_places(text, ents)] == found


@pytest.mark.parametrize("text, found", [
    ("uscgc aslakhanov fpo ae 44941", True),  # lower case, a ship with its FPO line
    ("PSC 4926, Box 7979 APO AA 63682", True),
    ("I love the USS Enterprise from Star Trek", False),  # the ship alone is no address
    ("Room 0 is connected to Room 3. Room 3 is connected to Room 5.", False),  # a puzzle's rooms
    ("I live at 42 Willow Lane, Apt 4B, Springfield", True),
    ("send it to 5317 Kim Oval Apt. 093", True),  # a USPS suffix that is also a common noun, with its unit
    ("my address: 889 Gonzalez Trafficway, North Davidside", True),  # ... after an address cue
    ("Top 10 National Parks to visit", False),  # ... alone it is a count of things
    ("Chapter 3 Key Points", False),
    ("Her place: 1200 Brown Station, Port Sarah", True),  # a singular USPS suffix where an address stands
    ("Day 3 Central Park and the Met", False),  # ... not after a label word or before more words
    ("we took the 7 Union Station train", False),
    ("we live on Elm Street near the school", True),  # no house number, but a home on it
    ("i live on maple drive", True),
    ("I live on the edge", False),
    ("we recently moved to Birchwood Drive", True),  # the user's or their people's home, by any verb of living
    ("my mum lives in Old Mill Lane", True),
    ("my street, Maple Avenue, is noisy", True),
    ("I'm at Harbour View Crescent, come over", True),
    ("I'm on the road", False),
    ("the Kikorikis are dropped off home at Chamomile Valley", False),  # a story's home: nobody's address
    ("I'm in Wall Street today", False),  # being somewhere is no home
    ("Hello There. i live at carrer de provença 90 and it is loud", True),  # a lower-case sentence in a turn with capitals
    ("send it to 1600 The Mall, Springfield", True),
    ("if the score is below 70, the actual grade point is used", False),
    ("10:30 Sonic X\n11:30 The Hollow\n12:00 Craig of the Creek", False),  # times in a schedule, no house numbers
    ("ok so i have u down as\nHouse No. 967, Sector 25\nBhopal", True),  # a South Asian house and sector
    ("new place is 888 maple street, NSW 4123. come visit", True),  # lower case, closed by a state and its code
    ("Nvidia GeForce RTX 3070, GeForce RTX 3050 and Radeon RX 6600", False),
    ("ok im outside 14 rue des Lilas where r u", True),  # the name stops before "where"
    ("ok so i have u down as\nAna Xu\n9177 rue Sainte-Catherine\nLeeds 12345", True),  # read to the line's end
    ("at Dean's place (rua augusta, 175, apto 45) at 8", True),  # a foreign type word, a lower-case name
    ("Draft: Ana Xu, Blk 131 Tampines St 25 #07-30, Singapore 520131.", True),  # a Singapore block
    ("In Vim, place the cursor 5 lines down.", False), ("Then route the cable 3 times.", False),
    ("Put block 2 in the first row, then block 3 in the second row.", False),
    ("Utah's home to 5 National Parks!", False),
    ("Send it over: 888 maple street, Sydney NSW 4123. Thanks", True),
    # ... or a preposition of place before it; not a count of things
    ("uber dropped me at 892 maple street instead of Denver center smh", True),
    ("We bought 2 main road options", False), ("So a 3 to 4 hour drive from Denver", False),
    # ... or after a cue that says "address", its type word left out; not a count or a time
    ("i live at 4206 Fairmount now", True), ("my address is 64 dunraven, come by", True),
    ("Ship it to 1437 N Hoyne please", True), ("sory my adress is 7-46-2 jingumae not the old one", True),
    ("i live at 29 hawthorn tce", True), ("send it to 2 people", False), ("i live at 5 min from campus", False),
    ("meet at 5 pm", False), ("Send them to 3 Friends of mine", False),
    ("Yo, meet me at avenida paulista 1000 tonight", True),  # the type word read whole ("avenida", not "av")
    ("the party is at Joseph's place (5547 rue sainte-catherine) at 8", True),  # "rue" is French's street
    ("I rue the day I met him, 12 times over", False),
    ("the party is at Joseph's place (blk 351 tampines st 26 #07-42) at 8", True),  # "blk" and a unit: any case
    # Australia's road types need a cue or a code; Italian, Spanish and Brazilian types lead the name
    ("i live at 7 Griffith End", True), ("i live at 6/170 Reynolds Wade", True), ("Chapter 7 The End", False),
    ("we waited 10 minutes at the gate", False), ("i live at Contrada Danilo, 77", True),
    ("mi casa: Glorieta Ana Ruiz 3", True), ("i live at Recanto Gabrielly Viana, 81", True),
    # an organisation in an earlier chat message is no letterhead over the address
    ("Yeah. College is fun. I had good times.\nmy name is kelly and i live on apt 2x, 402 bedford ave", True),
])
def test_addresses(text, found):
    assert bool(find_streets(text)) is found


@pytest.mark.parametrize("text", [
    "Check: Ana Xu, 19/09/1988, 12 Oak Street, Leeds",  # the date's year is no house number
    "DOB 23.09.1993, 12 Oak Street, Leeds",
])
def test_a_street_after_a_date_starts_at_its_house_number(text):
    spans = find_streets(text)
    assert spans and {s for s, *_ in spans} == {text.index("12 Oak")}


@pytest.mark.parametrize("text, found", [
    ("I was born on 12 March 1990 in Leeds", ["12 March 1990"]),
    ("DOB: 03/12/1990", ["03/12/1990"]),
    ("my birthday is May 4th", ["May 4th"]),
    ("date of birth 1990-03-12", ["1990-03-12"]),
    ("Mozart was born on 27 January 1756", []),  # history
    ("born in 1990", []),  # a year alone
    ("Geburtsdatum: 12.03.1990", ["12.03.1990"]),  # the cue in the user's language
    ("出生日期：1990年3月12日", ["1990年3月12日"]),
    ("the stubborn 12/03/1990 invoice", []),  # "born" inside a word is no cue
    ("born 17-Oct-1971 so yeah", ["17-Oct-1971"]),  # a form's and a passport's shapes
    ("his passport is X and dob 19960312", ["19960312"]),
    ("the hospital has my dob as 05-14-1994 but thats wrong", ["05-14-1994"]),  # a few words after the cue
    ("born on the 16th of August 1999", ["16th of August 1999"]),
    ("revenue 20240312 units", []),  # a compact date needs its cue
    # before 1920 a birth is history, unless a person gives it as their own or a relative's
    ("born 29/07/1913 so yeah im a scorpio lol", ["29/07/1913"]), ("I was born on 27 January 1910", ["27 January 1910"]),
    ("my grandma was born 03/04/1915 in Leeds", ["03/04/1915"]), ("my dob is 03/04/1913", ["03/04/1913"]),
    ("He was born 1 May 1900.", []), ("My favourite composer was born on 27 January 1756", []),
    ("I read that Mozart was born on 27 January 1756", []),
    # a two-digit year after a written month: with its apostrophe, or ending the sentence
    ("my dob is 3 march 99", ["3 march 99"]), ("born march 3 '99 lol", ["march 3 '99"]),
    ("my birthday is march 3 20 people came", ["march 3"]),
    ("I was born on the fourth of July 1998 lol", ["fourth of July 1998"]),   # a day in words
    ("my bday is march twenty-first", ["march twenty-first"]),
])
def test_birth_dates(text, found):
    assert values(find_birth_dates, text) == found


@pytest.mark.parametrize("text, relation", [
    ("my 72-year-old sister ", True), ("my ex-girlfriend ", True), ("my ex ", True), ("my best friend ", True),
    ("the sister ", False),
])
def test_relations(text, relation):
    assert bool(RELATION.search(text)) is relation


@pytest.mark.parametrize("text, found, whole", [
    ("I talked to Pierpaolo Rossi yesterday.", "Rossi", "Pierpaolo Rossi"),
    ("Yesterday Anna met Bob. Smith said hi.", "Smith", "Smith"),  # "Bob." ends a sentence
    ("The Rossi family", "Rossi", "Rossi"),
    ("I just bought this Fender Stratocaster today", "Stratocaster", "Stratocaster"),  # a brand, after "this"
    ("a recommendation for Darnell Washington, a student", "Darnell", "Darnell Washington"),  # a public word people have as a surname
    ("Jake Netflix and chill", "Jake", "Jake"),
])
def test_half_a_name_is_never_left(text, found, whole):
    start = text.index(found)
    s, e = whole_name(text, start, start + len(found))
    assert text[s:e] == whole


@pytest.mark.parametrize("text, found", [
    ("i'm lucia, my brother dmitri says hi", ["lucia", "dmitri"]),
    ("thanks, oleksandr", ["oleksandr"]),
    ("hello ngozi!", ["ngozi"]),
    ("I am aman.", ["aman"]),
    ("i'm sooo tired", []),  # not before an end of sentence
    ("oh dear, oops, hurray", []),  # interjections, and "dear" that greets nobody
    ("Dear brides-to-be, your day", []),
    ("My little brother didn’t notice", []),
    ("thanks, bruh", []),
    ("hey mike!", []),  # a first name that is also an English word: not by rule in lower case
])
def test_lower_case_names_after_a_cue(text, found):
    from builder.clean.names import lower_case_names

    assert values(lower_case_names, text) == found


@pytest.mark.parametrize("text, found", [
    ("PAN: ABCDE1234F", ["ABCDE1234F"]),  # a document whose name alone says "identifier"
    ("Personalausweis L01X00T47", ["L01X00T47"]),
    ("codice fiscale RSSMRA85T10A562S", ["RSSMRA85T10A562S"]),
    ("my medicare number is 2123 45670 1", ["2123 45670 1"]),  # groups, not the "is" before them
    ("National Insurance number QQ 12 34 56 C", ["QQ 12 34 56 C"]),  # the NINO's printed grouping
    ("The PAN is a 10 character code", []),
    ("sin 2x = 2 sin x cos x", []),
    ("is 21016479 a valid passport number or did the bank mess it up?", ["21016479"]),  # named after it
    ("48812-7 is my student id", ["48812-7"]),
    ("in 2019 my passport number changed", []),  # a year before the name
    # a document's own name after it, behind an article or a possessive; "pan" and "sin" only as names
    ("is 21016479 a valid SIN?", ["21016479"]), ("AB123456C is my NI number", ["AB123456C"]),
    ("ABCDE1234F is my pan card no", ["ABCDE1234F"]), ("is 12345678 a valid aadhaar", ["12345678"]),
    ("12000 NHS nurses", []), ("I bought 12345 a pan", []), ("i did 10000 a sin", []),
    ("numer dowodu: AYK 482917", ["AYK 482917"]),  # a Polish identity card's number, its letters spaced off
    # "plate" alone before "was"/"is"/":" and a code of letters and digits
    ("yo the plate was 7XKR392, white civic", ["7XKR392"]), ("plate was FJK-4829, NY tags", ["FJK-4829"]),
    ("the plate was 12 inches wide; plate is 350 degrees; the plate was 2x3cm", []),
])
def test_ids_named_by_their_document(text, found):
    assert sorted(set(values(find_ids, text))) == found


@pytest.mark.parametrize("text, found", [
    ("我住在北京市朝阳区建国路88号3号楼2单元501室", ["北京市朝阳区建国路88号3号楼2单元501室"]),  # after the lead-in
    ("東京都渋谷区神南1-2-3に住んでいます", ["東京都渋谷区神南1-2-3"]),
    ("Я живу на ул. Ленина, д. 5, кв. 12", ["ул. Ленина, д. 5, кв. 12"]),
    ("建国路很长，北京市朝阳区很大", []),  # a road or a district without a house number is anyone's
    ("天津职业技术师范大学教务处\n地址：天津市河西区大沽南路1310号", []),  # an institution's letterhead
])
def test_addresses_in_scripts_without_spaces_or_capitals(text, found):
    assert values(find_non_latin_addresses, text) == found


@pytest.mark.parametrize("text, found", [
    ("my license plate is 7KXX763 lol", ["7KXX763"]), ("my car plate is DS75 YXN now", ["DS75 YXN"]),
    ("his plate number is GJF-8835", ["GJF-8835"]),
    ("my platelets 150000 is that ok", []), ("a hot plate 1500W", []), ("weight plates 2x25kg", []),
    ("his PAN is ABRPY3779L", ["ABRPY3779L"]),  # the shape alone, found once
    ("my passport number is literally NYXNB971132DY4YT", ["NYXNB971132DY4YT"]),  # an adverb after the cue
    ("lol my kenteken is literally 97-TVJ-9 ok", ["97-TVJ-9"]), ("his Kennzeichen is B-TB 2208", ["B-TB 2208"]),
    # "mine" after the document was named
    ("how do you validate passport numbers? mine is E181365", ["E181365"]),
    ("whats ur student id? mine is 197-63-35 lol", ["197-63-35"]),
    ("whats your lucky number? mine is 77777", []), ("what phone do you have? mine is iPhone13", []),
    ("how old is your passport? mine is 2019-05-04", []),
])
def test_vehicle_plates_pan_and_ids_after_an_adverb(text, found):
    from builder.clean.numbers import find_ids

    assert values(find_ids, text) == found


@pytest.mark.parametrize("text, found", [
    ("Please contact customer service at customer.service@bank.com", []),  # a role, not a person
    ("mark this done and cc mark@acme.io", []),  # a verb
    ("email Mark at mark@acme.io", ["Mark"]),
    ("My homelab:\n- Jellyfin\n192.168.1.20\n- Proxmox\n192.168.1.30", []),  # IPs are no phone lines
    ("Merry!! christmas everyone", []), ("Hope! this helps", []), ("Ashley! long time", ["Ashley"]),
])
def test_cued_names_over_match_nothing(text, found):
    from builder.clean.names import cued_names

    assert [text[s:e] for s, e, *_ in cued_names(text)] == found


@pytest.mark.parametrize("text, details", numbers.EXAMPLES_DETAILS)
def test_a_cards_expiry_code_and_last_four_are_the_cards(text, details):
    found = [text[s:e] for s, e, *_ in numbers.find_cards(text)]
    assert [f for f in found if sum(c.isdigit() for c in f) < 12] == details


def test_each_document_name_starts_with_a_word_of_the_cheap_test():
    """find_ids runs ID_DOCUMENT_AFTER only where a word of DOCUMENT_FIRST_WORDS stands: every name must start with one."""
    import re

    from builder.clean.numbers import DOCUMENT_FIRST_WORDS, DOCUMENT_NAMES

    for name in re.split(r"\|(?![^(]*\))", DOCUMENT_NAMES):
        first = re.match(r"[^\W\d_]+", name).group()
        assert first in DOCUMENT_FIRST_WORDS or first + "r" in DOCUMENT_FIRST_WORDS, name
