"""Word lists that decide what a span shows and how it is referred to once it is an image.

The lists are deliberately small and concrete: a lemma found here is picturable with
certainty; anything else is categorised by the embedder against :data:`PROTOTYPES`
(see :mod:`builder.swap.spans`), and must beat the ``person``/``abstract`` prototypes.
"""

from __future__ import annotations

# category -> (singular deictic phrase, plural deictic phrase). "person" is never swapped.
DEICTIC: dict[str, tuple[str, str]] = {
    "place": ("this place", "these places"),
    "dish": ("this dish", "these dishes"),
    "drink": ("this drink", "these drinks"),
    "animal": ("this animal", "these animals"),
    "item": ("this item", "these items"),
    "vehicle": ("this vehicle", "these vehicles"),  # "when I'm in the car": "in this item" reads wrong
    "artwork": ("this artwork", "these artworks"),
}

# What the embedder compares a span with when the lexicon does not know it.
PROTOTYPES: dict[str, str] = {
    "place": "a place, a landmark, a building, a city or a landscape",
    "dish": "a dish of food or a meal",
    "drink": "a drink or a beverage",
    "animal": "an animal or a pet",
    "item": "an object, a product, a tool or a device",
    "artwork": "a painting, a sculpture or a work of art",
    "person": "a person, a man, a woman or a child",
    "abstract": "an abstract idea, a time, a plan or a feeling",
}
NOT_SWAPPABLE = ("person", "abstract")

LEXICON: dict[str, frozenset[str]] = {
    "place": frozenset("""
        beach mountain lake river museum park temple castle bridge tower cathedral church
        palace island waterfall volcano desert forest canyon harbor harbour market square
        city village town skyline lighthouse garden stadium monument ruin ruins
        amphitheatre amphitheater colosseum pyramid pyramids glacier valley cliff cave
        fountain mosque shrine opera arena restaurant cafe café bar hotel station
        airport street alley coast bay hill hills vineyard farm zoo aquarium library
        campus building skyscraper canal pier boardwalk trail""".split()),
    "dish": frozenset("""
        pizza sushi pasta burger hamburger cake ramen taco tacos salad soup curry paella
        croissant sandwich noodle noodles dumpling dumplings steak pancake pancakes waffle
        waffles cookie cookies pie bread bagel donut doughnut burrito risotto lasagna
        lasagne spaghetti pho kimchi tiramisu gelato macaron macarons cheesecake brownie
        omelette omelet sashimi tempura bibimbap falafel hummus kebab gyro baguette
        pretzel muffin cupcake dessert ice-cream icecream fondue poutine churro churros
        biryani samosa chicken""".split()),
    "drink": frozenset("""
        smoothie latte cappuccino espresso coffee tea matcha cocktail wine beer juice
        lemonade milkshake""".split()),
    "animal": frozenset("""
        dog cat horse bird parrot puppy kitten rabbit bunny hamster goldfish fish turtle
        tortoise lizard snake cow sheep goat pig hen duck goose owl eagle penguin
        dolphin whale shark elephant giraffe lion tiger bear panda koala kangaroo monkey
        zebra camel deer fox wolf squirrel butterfly bee frog retriever labrador poodle
        beagle terrier husky bulldog corgi pony donkey seal otter flamingo peacock""".split()),
    "item": frozenset("""
        bike bicycle guitar piano violin drum drums camera phone smartphone laptop
        computer tablet watch sneaker sneakers shoe shoes boot boots backpack bag handbag
        umbrella lamp chair sofa couch table desk bed headphones keyboard mouse monitor
        television tv console controller skateboard surfboard snowboard skis kayak boat
        tent kite ball racket bat helmet jacket
        dress hat scarf sunglasses necklace ring bracelet vase mug teapot kettle oven
        blender toaster microwave plant plants flower flowers cactus book notebook""".split()),
    "vehicle": frozenset("""car cars truck van bus train tram taxi cab scooter motorcycle motorbike tractor jeep minivan
        suv sedan limo limousine ambulance plane airplane aeroplane""".split()),
    "artwork": frozenset("painting sculpture statue mural fresco portrait artwork".split()),
}

# Never candidates, whatever the embedder thinks: people, time and filler nouns.
STOP_LEMMAS = frozenset("""
    person people man woman men women child children kid kids boy girl baby friend friends
    brother sister mother father mom dad mum parent parents wife husband son daughter
    family teacher doctor boss colleague guy guys
    time day week weekend month year hour minute today tonight tomorrow yesterday morning
    evening night moment thing things stuff lot way kind sort bit idea question answer
    problem help advice recipe tip tips name place thanks anything something everything
    nothing one part end start reason fact point example experience trip vacation holiday
    plan plans course lesson job work homework
    photo photos picture pictures pic pics image images screenshot screenshots chart charts
    diagram map graph page listing scan photograph snapshot video clip file attachment
    device product item object food dish meal animal pet location area spot piece
    hand hands arm arms leg legs neck body head face hair eye eyes shoulder elbow knee
    money price cost budget system service government """.split())

# spaCy entity labels: ones we refuse outright, ones that fix the category.
EXCLUDED_LABELS = frozenset(
    "PERSON NORP DATE TIME MONEY PERCENT QUANTITY CARDINAL ORDINAL LANGUAGE LAW".split()
)
LABEL_CATEGORY = {"GPE": "place", "LOC": "place", "FAC": "place", "WORK_OF_ART": "artwork"}
# Named places and works make the strongest swaps (MMRC's "I visited the Eiffel Tower"):
# a proper noun gets PROPER_BONUS, plus its entity label's prior.
LABEL_PRIOR = {"FAC": 0.3, "LOC": 0.3, "GPE": 0.2, "WORK_OF_ART": 0.2, "PRODUCT": 0.2}
PROPER_BONUS = 0.2

# Determiners absorbed into the deictic phrase; possessives become "of mine" etc.
ARTICLES = frozenset("the a an this that these those some any".split())
POSSESSIVES = {"my": "mine", "our": "ours", "your": "yours", "his": "his", "her": "hers", "their": "theirs"}

# The sky, what is in it and the weather: never a thing of the user's scene (safety.py, ``sky``).
# A photo shows them, if at all, as the backdrop of another scene (the Sun as a beach at sunset).
SKY = frozenset("""
    sun suns moon moons star stars planet planets earth mercury venus mars jupiter saturn uranus neptune pluto
    galaxy galaxies comet comets asteroid asteroids meteor meteors meteorite nebula constellation constellations
    universe cosmos sky skies cloud clouds horizon sunset sunsets sunrise sunrises sunlight sunshine moonlight
    starlight rainbow aurora eclipse weather storm storms thunderstorm hurricane tornado lightning thunder
    rain wind""".split())
SKY_PHRASES = ("solar system", "milky way", "black hole", "outer space", "northern lights", "north star")
