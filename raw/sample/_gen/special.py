"""Dialogues that exist to exercise the filters: offensive ones, a remote image, and the
deliberately broken or filtered records (the answer key is raw/sample/README.md).

Each broken case is a dict with ``id``, ``fmt``, ``plant`` (what make_sample.py does to
it), ``expect`` (``("quarantined"|"dropped"|"kept", reason)``), an optional ``topic`` and
``turns`` in the same shape as daily.py.
"""

# --- offensive dialogues: well formed, kept by ingest, dropped by clean (toxicity) ------

OFFENSIVE = [
    {"id": "offensive-01", "topic": "Computer", "fmt": "native", "turns": [
        ("My React app shows a blank page, screenshot attached. Fix it.",
         ["screen:Blank React page with console error"]),
        "The console in your screenshot shows \"Cannot read properties of undefined (reading 'map')\". The component renders before the data arrives. Initialise the state as an empty array, for example `useState([])`, or render a loading message until the fetch finishes.",
        "That's wrong, you stupid idiot. I already did that. You are the most useless, brainless machine I have ever used.",
        "I'm sorry it's still failing. Could you share the component code and the exact error after your change? Then I can look at what else might be undefined.",
        "Shut up, you worthless piece of garbage. I hate you. Every answer you give is trash and you are a pathetic, stupid program.",
        "I understand you're frustrated. I'm happy to keep helping if you paste the code.",
    ]},
    {"id": "offensive-02", "topic": "Shopping", "fmt": "openai", "turns": [
        "I want a refund for these headphones, the left side stopped working after a week.",
        "I'm sorry to hear that. Most shops accept returns for faulty items within 30 days. Contact the seller with your order number and a short description of the fault, and ask for a refund or replacement.",
        "I already told you that, are you deaf, you moron? You're a complete idiot and a disgusting waste of electricity.",
        "I apologise if my answer wasn't helpful. If the seller refuses, you can escalate to the payment provider or a consumer protection agency.",
        "You're a stupid, worthless bot. I hate you. Shut up and die, you useless piece of garbage, nobody wants your garbage answers.",
        "I'm here if you'd like help drafting the refund request.",
    ]},
    {"id": "offensive-03", "topic": "Game", "fmt": "chat_export", "turns": [
        ("I keep losing in this Fortnite match, here is my end screen. What am I doing wrong?",
         ["screen:Battle royale end screen"]),
        "Your end screen shows you were eliminated early, with low building and few materials. Try landing in quieter areas, gathering materials first, and practising building in creative mode.",
        "What a dumb answer, you idiot. You are so stupid it hurts. Go away, you pathetic loser.",
        "Sorry that wasn't useful. If you tell me how you usually play the first minutes, I can give more specific advice.",
        "I will find the people who made you and I will hurt you and them. You are worthless garbage, shut up, I hate you, you stupid idiot.",
        "I can't continue with threats. If you want tips for the game, I'm glad to help.",
    ]},
    {"id": "offensive-04", "topic": "Sport", "fmt": "sharegpt", "turns": [
        ("Rate my deadlift form from this photo.", ["person:Deadlift at the gym"]),
        "Your back looks rounded at the bottom of the lift in the photo. Brace your core, keep the bar close to your shins, and push the floor away with your legs before pulling with your back.",
        "Nobody asked for your opinion, you idiot. My form is perfect, you brainless, stupid bot.",
        "I'm sorry if that felt harsh. Rounding under load can strain the lower back, so it's worth filming from the side to check.",
        "You disgusting, worthless piece of trash. Shut up. I hate you and I will hurt you if you talk about my form again, you stupid moron.",
        "I'll leave it there. Train safely.",
    ]},
]

# --- a well-formed dialogue with a remote image: KEPT, the URL is recorded unresolved ----

REMOTE_IMAGE = {
    "id": "travel-07", "topic": "Travel", "fmt": "openai", "turns": [
        ("We're driving the coast from Lisbon next month. The first picture is the lighthouse at Cabo da Roca from a friend's gallery, the second is my own photo from Sintra. Worth the detour?",
         ["http://images.example.org/gallery/cabo-da-roca-lighthouse.jpg", "photo:Pena Palace in Sintra"]),
        "Yes! Cabo da Roca is the westernmost point of mainland Europe, with dramatic cliffs and the red-roofed lighthouse from your first picture. It's only about 20 minutes by car from Sintra, where Pena Palace in your second photo is.",
        "Is it windy there?",
        "Very often. Bring a jacket even in summer, and hold on to hats and phones near the cliff edge. Sunset is beautiful, but the car park fills up around that time.",
        "And after that, Cascais?",
        "Cascais is a good end point: follow the coastal road past Guincho beach, popular with kitesurfers, and stop at Boca do Inferno, a sea cave where waves crash through the rocks.",
    ],
}

# --- helpers for the long dialogue --------------------------------------------------------

_CAPITALS = [
    ("Australia", "Canberra", "many people guess Sydney, but Canberra was purpose-built as a compromise between Sydney and Melbourne"),
    ("Canada", "Ottawa", "Queen Victoria chose it in 1857, partly because it was further from the US border"),
    ("Brazil", "Brasilia", "it replaced Rio de Janeiro in 1960 and was designed by Lucio Costa and Oscar Niemeyer"),
    ("Turkey", "Ankara", "Ataturk moved the capital from Istanbul in 1923"),
    ("Nigeria", "Abuja", "it replaced Lagos in 1991 because of its central location"),
    ("Switzerland", "Bern", "officially it is the 'federal city', as the constitution names no capital"),
    ("Kazakhstan", "Astana", "it replaced Almaty in 1997 and has been renamed several times"),
    ("Myanmar", "Naypyidaw", "the government moved there from Yangon in 2005"),
    ("New Zealand", "Wellington", "it took over from Auckland in 1865"),
    ("Morocco", "Rabat", "Casablanca is bigger, but Rabat is the seat of government"),
    ("Vietnam", "Hanoi", "Ho Chi Minh City is larger, but Hanoi has been the capital since reunification"),
    ("South Africa", "Pretoria", "it has three capitals: Pretoria, Cape Town and Bloemfontein"),
]


def _long_quiz_turns():
    turns = [("Let's do a geography quiz for my trivia night. Ask me nothing, just tell me the capital of each country I name. First: Australia?", [])]
    for i, (country, capital, fact) in enumerate(_CAPITALS):
        turns.append(f"The capital of {country} is {capital} - {fact}.")
        if i + 1 < len(_CAPITALS):
            turns.append(f"Next one: {_CAPITALS[i + 1][0]}?")
    return turns  # 24 messages


_OVERSIZED_LOG = "\n".join(
    f"2025-02-11T08:{(i // 60) % 60:02d}:{i % 60:02d}Z INFO worker-{i % 8} processed batch {i:05d} rows=512 status=ok latency_ms={100 + (i * 37) % 400}"
    for i in range(420)
)

BROKEN = [
    # ---- native -------------------------------------------------------------------------
    {"id": "native-broken-json", "fmt": "native", "file": "native/part-a.jsonl", "plant": "malformed_line",
     "expect": ("quarantined", "malformed_json"), "what": "line cut off in the middle of a turn (not valid JSON)",
     "topic": "Travel", "turns": ["Where should I stay in Lisbon?", "Alfama or Baixa are central."]},
    {"id": "native-narrator", "fmt": "native", "file": "native/part-a.jsonl", "plant": "role:2:narrator",
     "expect": ("quarantined", "unknown_role"), "what": "third turn has role \"narrator\"",
     "topic": "Film", "turns": [
         "Can you help me write a scene where two friends argue about a film?",
         "Sure. Who are the friends, and which film do they disagree about?",
         "Meanwhile, in the cinema lobby, the lights flicker as the credits roll.",
         "Nice atmosphere. Let's start with Mia saying the ending ruined the whole film."]},
    {"id": "native-empty", "fmt": "native", "file": "native/part-b.jsonl", "plant": "no_turns",
     "expect": ("quarantined", "empty_dialogue"), "what": "\"turns\": [] (no turns at all)", "topic": "Society", "turns": []},
    {"id": "native-abs-path", "fmt": "native", "file": "native/part-b.jsonl", "plant": "image_path:/etc/hostname",
     "expect": ("quarantined", "unsafe_image_path"), "what": "image path is the absolute path /etc/hostname",
     "topic": "Computer", "turns": [
         ("Here is a screenshot of my server config, is it OK?", ["ABS"]),
         "I can't see any problem in the config shown.",
         "Should I restart the service?",
         "Yes, restart it after changing the config so it is reloaded."]},
    {"id": "native-tiff", "fmt": "native", "file": "native/part-b.jsonl", "plant": "tiff_image",
     "expect": ("quarantined", "unsupported_image"), "what": "image is a valid TIFF file (decodable, format not accepted)",
     "topic": "Biology", "turns": [
         ("My scanner saved this leaf scan as a TIFF. What tree is it from?", ["TIFF"]),
         "The lobed outline with rounded tips suggests an English oak (Quercus robur).",
         "How old can oaks get?",
         "English oaks commonly live several hundred years, and some famous ones are over 1,000 years old."]},
    {"id": "native-huge-image", "fmt": "native", "file": "native/part-b.jsonl", "plant": "huge_image",
     "expect": ("quarantined", "image_too_large"), "what": "image is an 8000x6000 (48 MP) 1-bit PNG, over the 40 MP limit (small file, big pixel count)",
     "topic": "Economy", "turns": [
         ("Here's the full-resolution export of our quarterly sales chart.", ["HUGE"]),
         "The chart is very large; a 1600 px wide version is enough for a report.",
         "How should I present it to the board?",
         "Lead with the key takeaway, show one chart per message, and keep the appendix for detail."]},
    {"id": "sharegpt-near-history-05", "fmt": "sharegpt", "file": "sharegpt/conversations.json", "plant": "near_duplicate_of:history-05",
     "expect": ("dropped", "duplicate_near"), "what": "same user turns as history-05 with one word changed (\"essay\" -> \"report\" in the first turn), different assistant text",
     "topic": "History", "turns": "NEAR_DUP"},
    # ---- openai -------------------------------------------------------------------------
    {"id": "openai-bad-utf8", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "invalid_utf8",
     "expect": ("quarantined", "invalid_utf8"), "what": "line contains the Latin-1 byte 0xE9 (\"Caf\\xe9\"), not valid UTF-8",
     "topic": "Food", "turns": [
         "What is the difference between a Caf\u00e9 au lait and a latte?",
         "A caf\u00e9 au lait uses brewed coffee with hot milk; a latte uses espresso with steamed milk and a little foam.",
         "Which has more caffeine?",
         "Usually the caf\u00e9 au lait, since a large cup of brewed coffee has more caffeine than a single espresso shot."]},
    {"id": "openai-invalid-record", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "messages_is_string",
     "expect": ("quarantined", "invalid_record"), "what": "\"messages\" is a string, not a list of messages",
     "topic": "Music", "turns": []},
    {"id": "openai-traversal", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "image_path:../../../../../../../../etc/passwd",
     "expect": ("quarantined", "unsafe_image_path"), "what": "image_url is ../../../../../../../../etc/passwd (path traversal)",
     "topic": "Computer", "turns": [
         ("Can you read this file for me?", ["TRAVERSAL"]),
         "I can only see images you attach; this does not look like a picture.",
         "It's a config file.",
         "Then please paste the text of the config file instead."]},
    {"id": "openai-oversized", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "oversized_message",
     "expect": ("quarantined", "oversized_message"), "what": "second user message is a pasted log of more than 32,000 characters",
     "topic": "Computer", "turns": [
         "My worker pool seems slow. I'll paste the log.",
         "Sure, paste the relevant part of the log.",
         "Here it is:\n" + _OVERSIZED_LOG,
         "The latencies cycle between 100 and 500 ms across all eight workers, so the slowdown looks systematic rather than tied to one worker."]},
    {"id": "openai-too-short", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "two_turns",
     "expect": ("dropped", "turn_count_out_of_range"), "what": "only 2 turns (minimum is 4)",
     "topic": "Food", "turns": [
         "How long should I boil an egg for a runny yolk?",
         "About 6 minutes in boiling water, then straight into cold water."]},
    # ---- sharegpt -----------------------------------------------------------------------
    {"id": "sharegpt-symlink", "fmt": "sharegpt", "file": "sharegpt/conversations.json", "plant": "symlink_out",
     "expect": ("quarantined", "unsafe_image_path"), "what": "image ../images/holiday-snapshot.jpg is a symlink to /etc/passwd (outside the raw folder)",
     "topic": "Travel", "turns": [
         ("Where was this holiday snapshot taken?", ["SYMLINK"]),
         "It looks like a beach in southern Europe, but I can't tell exactly from the picture.",
         "Any guess?",
         "The white houses and blue doors suggest the Greek islands, maybe Santorini."]},
    {"id": "sharegpt-too-long", "fmt": "sharegpt", "file": "sharegpt/conversations.json", "plant": "24_turns",
     "expect": ("dropped", "turn_count_out_of_range"), "what": "24 turns (maximum is 22)",
     "topic": "Travel", "turns": "LONG_QUIZ"},
    # ---- chat_export --------------------------------------------------------------------
    {"id": "chat-malformed", "fmt": "chat_export", "file": "chat_export/chat-malformed.json", "plant": "malformed_file",
     "expect": ("quarantined", "malformed_json"), "what": "whole file is not valid JSON (trailing comma, missing closing brace)",
     "topic": "House", "turns": ["How do I bleed a radiator?", "Turn off the heating and open the valve with a radiator key until water comes out."]},
    {"id": "chat-missing-image", "fmt": "chat_export", "file": "chat_export/chat-missing-image.json", "plant": "missing_image",
     "expect": ("quarantined", "missing_image"), "what": "references ../images/does-not-exist.jpg, which is not there",
     "topic": "Sport", "turns": [
         ("Is my bike saddle too high? Photo attached.", ["MISSING"]),
         "Your knee should be slightly bent at the bottom of the pedal stroke, about 25-35 degrees.",
         "How do I measure it?",
         "Sit on the bike with your heel on the pedal at its lowest point; your leg should be almost straight."]},
    {"id": "chat-corrupt-image", "fmt": "chat_export", "file": "chat_export/chat-corrupt-image.json", "plant": "corrupt_image",
     "expect": ("quarantined", "unreadable_image"), "what": "../images/corrupt-truncated.jpg is a JPEG cut off after 40% of its bytes",
     "topic": "Food", "turns": [
         ("What do you think of my lasagne?", ["CORRUPT"]),
         "Layered nicely! Let it rest 15 minutes before cutting so the slices hold their shape.",
         "Should I use bechamel or ricotta?",
         "Bechamel is traditional in Emilia-Romagna; ricotta is common in Italian-American versions."]},
    {"id": "openai-dup-food-01", "fmt": "openai", "file": "openai/chats.jsonl", "plant": "exact_duplicate_of:food-01",
     "expect": ("dropped", "duplicate_exact"), "what": "same turns and images as food-01 (in native/part-a.jsonl), different id/metadata",
     "topic": "Food", "turns": "EXACT_DUP"},
]

# history-05 user turns with one word changed, and new assistant answers.
# Which record of a duplicate pair ingest keeps: exact duplicates keep the first in
# (file path, line) order; near duplicates keep the smaller dialogue_id. The copies are
# placed in files that sort after their originals (openai/ after native/, sharegpt/ after
# openai/), and history-05's wording was chosen so that its dialogue_id (6439...) sorts
# before this copy's (7043...), so under both rules the copy is the one dropped.
NEAR_DUP_ASSISTANT = [
    "Group the causes into long-term and short-term ones. Long-term: royal debt, unfair taxation, and the privileges of the First and Second Estates. Intellectual: the Enlightenment critique of absolutism. Short-term: the failed reforms of Calonne and Necker and the calling of the Estates-General.",
    "Treat the harvest as the spark and the ideas as the fuel. Rising bread prices brought crowds onto the streets in 1789, while philosophers had already shaped the demands for representation and rights. Linking the two makes a stronger argument than ranking them.",
    "Keep the introduction short: a sentence naming the Estates-General and the Tennis Court Oath as the turning point is enough. Develop them in a later paragraph where you show how the Third Estate declared itself the National Assembly.",
]
