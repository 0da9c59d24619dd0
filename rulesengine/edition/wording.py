"""Checks of the words an edition gives players: descriptions there are, that say the rule in force
and whose placeholders name values the edition has (`boom rules` prints them).

Registered in checks.CHECKS like every check (build.py imports this module); they never change data.
"""

from __future__ import annotations

from ..errors import Diagnostic
from . import templates
from .checks import Facts, check


# -- rules in words ----------------------------------------------------------------------------------
@check(only_when_valid=True)
def missing_descriptions(facts: Facts):
    """A note for each category, choice with a requirement, and race without a `description`: `boom
    rules` then says the formula in words, which a player reads less easily than the author's words."""
    hint = "add `description:` saying it in words for `boom rules` (without one it says the formula in words)"
    for section in ("categories", "races"):
        for index, spec in facts.entries(section):
            if not isinstance(spec, dict):
                continue
            if not spec.get("description"):
                yield Diagnostic(
                    facts.map.span_at((section, index, "key")),
                    f"'{spec.get('key')}' has no description",
                    "W409",
                    severity="note",
                    hint=hint,
                )
            choice = spec.get("choice")
            if isinstance(choice, dict) and choice.get("requires") and not choice.get("description"):
                yield Diagnostic(
                    facts.map.span_at((section, index, "choice", "requires"), key=True),
                    f"the choice of '{spec.get('key')}' has a requirement but no description",
                    "W409",
                    severity="note",
                    hint=hint,
                )


@check
def placeholders(facts: Facts):
    """`{families.animal.Koalas}` and the like in a description must name a value the edition has (M340)."""
    if facts.cut.sections & {"families", "regions", "tables", "icons"} or any(
            facts.cut.names.get(section) for section in ("families", "regions", "tables", "icons")):
        return  # a cut entry's values are unknown: its placeholders are no news
    for path, text in description_places(facts.data):
        for problem in templates.problems(text, facts):
            yield Diagnostic(facts.map.span_in_value(path, problem.start, problem.end, text), problem.message,
                             "M340", hint=problem.hint)


def description_places(data: dict):
    """(path, text) of every description of an edition: its own, its categories', choices' and races'."""
    if isinstance(data.get("description"), str):
        yield ("description",), data["description"]
    for section in ("categories", "races"):
        for index, entry in enumerate(data.get(section) or ()):
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("description"), str):
                yield (section, index, "description"), entry["description"]
            choice = entry.get("choice")
            if isinstance(choice, dict) and isinstance(choice.get("description"), str):
                yield (section, index, "choice", "description"), choice["description"]


@check(only_when_valid=True)
def inherited_descriptions(facts: Facts):
    """A house rule that changes a formula but keeps the parent's description would print the
    parent's rule in `boom rules`: warn at the changed formula."""
    formulas = {"categories": ("score",), "races": ("qualifies", "award")}
    here = facts.map.file  # the file being checked: a house rule's own changes are the ones to warn of
    for section, keys in formulas.items():
        for index, spec in facts.entries(section):
            if not isinstance(spec, dict):
                continue
            places = [((section, index), keys)]
            if isinstance(spec.get("choice"), dict):
                places.append(((section, index, "choice"), ("requires",)))
            for place, formula_keys in places:
                entry = spec if len(place) == 2 else spec["choice"]
                if not entry.get("description"):
                    continue
                said = facts.map.span_at(place + ("description",)).file
                for key in formula_keys:  # a formula set in a later file than the description
                    where = facts.map.span_at(place + (key,)).file if key in entry else said
                    if where != said and where == here:
                        whose = "its choice's" if len(place) == 3 else "its"
                        yield facts.warning(
                            place + (key,),
                            f"'{spec.get('key')}' changes {whose} {key} here but keeps the description of {said}",
                            "W408",
                            "give a description that says the new rule",
                            key=True,
                        )
                        break
