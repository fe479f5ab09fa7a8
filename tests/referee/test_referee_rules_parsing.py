"""Rules of PRODUCT.md section 2: keys, values, presets, TOML files, options and their errors."""

from __future__ import annotations

import pytest

from tabletop.errors import InvalidInputError, RulesError
from tabletop.referee import Game
from tabletop.rules import CHOICES, PRESETS, Rules

SECTION_2 = {
    "deal": ("7-then-5", "7", "7-for-two"),
    "asking": ("hold-rank", "any-rank", "specific-card"),
    "again_on_hit": (True, False),
    "again_on_lucky": (True, False),
    "again_on_draw_book": (False, True),
    "next_after_miss": ("left", "asked", "asked-when-stock-empty"),
    "empty_hand": ("new-hand", "draw-one", "sit-out"),
    "game_end": ("all-books", "first-out"),
    "ties": ("shared", "play-again"),
    "book_size": (4, 2),
    "first": ("first-named", "random"),
}


def test_keys_and_values_are_exactly_section_2_defaults_first():
    assert CHOICES == SECTION_2
    assert list(Rules().to_json()) == list(SECTION_2)
    assert Rules().to_json() == {k: v[0] for k, v in SECTION_2.items()}


@pytest.mark.parametrize("key,value", [(k, v) for k, vs in SECTION_2.items() for v in vs])
def test_every_value_from_an_option(key, value):
    text = str(value).lower()
    rules = Rules.from_options([f"{key}={text}"])
    assert getattr(rules, key) == value and type(getattr(rules, key)) is type(value)
    assert rules.to_json()[key] == value
    # the public state carries the rules as given
    assert Game(["Ana", "Ben"], rules).public()["rules"][key] == value


@pytest.mark.parametrize("text,value", [("false", False), ("False", False), (" TRUE ", True), ("true", True)])
def test_booleans_in_any_case(text, value):
    assert Rules.from_options([f"again_on_hit={text}"]).again_on_hit is value


def test_book_size_from_text_is_a_number():
    assert Rules.from_options(["book_size=2"]).book_size == 2
    assert Rules.from_options(["book_size = 2"]).book_size == 2


@pytest.mark.parametrize(
    "options,code",
    [
        (["colour=red"], "bad-rule-key"),
        (["Deal=7"], "bad-rule-key"),
        (["deal=8"], "bad-rule-value"),
        (["asking=hold"], "bad-rule-value"),
        (["again_on_hit=yes"], "bad-rule-value"),
        (["book_size=3"], "bad-rule-value"),
        (["first=last"], "bad-rule-value"),
        (["deal"], "bad-rule-option"),
        (["=7"], "bad-rule-option"),
        (["game_end=first-out", "empty_hand=sit-out"], "bad-rule-combination"),
        (["game_end=first-out", "empty_hand=draw-one"], "bad-rule-combination"),
        (["game_end=first-out", "next_after_miss=asked-when-stock-empty"], "bad-rule-combination"),
    ],
)
def test_bad_options_are_refused_with_a_code(options, code):
    with pytest.raises(RulesError) as caught:
        Rules.from_options(options)
    assert caught.value.code == code
    assert isinstance(caught.value, InvalidInputError) and isinstance(caught.value, ValueError)
    assert caught.value.reason


def test_bad_keyword_values_are_refused():
    with pytest.raises(RulesError) as caught:
        Rules(book_size=True)  # bool is an int, but not a book size
    assert caught.value.code == "bad-rule-value"
    with pytest.raises(RulesError):
        Rules(again_on_hit=1)
    with pytest.raises(RulesError):
        Rules(book_size="2")


def test_the_valid_first_out_combinations():
    assert Rules(game_end="first-out", next_after_miss="asked").next_after_miss == "asked"
    assert Rules(game_end="all-books", empty_hand="sit-out", next_after_miss="asked-when-stock-empty")


def test_presets_are_the_rule_sets_section_2_names():
    assert Rules.preset("standard") == Rules()
    assert Rules.preset("lucky-only").changes() == {"again_on_hit": False}
    assert Rules.preset("never-again").changes() == {"again_on_hit": False, "again_on_lucky": False}
    assert Rules.preset("every-fish-ends").changes() == {"again_on_lucky": False}
    assert Rules.preset("first-out").changes() == {"deal": "7-for-two", "game_end": "first-out"}
    assert Rules.preset("keep-playing").changes() == {
        "deal": "7-for-two", "next_after_miss": "asked-when-stock-empty"}
    assert Rules.preset("pairs").changes() == {"book_size": 2}
    for name in PRESETS:
        assert isinstance(Rules.preset(name), Rules)


def test_unknown_preset():
    with pytest.raises(RulesError) as caught:
        Rules.preset("poker")
    assert caught.value.code == "bad-preset"


def test_toml_with_a_rules_table(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('[rules]\nagain_on_hit = false\nbook_size = 2\nnext_after_miss = "asked"\n', encoding="utf-8")
    rules = Rules.from_toml(path)
    assert rules.changes() == {"again_on_hit": False, "book_size": 2, "next_after_miss": "asked"}


def test_toml_without_a_rules_table(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('again_on_hit = false\n', encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        Rules.from_toml(path)
    assert caught.value.code == "rules-file"


@pytest.mark.parametrize(
    "text,code",
    [
        ("[rules]\nagain_on_hit = \n", "rules-file"),
        ("[rules]\ncolour = 'red'\n", "bad-rule-key"),
        ("[rules]\nbook_size = 3\n", "bad-rule-value"),
        ("[rules]\nbook_size = true\n", "bad-rule-value"),
        ("[rules]\ngame_end = 'first-out'\nempty_hand = 'sit-out'\n", "bad-rule-combination"),
        ("rules = 3\n", "rules-file"),
    ],
)
def test_bad_toml(tmp_path, text, code):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        Rules.from_toml(path)
    assert caught.value.code == code


def test_missing_toml(tmp_path):
    with pytest.raises(RulesError) as caught:
        Rules.from_toml(tmp_path / "nope.toml")
    assert caught.value.code == "rules-file"


def test_preset_then_file_then_options(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('[rules]\nagain_on_lucky = false\nties = "play-again"\n', encoding="utf-8")
    rules = Rules.build("lucky-only", path, ["ties=shared", "book_size=2"])
    assert rules.changes() == {"again_on_hit": False, "again_on_lucky": False, "book_size": 2}
    # an option can undo a preset's combination only into a valid one
    with pytest.raises(RulesError):
        Rules.build("first-out", None, ["empty_hand=sit-out"])
    assert Rules.build("first-out", None, ["game_end=all-books", "empty_hand=sit-out"]).empty_hand == "sit-out"


@pytest.mark.parametrize(
    "deal,sizes",
    [
        ("7-then-5", {2: 7, 3: 7, 4: 5, 5: 5, 6: 5}),
        ("7", {2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7}),
        ("7-for-two", {2: 7, 3: 5, 4: 5, 5: 5, 6: 5}),
    ],
)
def test_deal_sizes(deal, sizes):
    rules = Rules(deal=deal)
    for players, size in sizes.items():
        assert rules.deal_size(players) == size
        names = ["Ana", "Ben", "Cho", "Dev", "Eli", "Fay", "Gus"][:players]
        p = Game(names, rules).public()
        assert set(p["hands"].values()) == {size}
        assert p["stock"] == 52 - players * size


def test_too_few_and_too_many_players():
    with pytest.raises(RulesError) as caught:
        Rules().deal_size(1)
    assert caught.value.code == "too-few-players"
    with pytest.raises(RulesError) as caught:
        Rules(deal="7").deal_size(8)  # 56 cards
    assert caught.value.code == "too-many-players"
    assert Rules().deal_size(10) == 5  # 50 cards: still a deal


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_seat(first):
    """first=random is the table's choice: the referee is given the seat and starts with it."""
    for rules in (Rules(), Rules(first="random")):
        game = Game(["Ana", "Ben", "Cho"], rules, first=first)
        assert game.public()["current"] == ["Ana", "Ben", "Cho"][first]
        assert game.opening().endswith(f"{['Ana', 'Ben', 'Cho'][first]} goes first.")


def test_first_seat_must_be_a_seat():
    with pytest.raises(InvalidInputError):
        Game(["Ana", "Ben"], first=2)
    with pytest.raises(InvalidInputError):
        Game(["Ana", "Ben"], first=-1)
