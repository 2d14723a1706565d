"""IMP's image reader (builder/eval/image_answers.py): numbers, positions, sets, none, mcq options."""

from __future__ import annotations

import pytest

from builder.eval.image_answers import identified_images

CHOICES = ["The first image (the onion slide)", "Both images", "The second image (the cheek cell slide)",
           "Neither image"]


@pytest.mark.parametrize("answer, n, images, how", [
    ("Image 2", 3, [1], "named"),
    ("photos 1 and 3", 3, [0, 2], "named"),
    ("Images one and three", 3, [0, 2], "named"),
    ("image #2", 3, [1], "named"),
    ("pictures 1-3", 4, [0, 1, 2], "named"),
    ("the second photo", 3, [1], "named"),
    ("The first and third images", 3, [0, 2], "named"),
    ("the 2nd and 3rd photos", 3, [1, 2], "named"),
    ("the first two pictures", 3, [0, 1], "named"),
    ("the last two pictures", 4, [2, 3], "named"),
    ("The second one", 3, [1], "named"),
    ("The second chart", 2, [1], "named"),  # any picture-like noun
    ("The first frame", 2, [0], "named"),
    ("the last image", 4, [3], "named"),
    ("Both images", 2, [0, 1], "both"),
    ("Both.", 2, [0, 1], "both"),
    ("both images", 3, [], "none_named"),  # which two of three? not by rule
    ("all three photos", 3, [0, 1, 2], "all"),
    ("Neither image shows it", 2, [], "explicit_none"),
    ("None of the pictures", 2, [], "explicit_none"),
    ("A homemade pizza with a pale centre.", 1, [0], "only_image"),  # one image: a description is of it
    ("A homemade pizza with a pale centre.", 2, [], "none_named"),  # several: --extract judge
    ("", 1, [], "none_named"),
])
def test_open_answers(answer, n, images, how):
    assert identified_images(answer, n) == (images, how)


def test_a_refusal_in_a_one_image_dialogue_identifies_nothing():
    assert identified_images("I don't know which image.", 1, refused=True) == ([], "none_named")


@pytest.mark.parametrize("answer, images", [
    ("C", [1]), ("C.", [1]), ("The answer is C", [1]), ("(C) the cheek cell slide", [1]),
    ("The second image (the cheek cell slide)", [1]),
    ("B", [0, 1]), ("D", []), ("A", [0]),
])
def test_mcq_letters_map_to_their_option_and_its_images(answer, images):
    assert identified_images(answer, 2, CHOICES)[0] == images
