"""Refusal detection: does an answer decline, or say the conversation does not contain it?"""

from classifiers.refusal.phrases import RefusalMatcher, is_refusal

__all__ = ["RefusalMatcher", "is_refusal"]
