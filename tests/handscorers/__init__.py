"""Independent, hand-written Boomerang scorers (Australia, Europe, USA): the oracle for differential tests."""
