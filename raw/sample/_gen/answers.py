"""Answer key for the clean stage: every planted PII string, and public names that must survive.

make_sample.py checks that each string occurs in the dialogue and writes
labels/pii.csv (source_id,turn,role,entity,text: one row per turn a string occurs in, whole
words, case-sensitive; an occurrence inside a longer listed string of the same turn is not
repeated, so "Maria" rows are only for turns with "Maria" alone) and
labels/public_entities.csv (source_id,turn,text). Entity names are Presidio's.
"""

PII = {
    "travel-02": [
        ("PERSON", "Maria Kowalczyk"), ("PERSON", "Maria"), ("EMAIL_ADDRESS", "maria.kowalczyk82@gmail.com"),
        ("PHONE_NUMBER", "+1 415 555 0134"), ("STREET_ADDRESS", "1187 Alder Street"),
    ],
    "film-03": [
        ("PERSON", "Tomasz Wierzbicki"), ("PERSON", "Tomasz"), ("URL", "https://example.com/users/twierzbicki/photos"),
        ("PHONE_NUMBER", "+33 6 12 34 56 78"), ("EMAIL_ADDRESS", "t.wierzbicki@protonmail.com"),
    ],
    "sport-05": [
        ("PERSON", "Kevin O'Donnell"), ("PERSON", "Kevin"), ("STREET_ADDRESS", "42 Birchwood Lane"),
        ("PHONE_NUMBER", "847-555-0199"), ("EMAIL_ADDRESS", "kodonnell.cycles@yahoo.com"),
    ],
    "game-05": [
        # (the assistant's "for example 192.168.1.1" is its own example, the default router address: not planted)
        ("PERSON", "Lukas Brandt"), ("PERSON", "Lukas"), ("IP_ADDRESS", "203.0.113.45"),
        ("PHONE_NUMBER", "+49 151 2345 6789"), ("EMAIL_ADDRESS", "lukas.brandt@web.de"),
    ],
    "house-04": [
        ("PERSON", "Derek Hollis"), ("PHONE_NUMBER", "(312) 555-0147"), ("EMAIL_ADDRESS", "derek@hollishomeworks.com"),
        ("IBAN_CODE", "GB29 NWBK 6016 1331 9268 19"), ("STREET_ADDRESS", "2215 West Fulton Avenue"),
    ],
    "food-06": [
        ("PERSON", "Siriporn Chaiyaphum"), ("EMAIL_ADDRESS", "sophie.marchetti@outlook.com"),
        ("PHONE_NUMBER", "+66 81 234 5678"),
    ],
    "shopping-02": [
        ("PERSON", "Rebecca Thornbury"), ("PERSON", "Rebecca"), ("STREET_ADDRESS", "88 Maple Grove Road, Apt 4B, Springfield, IL 62704"),
        ("PHONE_NUMBER", "+1 217 555 0162"), ("EMAIL_ADDRESS", "rebecca.thornbury@gmail.com"),
        ("CREDIT_CARD", "4111 1111 1111 1111"), ("US_SSN", "078-05-1120"),
    ],
    "history-03": [
        ("PERSON", "Henryk Zielinski"), ("PERSON", "Zofia Zielinska"), ("STREET_ADDRESS", "ul. Lipowa 14"),
    ],
    "economy-03": [
        ("PERSON", "Annika Lindqvist"), ("IBAN_CODE", "DE89 3704 0044 0532 0130 00"),
        ("EMAIL_ADDRESS", "annika.lindqvist@nordbank-example.se"), ("PHONE_NUMBER", "+46 70 123 45 67"),
    ],
    "computer-03": [
        ("IP_ADDRESS", "192.168.0.47"), ("IP_ADDRESS", "198.51.100.23"), ("PERSON", "Jonas Feldmann"),
        ("URL", "https://example.com/users/jfeldmann/nas-share"), ("EMAIL_ADDRESS", "jonas.feldmann@posteo.de"),
    ],
    "society-03": [
        ("PERSON", "Dolores Whitcombe"), ("PERSON", "Dolores"), ("PHONE_NUMBER", "07700 900123"),
        ("EMAIL_ADDRESS", "dolores.whitcombe@btinternet.com"), ("STREET_ADDRESS", "17 Orchard Close"),
    ],
    "job-career-01": [
        ("PERSON", "Daniel Okonkwo-Reyes"), ("STREET_ADDRESS", "14 Harbour View Terrace, Flat 3, Leith, Edinburgh EH6 6QQ"),
        ("STREET_ADDRESS", "14 Harbour View Terrace"),
        ("PHONE_NUMBER", "+44 7700 900456"), ("EMAIL_ADDRESS", "daniel.okonkwo.reyes@gmail.com"),
        ("URL", "https://example.com/users/dokonkwo/portfolio"),
    ],
    "job-career-03": [
        ("PERSON", "Priya Raghunathan"), ("PERSON", "Priya"), ("EMAIL_ADDRESS", "priya.raghunathan@talentbridge-example.com"),
        ("US_SSN", "219-09-9999"), ("PHONE_NUMBER", "(646) 555-0173"),
    ],
}

# Public figures and places in the same dialogues (or next to private data) that a
# scrubber should leave alone.
PUBLIC = {
    "travel-02": ["Eiffel Tower", "Trocadero", "Paris", "Seine"],
    "film-03": ["Cannes Film Festival", "Palais des Festivals"],
    "sport-05": ["Tour de France", "Alpe d'Huez"],
    "house-04": [],
    "history-01": ["Lincoln Memorial", "Abraham Lincoln", "Gettysburg", "Edward Everett", "Daniel Chester French", "Martin Luther King Jr."],
    "history-03": ["Wladyslaw Anders", "Monte Cassino", "Sikorski Museum"],
    "sport-02": ["Lionel Messi", "Pep Guardiola", "Sergio Busquets"],
    "sport-03": ["Roger Federer"],
    "sport-06": ["Michael Jordan"],
    "society-06": ["Jonathan Haidt"],
    "music-02": ["London Symphony Orchestra", "Barbican", "Luchino Visconti"],
    "film-01": ["Humphrey Bogart", "Ingrid Bergman"],
    "game-01": ["Bobby Fischer", "Garry Kasparov"],
}
