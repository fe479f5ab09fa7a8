"""`tabletop models list|install|verify`: the speech (and card reader) models on this machine."""

from __future__ import annotations

import argparse
import os
import sys
import urllib.request
from pathlib import Path
from typing import Any, Callable, TextIO

from tabletop.cli.jsonline import json_line
from tabletop.errors import SetupError

__all__ = ["add_parser", "run", "statuses", "offer_vosk", "OFFERED_FILE"]

OFFERED_FILE = ".vosk-offered"
"""In the models folder: the Vosk model was offered and the user answered (it is asked once)."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "models",
        help="list, install and verify speech and vision models",
        description="List, install and verify the models tabletop uses.",
    )
    sub = parser.add_subparsers(dest="models_command", metavar="ACTION")
    p_list = sub.add_parser("list", help="what is installed and what is used")
    p_list.add_argument("--json", action="store_true", help="one JSON object per model")
    p_install = sub.add_parser("install", help="install the Vosk small US English model (optional)")
    p_install.add_argument("--from", dest="archive", metavar="FILE.zip", help="install from a downloaded archive")
    p_install.add_argument("--quiet", action="store_true", help="no progress bar")
    sub.add_parser(
        "offer",
        help="at a terminal, offer once to install the Vosk model where it can be downloaded (./start does)",
    )
    p_verify = sub.add_parser("verify", help="check every model loads; exit 1 on a problem")
    p_verify.add_argument("--json", action="store_true", help="one JSON object per model")
    return parser


def statuses() -> list[dict[str, Any]]:
    """Speech models, then the card reader's when the vision package reports one."""
    from tabletop.speech.models import speech_model_statuses

    out = speech_model_statuses()
    for item in out:
        item.setdefault("kind", "speech")
    try:
        from tabletop import vision

        status_fn = getattr(vision, "model_status", None)
    except Exception:  # noqa: BLE001 - vision is optional here
        status_fn = None
    if callable(status_fn):
        try:
            raw = status_fn()
        except Exception as error:  # noqa: BLE001
            raw = {"name": "card reader", "ok": False, "problem": f"the card reader check failed: {error}"}
        items = raw if isinstance(raw, list) else [raw]
        for item in items:
            item = dict(item) if isinstance(item, dict) else {"name": "card reader", "ok": bool(item)}
            item["name"] = f"card reader ({item.get('name', 'cards')})"
            item["kind"] = "vision"
            if "ok" not in item:
                item["ok"] = bool(item.get("present")) and bool(item.get("verified", True))
            if not item["ok"] and not item.get("problem"):
                built = str(item.get("built_from", ""))
                item["problem"] = (
                    built if built.startswith(("missing", "manifest")) else
                    "the card reader's files do not match its manifest: rebuild with `python -m tabletop.vision.build`"
                )
            item.pop("files", None)
            out.append(item)
    return out


def _verify_loads(item: dict[str, Any]) -> dict[str, Any]:
    """Go beyond files existing: start the engine."""
    if not item.get("ok") or item.get("kind") != "speech":
        return item
    try:
        if item["name"].startswith("pocketsphinx"):
            from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

            PocketSphinxRecogniser(reject_chatter=False).warm_up()
        elif item["name"].startswith("vosk"):
            from tabletop.speech.recognisers.vosk import load_model

            load_model(Path(item["path"]))
    except SetupError as error:
        item = dict(item, ok=False, problem=error.reason)
    return item


def _optional(item: dict[str, Any]) -> bool:
    """Whether tabletop works without this model (the Vosk model: PocketSphinx hears meanwhile)."""
    return "optional" in item.get("name", "")


def _print(items: list[dict[str, Any]], as_json: bool) -> None:
    for item in items:
        if as_json:
            print(json_line(item), flush=True)
            continue
        # An optional model not installed is no fault (`verify` exits 0 for it): "absent", not "MISSING".
        mark = "ok     " if item.get("ok") else "absent " if _optional(item) else "MISSING"
        used = "  (used by default)" if item.get("default") else ""
        print(f"{mark} {item['kind']:6} {item['name']}{used}")
        if item.get("path"):
            print(f"        {item['path']}")
        if item.get("problem"):
            print(f"        -> {item['problem']}")


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "models_command", None) or "list"
    if action == "list":
        _print(statuses(), getattr(args, "json", False))
        return 0
    if action == "verify":
        items = [_verify_loads(item) for item in statuses()]
        _print(items, args.json)
        # Anything tabletop ships or needs (the embedded recogniser, the card reader) missing or
        # broken is a problem; only the optional Vosk model may be absent.
        required = [i for i in items if not i.get("ok") and not _optional(i)]
        return 1 if required else 0
    if action == "offer":
        return offer_vosk()
    if action == "install":
        from tabletop.speech.models import VOSK_SMALL_EN_US, install_vosk_model

        archive = Path(args.archive) if args.archive else None
        where = install_vosk_model(archive, show_progress=not args.quiet)
        print(f"installed {VOSK_SMALL_EN_US.name} in {where} (SHA-256 verified)")
        return 0
    raise SetupError(f"unknown models action {action!r}")


def _interactive(stdin: TextIO, stdout: TextIO) -> bool:
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        return False
    return bool(stdin.isatty() and stdout.isatty())


def _reachable(url: str, timeout: float = 5.0) -> bool:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout):  # noqa: S310
            return True
    except (OSError, ValueError):
        return False


def offer_vosk(
    spec: Any = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    interactive: bool | None = None,
    reachable: Callable[[str], bool] = _reachable,
) -> int:
    """Offer, once and only at a terminal, to install the Vosk small English model.

    Nothing happens (and nothing is printed) when a Vosk model is already there, in CI, when
    standard input or output is not a terminal, or when the offer was answered before. Where the
    model cannot be downloaded the game goes on with the embedded recogniser, and the offer is made
    again another day. An answer (yes or no) is remembered in the models folder. Returns 0 always:
    the game starts either way.
    """
    from tabletop.speech.models import VOSK_SMALL_EN_US, find_vosk_model, install_vosk_model, models_dir

    spec = spec or VOSK_SMALL_EN_US
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if find_vosk_model() is not None:
        return 0
    if not (_interactive(stdin, stdout) if interactive is None else interactive):
        return 0
    marker = models_dir() / OFFERED_FILE
    if marker.exists():
        return 0
    if not reachable(spec.url):
        print("The better speech recogniser (Vosk) cannot be downloaded from here: "
              "tabletop goes on with the embedded one (PocketSphinx).", file=stdout, flush=True)
        return 0
    megabytes = round(spec.size / 1e6)
    print(f"tabletop hears better with the Vosk small English model ({megabytes} MB download, "
          f"{spec.licence}). Install it now? [Y/n] ", end="", file=stdout, flush=True)
    answer = stdin.readline().strip().lower()
    yes = answer in ("", "y", "yes")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("yes\n" if yes else "no\n")
    if not yes:
        print("Going on with the embedded recogniser. To install Vosk later: tabletop models install",
              file=stdout, flush=True)
        return 0
    try:
        where = install_vosk_model(spec=spec, show_progress=True)
    except SetupError as error:
        marker.unlink(missing_ok=True)  # offered again next time
        print(f"Vosk was not installed: {error.reason}", file=stdout, flush=True)
        print("Going on with the embedded recogniser.", file=stdout, flush=True)
        return 0
    print(f"Installed {spec.name} in {where} (SHA-256 verified): tabletop now hears with Vosk.",
          file=stdout, flush=True)
    return 0
