"""The one language identifier: ISO 639-1 codes, None (unknown) rather than a guess."""

from builder.language import detect, detect_many, dialogue_language


def test_languages_and_unknowns():
    got = detect_many(["Hello, how are you doing today? I want to visit Paris next week.",
                       "Привет, как дела? Я хочу поехать в Москву.", "你好，我想去北京旅游，有什么推荐的地方吗？",
                       "ok", "", None, "```python\ndef f(x):\n    return x\n```"])
    assert got == ["en", "ru", "zh", None, None, None, None]


def test_dialogue_language_reads_the_user_turns():
    turns = [{"role": "user", "text": "Bonjour, je voudrais réserver une table pour deux ce soir."},
             {"role": "assistant", "text": "Sure, I can help you book a table for two tonight."}]
    assert dialogue_language(turns) == "fr"
    assert detect("Hola amigo, ¿qué tal estás hoy? Quiero viajar a Madrid.") == "es"


def test_a_language_needs_enough_words_to_be_claimed():
    """A few words, one of them rare, are no evidence: lingua alone calls "what's a pogonphora yes"
    (a whole dialogue's user text) Tswana. Six words are needed; word-run counting keeps "what's" one
    word; CJK characters count one each (no spaces there)."""
    assert detect_many(["what's a pogonphora yes", "what’s a pogonphora? yes", "Wie spät ist es",
                        "hi there how are you", "Wie spät ist es jetzt bitte", "how are you doing today friend",
                        "今天天气怎么样？我想去公园散步"]) == [None, None, None, None, "de", "en", "zh"]


def test_code_is_no_evidence_of_a_language():
    """Unfenced code read as text is Somali to lingua; the ranges the code trait finds are blanked
    first (one home for "what is code": builder/traits/code.py). Code alone says nothing; code with a
    Russian request is Russian."""
    code = "a = int(input())\nb = int(input())\nc = int(input())\nif a > b:\n    a,b = b,a\nprint(a, b, c)\n"
    assert detect(code) is None
    assert detect("Исправь, пожалуйста, этот код, он печатает числа не в том порядке:\n" + code) == "ru"
    # the fence goes, the question around it stays
    assert detect("```python\nprint('hello world')\n```\nWhy does this print twice when I run it?") == "en"
