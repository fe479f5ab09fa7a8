"""The rule options of PRODUCT.md section 2 as one frozen, validated object.

Rules come from a preset, a TOML file with a ``[rules]`` table, or ``KEY=VALUE`` options, in that
order of application. The keys and values are the interface: they are what the journal and the
public state's ``rules`` hold.

>>> Rules.from_options(["again_on_hit=false"]).again_on_hit
False
>>> Rules.preset("pairs").book_size
2
>>> Rules().deal_size(4)
5
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from tabletop.errors import RulesError
from tabletop.files import FileProblem, read_bounded

__all__ = ["Rules", "PRESETS", "CHOICES", "MIN_PLAYERS"]

MIN_PLAYERS = 2

# key -> allowed values, default first (PRODUCT.md section 2).
CHOICES: dict[str, tuple[Any, ...]] = {
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


@dataclass(frozen=True)
class Rules:
    """One set of rules. Construct with keywords, :meth:`preset`, :meth:`from_toml` or :meth:`from_options`.

    :raises RulesError: on an unknown value or an invalid combination (at construction).
    """

    deal: str = "7-then-5"
    asking: str = "hold-rank"
    again_on_hit: bool = True
    again_on_lucky: bool = True
    again_on_draw_book: bool = False
    next_after_miss: str = "left"
    empty_hand: str = "new-hand"
    game_end: str = "all-books"
    ties: str = "shared"
    book_size: int = 4
    first: str = "first-named"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = CHOICES[f.name]
            # bool is an int: compare types too, so book_size=True is refused.
            if not any(value == choice and type(value) is type(choice) for choice in allowed):
                raise RulesError(
                    f"rule {f.name} cannot be {_show(value)}; choose {_choices(f.name)}", code="bad-rule-value"
                )
        if self.game_end == "first-out" and self.empty_hand != "new-hand":
            raise RulesError(
                f"empty_hand={self.empty_hand} never applies with game_end=first-out, which ends the game "
                "when a hand runs out; drop one of them",
                code="bad-rule-combination",
            )
        if self.game_end == "first-out" and self.next_after_miss == "asked-when-stock-empty":
            raise RulesError(
                "next_after_miss=asked-when-stock-empty never applies with game_end=first-out, which ends the "
                "game when the stock runs out; use game_end=all-books for the keep-playing variation",
                code="bad-rule-combination",
            )

    # ---- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Rules":
        try:
            return cls(**PRESETS[name])
        except KeyError:
            raise RulesError(
                f"no preset {name!r}; choose one of {', '.join(sorted(PRESETS))}", code="bad-preset"
            ) from None

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: "Rules | None" = None) -> "Rules":
        """Apply ``values`` (TOML or JSON types, or strings) over ``base``."""
        changes: dict[str, Any] = {}
        for key, value in values.items():
            if key not in CHOICES:
                raise RulesError(
                    f"unknown rule {_clip(key)}; the rules are {', '.join(CHOICES)}", code="bad-rule-key"
                )
            changes[key] = _coerce(key, value)
        return replace(base or cls(), **changes)

    @classmethod
    def from_options(cls, options: Iterable[str], base: "Rules | None" = None) -> "Rules":
        """Apply ``KEY=VALUE`` strings, as given to ``--rule``."""
        values: dict[str, Any] = {}
        for option in options:
            key, sep, value = option.partition("=")
            if not sep or not key.strip():
                raise RulesError(f"--rule wants KEY=VALUE, not {_clip(option)}", code="bad-rule-option")
            values[key.strip()] = value.strip()
        return cls.from_mapping(values, base)

    @classmethod
    def from_toml(cls, path: str | Path, base: "Rules | None" = None) -> "Rules":
        """Read the ``[rules]`` table of a TOML file."""
        text = _read_rules_file(Path(path))
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesError(f"rules file {_clip(str(path))} is not valid TOML ({error}): fix it, or use --rule",
                             code="rules-file") from None
        except RecursionError:
            raise RulesError(f"rules file {_clip(str(path))} nests too deeply: write a plain [rules] table",
                             code="rules-file") from None
        table = data.get("rules")
        if not isinstance(table, dict):
            raise RulesError(f"rules file {_clip(str(path))} has no [rules] table: add one", code="rules-file")
        return cls.from_mapping(table, base)

    @classmethod
    def build(
        cls, preset: str | None = None, file: str | Path | None = None, options: Iterable[str] = ()
    ) -> "Rules":
        """Preset, then file, then options: what ``tabletop play`` does with its flags."""
        rules = cls.preset(preset) if preset else cls()
        if file:
            rules = cls.from_toml(file, rules)
        return cls.from_options(options, rules)

    # ---- reading --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def changes(self) -> dict[str, Any]:
        """The options that differ from the standard game."""
        default = Rules()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

    def deal_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` players.

        :raises RulesError: if that many players cannot play with this deal.
        """
        if players < MIN_PLAYERS:
            raise RulesError(f"Go Fish needs at least {MIN_PLAYERS} players", code="too-few-players")
        if self.deal == "7":
            size = 7
        elif self.deal == "7-then-5":
            size = 7 if players <= 3 else 5
        else:
            size = 7 if players == 2 else 5
        if players * size > 52:
            most = 52 // size
            raise RulesError(
                f"{players} players can't each be dealt {size} cards; deal={self.deal} allows at most {most}",
                code="too-many-players",
            )
        return size

    @property
    def books_per_rank(self) -> int:
        """How many books one rank makes: 1 with books of four, 2 in the pairs game."""
        return 4 // self.book_size

    @property
    def must_hold(self) -> bool:
        """Whether an ask proves the asker holds a card of the rank."""
        return self.asking in ("hold-rank", "specific-card")


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "lucky-only": {"again_on_hit": False},
    "never-again": {"again_on_hit": False, "again_on_lucky": False},
    "every-fish-ends": {"again_on_lucky": False},
    "first-out": {"deal": "7-for-two", "game_end": "first-out"},
    "keep-playing": {"deal": "7-for-two", "game_end": "all-books", "next_after_miss": "asked-when-stock-empty"},
    "pairs": {"book_size": 2},
}


def _coerce(key: str, value: Any) -> Any:
    allowed = CHOICES[key]
    if isinstance(value, str):
        text = value.strip().lower()
        for choice in allowed:
            if text == str(choice).lower():
                return choice
        raise RulesError(f"rule {key} cannot be {_clip(value)}; choose {_choices(key)}", code="bad-rule-value")
    return value


MAX_RULES_FILE = 64 * 1024  # bytes; a [rules] table is a few hundred


def _read_rules_file(path: Path) -> str:
    """The text of a rules file: a regular file, at most MAX_RULES_FILE bytes of UTF-8."""
    name = _clip(str(path))
    try:
        data = read_bounded(path, MAX_RULES_FILE)
    except FileProblem as problem:
        if problem.kind in ("folder", "special"):
            raise RulesError(f"rules file {name} is not a regular file: name a .toml file", code="rules-file") from None
        if problem.kind == "too-big":
            raise RulesError(f"rules file {name} is over {MAX_RULES_FILE // 1024} KiB, so it is not a rules file: "
                             "name a .toml file with a [rules] table", code="rules-file") from None
        raise RulesError(f"cannot read rules file {name} ({problem.strerror}): check the path", code="rules-file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"rules file {name} is not text (UTF-8 TOML): name a .toml file with a [rules] table",
                         code="rules-file") from None


def _clip(value: Any, most: int = 40) -> str:
    """``repr(value)``, cut to ``most`` characters: what a player typed is echoed, never all of it."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else _clip(value)


def _choices(key: str) -> str:
    return " or ".join(_show(c) if not isinstance(c, str) else c for c in CHOICES[key])
