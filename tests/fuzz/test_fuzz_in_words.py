"""Fuzzing the formulas in words: every well-typed expression of Boomerang: Australia can be said in
words, and what is said carries none of the language's operators, brackets or keywords."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesengine.edition.in_words import in_words

from .budget import budget
from .test_fuzz_dsl import AUSTRALIA, TYPED, WANTED

pytestmark = pytest.mark.fuzz

SYNTAX = re.compile(r"==|!=|>=|<=|//|\[|\]|\blet\b|\bthen\b|\b(?:sum|len|count|icons|kinds|value|lookup)\(")


@budget(300)
@given(text=st.sampled_from(WANTED).flatmap(TYPED.expression))
def test_every_well_typed_expression_is_said_in_words_without_syntax(text):
    words = in_words(text, AUSTRALIA)
    assert words and not SYNTAX.findall(words), (text, words)
