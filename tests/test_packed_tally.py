"""A packed tally (dsl/program/helpers.packed_icons) counts what a dict tally counts.

The generated game adds its cards' ints and reads the sum as bytes, one count an icon; a count read
from it must be the count of icon_counts, and the byte past the icons (read for an icon the tally lacks)
always 0. Checked on hands of every shipped drafting edition, and on hand-worked values.
"""

from __future__ import annotations

import random

from conftest import EDITIONS

from rulesengine import load_edition
from rulesengine.dsl.program.helpers import every_icon, icon_counts, packed_icons


def test_a_packed_tally_counts_every_icon_as_the_dict_tally():
    for name in ("australia", "europe", "usa"):
        edition = load_edition(EDITIONS / f"{name}.yaml")
        icons = every_icon(edition)
        index, ints = packed_icons(icons, edition.cards)
        zeros = dict.fromkeys(icons, 0)
        draw = random.Random(7)
        for _ in range(200):
            hand = draw.sample(edition.cards, draw.randint(0, 10))
            tally = sum(ints[card] for card in hand).to_bytes(len(index) + 1, "little")
            counted = icon_counts(zeros, hand)
            assert {icon: tally[index[icon]] for icon in icons} == counted
            assert tally[len(index)] == 0


class _Card:
    def __init__(self, *icons):
        self.icons = icons


def test_a_packed_tally_by_hand():
    one, two = _Card("Emus", "Leaves"), _Card("Emus", "Emus")
    index, ints = packed_icons({"Emus", "Leaves", "Koalas"}, [one, two])
    assert index == {"Emus": 0, "Koalas": 1, "Leaves": 2}   # sorted: the same bytes in every run
    assert ints[one] == 1 + (1 << 16) and ints[two] == 2
    assert list((ints[one] + ints[two]).to_bytes(4, "little")) == [3, 0, 1, 0]


def test_an_icon_a_hand_may_count_past_a_byte_is_not_packed():
    assert packed_icons({"Emus"}, [_Card(*["Emus"] * 255)]) is not None
    assert packed_icons({"Emus"}, [_Card(*["Emus"] * 255), _Card("Emus")]) is None
    assert packed_icons({"Emus"}, [_Card("Wombats")]) is None   # an icon outside the index
