"""Recognizers added to Presidio's for chat text, and the offline spaCy engine.

Presidio's own set misses what chat users type: street addresses (no recognizer at all),
phone numbers outside the few regions its phonenumbers check knows, and well-known test
SSNs (078-05-1120, 219-09-9999) that it invalidates on purpose but that are still
SSN-shaped personal data in a log. The weak patterns here count only next to a cue word
in the 40 characters before them: Presidio's own context check skips stop words, and
spaCy lists "call" as one ("call me at ...").
"""

from __future__ import annotations

import re

STREET_PATTERNS = (
    ("street_en", r"\b\d{1,5}[a-z]?,?\s+(?:[a-z][\w'.-]*\s+){0,3}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln"
                  r"|drive|dr|court|ct|way|place|pl|terrace|close|crescent|square|sq|parkway|pkwy|highway|hwy)\b\.?"
                  r"(?:,?\s+(?:apt|apartment|suite|unit|flat|#)\.?\s*[\w-]+)?", 0.6),
    ("street_eu", r"\b[a-zäöüß]{3,}(?:straat|strasse|straße|weg|laan|gasse|gade|vej|plein|gatan|veien)\s+\d{1,5}[a-z]?\b",
     0.6),
    ("unit", r"\b(?:apt|apartment|suite|unit)\.?\s*#?\d{1,5}[a-z]?\b", 0.5),
    ("street_prefix", r"\b(?:ul|al|ulica|rue|calle|avenida|rua|plac)\.?\s+(?:[\w'-]+\s+){1,3}\d{1,5}[a-z]?\b", 0.6),
)
# A capitalised name right after "my name is" or a relation ("my cooking teacher was ...",
# "my grandfather ..."): the small spaCy model misses many non-English names.
RELATIONS = ("wife|husband|partner|girlfriend|boyfriend|friend|teacher|tutor|boss|colleague|coworker|mother|mom|"
             "mum|father|dad|son|daughter|brother|sister|neighbou?r|doctor|dentist|grandfather|grandmother|grandma|"
             "grandpa|landlord|landlady|manager|uncle|aunt|cousin|fianc[eé]e?|roommate|flatmate|client|student")
NAME_CUE = (r"(?<=\b(?:[Mm]y name is|[Mm]y name's|[Mm]y|[Oo]ur|[Hh]is|[Hh]er)\s+(?:[a-z]+\s+){0,3}?"
            rf"(?:{RELATIONS})(?:\s+(?:is|was|called|named),?)?\s+|\b[Mm]y name is\s+)"
            r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}")
STREET_CONTEXT = ["address", "live", "lives", "living", "street", "moved", "ship", "deliver"]
LOOSE_PHONE = (r"(?<![\w.+-])(?:\+?\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}"
               r"(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w-])")
PHONE_CUE = re.compile(r"\b(call|phone|mobile|tel|telephone|number|reach|contact|whatsapp|fax|cell|text|sms)\b", re.I)
SSN_SHAPE = r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])"
SSN_CUE = re.compile(r"\b(ssn|social security|social-security)\b", re.I)
DOTTED_QUAD = re.compile(r"\d{1,3}(\.\d{1,3}){3}")


def packaged_spacy_engine(package: str, exclude: tuple[str, ...]):
    """Presidio's spaCy engine, loading the model from its installed package (never downloads)."""
    import spacy
    from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine

    class PackagedSpacyEngine(SpacyNlpEngine):
        def load(self) -> None:
            self.nlp = {"en": spacy.load(package, exclude=list(exclude))}

    # spaCy labels that are never personal data (silences one warning per entity otherwise)
    ignore = ["CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "WORK_OF_ART", "LAW", "LANGUAGE", "EVENT",
              "PRODUCT", "O"]
    engine = PackagedSpacyEngine(models=[{"lang_code": "en", "model_name": package}],
                                 ner_model_configuration=NerModelConfiguration(labels_to_ignore=ignore))
    engine.load()
    return engine


def chat_recognizers(wanted: set[str]) -> list:
    from presidio_analyzer import Pattern, PatternRecognizer
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    class CuedRecognizer(PatternRecognizer):
        """A weak pattern that scores ``cued_score`` when a cue word stands just before it."""

        def __init__(self, cue, cued_score: float, digits: tuple[int, int], **kwargs):
            super().__init__(**kwargs)
            self.cue, self.cued_score, self.digits = cue, cued_score, digits

        def analyze(self, text, entities, nlp_artifacts=None, regex_flags=None):
            results = super().analyze(text, entities, nlp_artifacts, regex_flags)
            for result in results:
                if self.cue.search(text[max(0, result.start - 40):result.start]):
                    result.score = self.cued_score
                    result.recognition_metadata[result.IS_SCORE_ENHANCED_BY_CONTEXT_KEY] = True
            return results

        def invalidate_result(self, pattern_text: str) -> bool:
            digits = sum(c.isdigit() for c in pattern_text)
            return not self.digits[0] <= digits <= self.digits[1] or bool(DOTTED_QUAD.fullmatch(pattern_text))

    class OfflineEmailRecognizer(EmailRecognizer):
        """tldextract's bundled suffix-list snapshot instead of its download."""

        def validate_result(self, pattern_text: str):
            return _tld_extract()(pattern_text).fqdn != ""

    out = []
    if "EMAIL_ADDRESS" in wanted:
        out.append(OfflineEmailRecognizer())
    if "STREET_ADDRESS" in wanted:
        out.append(PatternRecognizer(
            supported_entity="STREET_ADDRESS", name="StreetAddressRecognizer", context=STREET_CONTEXT,
            patterns=[Pattern(name, regex, score) for name, regex, score in STREET_PATTERNS]))
    if "PHONE_NUMBER" in wanted:
        out.append(CuedRecognizer(PHONE_CUE, 0.6, (8, 15), supported_entity="PHONE_NUMBER",
                                  name="LoosePhoneRecognizer", patterns=[Pattern("loose_phone", LOOSE_PHONE, 0.3)]))
    if "PERSON" in wanted:
        import regex

        out.append(PatternRecognizer(  # case matters here: the name is what is capitalised
            supported_entity="PERSON", name="CuedNameRecognizer", patterns=[Pattern("cued_name", NAME_CUE, 0.85)],
            global_regex_flags=regex.DOTALL | regex.MULTILINE))
    if "US_SSN" in wanted:
        out.append(CuedRecognizer(SSN_CUE, 0.9, (9, 9), supported_entity="US_SSN", name="CuedSsnRecognizer",
                                  patterns=[Pattern("ssn_shape", SSN_SHAPE, 0.3)]))
    return out


_TLD = None


def _tld_extract():
    global _TLD
    if _TLD is None:
        import tldextract

        _TLD = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    return _TLD
