"""The counts the prose states are the code's: the number of learners the README and
docs/classifiers.md give is the registry's, the number of papers the README names is the number
of published tables in configs/papers/published/. A learner added to the registry fails here
until the pages say how many there are."""
import re
from pathlib import Path

from bayesbench import list_classifiers

ROOT = Path(__file__).resolve().parents[1]
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
NUMBER = r"(\d+|[A-Za-z]+(?:-[a-z]+)?)"


def number(word: str) -> int:
    """``"Twenty-three"`` -> 23 (digits as they are; up to ninety-nine in words)."""
    if word.isdigit():
        return int(word)
    tens, _, unit = word.lower().partition("-")
    if tens in _TENS:
        return _TENS[tens] + (_UNITS.index(unit) if unit else 0)
    return _UNITS.index(tens)


def counts(page: str, noun: str) -> list[int]:
    """Every ``<number> <noun>`` the page states."""
    text = (ROOT / page).read_text()
    return [number(m[1]) for m in re.finditer(rf"\b{NUMBER} {noun}\b", text)
            if m[1].isdigit() or m[1].lower().split("-")[0] in (*_UNITS, *_TENS)]


def test_number_words():
    assert [number(w) for w in ("Twenty-three", "fifteen", "thirty", "9", "one")] == [23, 15, 30,
                                                                                     9, 1]
    assert counts("README.md", "learners")  # the sentence is there to be checked


def test_the_learner_counts_are_the_registrys():
    n = len(list_classifiers())
    assert counts("README.md", "learners") == [n]
    assert counts("docs/classifiers.md", "learners")[:1] == [n]


def test_the_papers_are_the_published_tables():
    papers = len(list((ROOT / "configs" / "papers" / "published").glob("*.yaml")))
    assert counts("README.md", "papers") == [papers]
