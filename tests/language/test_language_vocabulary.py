"""The vocabulary file: loaded into frozen dataclasses, every template checked at load time."""

from __future__ import annotations

import dataclasses

import pytest

from tabletop.cards import Rank
from tabletop.errors import InvalidInputError, TabletopError
from tabletop.language.expression import Alt, Seq, Slot, TemplateError, Word, parse_template
from tabletop.language.parser import Parser
from tabletop.language.vocabulary import DEFAULT_PATH, Vocabulary, VocabularyError, load_vocabulary
from tabletop.referee.intents import Ask, Query

BASE = """
skip_words: [um]
lists:
  rank:
    - {in: [sevens, seven], out: "7"}
  player: {runtime: true}
rules:
  have: "(do you have|got)"
intents:
  ask:
    - sentences:
        - "{player:target} <have> [any] {rank}"
  query:
    - sentences: ["help"]
      slots: {what: help}
"""


def test_the_shipped_vocabulary_loads_and_is_frozen() -> None:
    vocab = load_vocabulary()
    assert vocab.source == str(DEFAULT_PATH)
    assert set(vocab.intent_names) == {"ask", "answer", "go_fish", "lucky", "book", "out_of_cards", "hand_count",
                                       "query", "undo", "correct", "yes", "no", "control"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        vocab.source = "x"  # type: ignore[misc]
    assert load_vocabulary() is vocab  # cached


def test_an_inline_vocabulary_parses() -> None:
    vocab = Vocabulary.from_yaml(BASE, source="inline.yaml")
    parser = Parser(["Ben"], vocab)
    assert parser.parse_candidates("um Ben, got any 7s?")[0].intent == Ask("Ben", Rank.SEVEN)
    assert parser.parse_candidates("help")[0].intent == Query("help")


@pytest.mark.parametrize(
    "change, message",
    [
        (("{rank}", "{rnak}"), "unknown list {rnak}"),
        (("<have>", "<hav>"), "unknown rule <hav>"),
        (("{player:target}", "{player:victim}"), "Ask has no slot 'victim'"),
        (("[any] {rank}", "[any {rank}]"), "needs slot(s) rank in every sentence"),
        (("[any]", "[any"), "missing ']'"),
        (("{player:target}", "{player:target} ?"), "unexpected character '?'"),
        (("what: help", "what: halp"), "`what` must be one of"),
        (("  ask:", "  asq:"), "unknown intent 'asq'"),
    ],
)
def test_broken_templates_fail_at_load_naming_file_and_template(change: tuple[str, str], message: str) -> None:
    text = BASE.replace(*change)
    with pytest.raises(VocabularyError) as info:
        Vocabulary.from_yaml(text, source="broken.yaml")
    assert message in str(info.value)
    assert "broken.yaml" in str(info.value)
    assert isinstance(info.value, (TabletopError, InvalidInputError, ValueError))


def test_the_error_names_the_template() -> None:
    with pytest.raises(VocabularyError, match=r"intent 'ask', template '\{player:target\} <have> \[any\] \{rnak\}'"):
        Vocabulary.from_yaml(BASE.replace("{rank}", "{rnak}"), source="v.yaml")


def test_yaml_booleans_are_caught() -> None:
    with pytest.raises(VocabularyError, match="quote it"):
        Vocabulary.from_yaml(BASE.replace("rules:\n", 'rules:\n  yes: "(yes|yep)"\n'), source="v.yaml")
    with pytest.raises(VocabularyError, match="quote it"):
        Vocabulary.from_yaml(BASE.replace("[sevens, seven]", "[sevens, no]"), source="v.yaml")


def test_not_yaml_and_bad_top_level() -> None:
    with pytest.raises(VocabularyError, match="not valid YAML"):
        Vocabulary.from_yaml("a: [", source="v.yaml")
    with pytest.raises(VocabularyError, match="mapping"):
        Vocabulary.from_yaml("- 1", source="v.yaml")


def test_self_referring_rules_are_refused() -> None:
    with pytest.raises(VocabularyError, match="refers to itself"):
        Vocabulary.from_yaml(BASE.replace('have: "(do you have|got)"', 'have: "(do you have|<have>)"'), source="v.yaml")


def test_template_syntax() -> None:
    assert parse_template("go fish") == Seq((Word("go"), Word("fish")))
    assert parse_template("[a|b]") == Alt((Word("a"), Word("b"), Seq(())))
    assert parse_template("{player:target}") == Slot("player", "target")
    assert parse_template("{rank}") == Slot("rank", "rank")
    with pytest.raises(TemplateError):
        parse_template("(a|b")
    with pytest.raises(TemplateError):
        parse_template("{Bad Slot}")
