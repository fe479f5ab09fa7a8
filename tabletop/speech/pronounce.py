"""Pronunciations in CMU ARPAbet for any word a grammar holds.

Words come from the CMU dictionary bundled with PocketSphinx. A word it lacks (names such as
"priya", "aoife", "xiomara") gets one automatically: espeak-ng's IPA for the word mapped to
ARPAbet phones, or a simple letter-to-sound guess when espeak-ng is missing. No name is
spelled out by hand.

Player names may be written in any alphabet ("José", "Мария", "美玲"). The grammar holds each as
an ASCII word (the language layer's ``normalise``: "jose", "mariya", "meiling"), and
:func:`remember_names` tells this module how each was written, so the name is phonemised from its
own spelling, by the espeak-ng voice for its script (Russian for Cyrillic, Hindi for Devanagari...),
beside the English reading of the ASCII word: a family says the name its own way.

>>> pronunciations(["seven"])["seven"]
['S EH V AH N']
>>> ipa_to_arpabet("p_ɹ_ˈɪ_j_ə")
'P R IH Y AH'
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from typing import Iterable

__all__ = [
    "cmudict", "pronunciations", "guess", "ipa_to_arpabet", "letters_to_arpabet", "PHONES",
    "remember_names", "script_voice", "name_pronunciations", "accent_readings", "ACCENTS",
]

PHONES = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split()
)

# espeak-ng IPA phonemes (as separated by --sep=_) to ARPAbet, longest match first.
_IPA = {
    "aɪə": "AY AH", "aʊə": "AW AH", "eɪ": "EY", "aɪ": "AY", "aʊ": "AW", "ɔɪ": "OY", "oʊ": "OW",
    "əʊ": "OW", "ɪə": "IH AH", "eə": "EH R", "ʊə": "UH R", "ɑːɹ": "AA R", "ɔːɹ": "AO R",
    "ɜːɹ": "ER", "ɪɹ": "IH R", "ɛɹ": "EH R", "ʊɹ": "UH R", "oːɹ": "AO R", "aɪɚ": "AY ER",
    "tʃ": "CH", "dʒ": "JH", "iː": "IY", "uː": "UW", "ɑː": "AA", "ɔː": "AO", "ɜː": "ER", "oː": "OW",
    "eː": "EY", "aː": "AA", "ɚ": "ER", "ɝ": "ER", "ə": "AH", "ʌ": "AH", "ɐ": "AH", "ɪ": "IH",
    "ᵻ": "IH", "ɛ": "EH", "e": "EH", "æ": "AE", "a": "AE", "ʊ": "UH", "u": "UW", "i": "IY",
    "ɑ": "AA", "ɒ": "AA", "ɔ": "AO", "o": "OW", "ɾ": "T", "ʔ": "", "θ": "TH", "ð": "DH",
    "ʃ": "SH", "ʒ": "ZH", "ŋ": "NG", "ɹ": "R", "r": "R", "ɫ": "L", "l": "L", "j": "Y", "w": "W",
    "h": "HH", "x": "HH", "ç": "HH", "ɡ": "G", "g": "G", "b": "B", "d": "D", "f": "F", "k": "K",
    "m": "M", "n": "N", "p": "P", "s": "S", "t": "T", "v": "V", "z": "Z", "ʎ": "L Y", "ɲ": "N Y",
    "ɬ": "L", "ʁ": "R", "y": "UW", "ø": "ER", "œ": "ER", "ʏ": "UH",
    # Sounds of other languages' voices (names in any alphabet), mapped to the nearest English phone.
    "tɕ": "CH", "dʑ": "JH", "ts": "T S", "dz": "D Z", "tʂ": "CH", "dʐ": "JH", "ɕ": "SH", "ʑ": "ZH",
    "ʂ": "SH", "ʐ": "ZH", "ä": "AA", "ɯ": "UW", "ɤ": "AH", "ɨ": "IH", "ʉ": "UW", "ɵ": "ER", "ɘ": "AH",
    "ɞ": "ER", "ɽ": "R", "ɺ": "L", "ɭ": "L", "ɳ": "N", "ʈ": "T", "ɖ": "D", "c": "K", "ɟ": "G",
    "q": "K", "ɢ": "G", "ɣ": "G", "β": "B", "ɸ": "F", "ʋ": "V", "ʝ": "Y", "χ": "HH", "ħ": "HH",
    "ɦ": "HH", "ʕ": "", "ɰ": "W", "ɥ": "Y", "ʀ": "R", "ɮ": "L", "ɱ": "M", "ɴ": "N",
}
_IPA_KEYS = sorted(_IPA, key=len, reverse=True)
_STRIP = str.maketrans("", "", "ˈˌ\u200d-.̩̃ʰʲʷˠˤᵝ")


@functools.lru_cache(maxsize=1)
def cmudict() -> dict[str, list[str]]:
    """The CMU pronouncing dictionary bundled with PocketSphinx: word -> pronunciations."""
    from pocketsphinx import get_model_path

    out: dict[str, list[str]] = {}
    path = os.path.join(get_model_path(), "en-us", "cmudict-en-us.dict")
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split(maxsplit=1)
            if len(parts) != 2:
                continue
            word = re.sub(r"\(\d+\)$", "", parts[0])
            out.setdefault(word, []).append(parts[1].strip())
    return out


def ipa_to_arpabet(ipa: str) -> str:
    """Map espeak-ng IPA phonemes (separated by ``_`` or spaces) to ARPAbet."""
    phones: list[str] = []
    for token in re.split(r"[_\s]+", ipa):
        token = token.translate(_STRIP).replace("ː", "ː")
        token = "".join(c for c in token if unicodedata.category(c) != "Mn")  # tones, nasality, length marks
        while token:
            for key in _IPA_KEYS:
                if token.startswith(key):
                    if _IPA[key]:
                        phones.extend(_IPA[key].split())
                    token = token[len(key):]
                    break
            else:
                token = token[1:]  # an unknown mark (tone, stress variant): skip it
    # Collapse doubled phones from espeak's syllable joins ("ɑːɹ_ɹ").
    out: list[str] = []
    for p in phones:
        if not out or out[-1] != p:
            out.append(p)
    return " ".join(out)


_LETTERS = [
    ("tch", "CH"), ("sch", "SH"), ("igh", "AY"), ("ch", "CH"), ("sh", "SH"), ("th", "TH"), ("ph", "F"),
    ("ck", "K"), ("ng", "NG"), ("qu", "K W"), ("ee", "IY"), ("ea", "IY"), ("oo", "UW"), ("ou", "AW"),
    ("ow", "OW"), ("ai", "EY"), ("ay", "EY"), ("oi", "OY"), ("oy", "OY"), ("au", "AO"), ("ie", "IY"),
    ("a", "AA"), ("b", "B"), ("c", "K"), ("d", "D"), ("e", "EH"), ("f", "F"), ("g", "G"), ("h", "HH"),
    ("i", "IY"), ("j", "JH"), ("k", "K"), ("l", "L"), ("m", "M"), ("n", "N"), ("o", "OW"), ("p", "P"),
    ("q", "K"), ("r", "R"), ("s", "S"), ("t", "T"), ("u", "UW"), ("v", "V"), ("w", "W"), ("x", "K S"),
    ("y", "Y"), ("z", "Z"),
]


def letters_to_arpabet(word: str) -> str:
    """A rough letter-to-sound guess, used only when espeak-ng is not installed."""
    word = re.sub(r"[^a-z]", "", word.lower())
    phones: list[str] = []
    i = 0
    while i < len(word):
        for letters, sound in _LETTERS:
            if word.startswith(letters, i):
                phones.extend(sound.split())
                i += len(letters)
                break
        else:
            i += 1
    if word.endswith("e") and len(phones) > 2 and phones[-1] == "EH":
        phones.pop()  # silent final e
    return " ".join(phones) or "AH"


@functools.lru_cache(maxsize=4096)
def _espeak(word: str, voice: str) -> str | None:
    """espeak-ng's reading of ``word`` in ``voice`` as ARPAbet, or None (no espeak-ng, no voice, or
    a voice that switched to another language for it: a reading of the characters' names)."""
    exe = shutil.which("espeak-ng")
    if not exe:
        return None
    try:
        result = subprocess.run(
            [exe, "-v", voice, "-q", "--ipa", "--sep=_", word], capture_output=True, timeout=10, text=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    ipa = result.stdout.strip()
    if result.returncode != 0 or not ipa or re.search(r"\([a-z-]+\)", ipa):
        return None
    if not voice.startswith("en"):  # a tapped r and a plain a, as other languages say them
        ipa = ipa.replace("ɾ", "r").replace("a", "ä")
    phones = ipa_to_arpabet(ipa)
    if phones and all(p in PHONES for p in phones.split()):
        return phones
    return None


@functools.lru_cache(maxsize=4096)
def guess(word: str, voice: str = "en-us") -> str:
    """An ARPAbet pronunciation for a word the dictionary lacks."""
    return _espeak(word, voice) or letters_to_arpabet(word)


# espeak-ng voices for the scripts a family may write names in (Unicode character-name prefixes).
_SCRIPT_VOICES = (
    ("CYRILLIC", "ru"), ("GREEK", "el"), ("ARABIC", "ar"), ("HEBREW", "he"), ("DEVANAGARI", "hi"),
    ("BENGALI", "bn"), ("GURMUKHI", "pa"), ("GUJARATI", "gu"), ("TAMIL", "ta"), ("TELUGU", "te"),
    ("KANNADA", "kn"), ("MALAYALAM", "ml"), ("SINHALA", "si"), ("THAI", "th"), ("HANGUL", "ko"),
    ("HIRAGANA", "ja"), ("KATAKANA", "ja"), ("CJK", "cmn"), ("ARMENIAN", "hy"), ("GEORGIAN", "ka"),
    ("ETHIOPIC", "am"), ("MYANMAR", "my"), ("KHMER", "km"), ("LAO", "lo"),
)


def script_voice(name: str) -> str | None:
    """The espeak-ng voice for the script ``name`` is written in; None for the Latin alphabet."""
    for char in name:
        if not char.isalpha():
            continue
        label = unicodedata.name(char, "")
        if label.startswith("LATIN"):
            return None
        for prefix, voice in _SCRIPT_VOICES:
            if label.startswith(prefix):
                return voice
    return None


def name_pronunciations(name: str, word: str) -> list[str]:
    """Readings of a player's name (as written) for its grammar word (ASCII, lowercase): the name
    read by the voice of its script, or by English for a Latin-alphabet name ("José" -> HH OW S EY),
    then the dictionary's or English's reading of the word itself ("jose")."""
    out: list[str] = []
    voice = script_voice(name)
    own = _espeak(name.lower(), voice) if voice else (_espeak(name.lower(), "en-us") if not name.isascii() else None)
    if own:
        out.append(own)
    out.extend(cmudict().get(word) or [guess(word)])
    return list(dict.fromkeys(out))


_NAMES: dict[str, set[str]] = {}
_NAMES_LOCK = threading.Lock()


def remember_names(pairs: Iterable[tuple[str, str]]) -> None:
    """Record how grammar words were written as names: (name as typed, its grammar word) pairs."""
    with _NAMES_LOCK:
        for name, word in pairs:
            if name and word and name.lower() != word:
                _NAMES.setdefault(word, set()).add(name)


# The CMU dictionary is American English. Families speak with other accents, so a word whose short a
# (AE: "have", "jacks", "asks") these espeak-ng voices say open ([a], British English) also gets that
# reading (see _short_a_said_open for why only that). The dictionary's readings come first; the
# search picks whichever fits the sound.
ACCENTS = ("en-gb",)
# espeak-ng's British short a ([a], "jacks" dʒ_ˈa_k_s) is nearer the model's AA than its AE: the bundled
# model's free phone loop hears en-gb's "have any" as P AA M EH N IY. Not in diphthongs (aɪ, aʊ).
_OPEN_A = re.compile(r"a(?![ɪʊːɑ])")
_ACCENT_CACHE: dict[tuple[str, str], str | None] = {}


def accent_readings(words: Iterable[str], voice: str) -> dict[str, str]:
    """ARPAbet readings of ``words`` (lowercase ASCII) in an English espeak-ng ``voice``, from one
    espeak-ng run for the words not read before; a word espeak-ng reads oddly (two words, another
    language) has none. Empty without espeak-ng."""
    words = [w for w in dict.fromkeys(words) if w and w.isascii() and w.replace("'", "").isalpha()]
    todo = [w for w in words if (voice, w) not in _ACCENT_CACHE]
    exe = shutil.which("espeak-ng")
    if todo and exe:
        try:
            # One word a clause (a blank line between): espeak-ng prints one line of IPA for each.
            result = subprocess.run([exe, "-v", voice, "-q", "--ipa", "--sep=_"], input="\n\n".join(todo) + "\n",
                                    capture_output=True, timeout=60, text=True)
            lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
        except (OSError, subprocess.SubprocessError):
            lines = []
        if len(lines) == len(todo):
            for word, ipa in zip(todo, lines):
                phones = None
                if " " not in ipa and not re.search(r"\([a-z-]+\)", ipa):
                    phones = ipa_to_arpabet(_OPEN_A.sub("ɑ", ipa))
                    if not phones or not all(p in PHONES for p in phones.split()):
                        phones = None
                _ACCENT_CACHE[(voice, word)] = phones
    return {w: r for w in words if (r := _ACCENT_CACHE.get((voice, w)))}


def pronunciations(words: "list[str] | set[str] | tuple[str, ...]", accents: Iterable[str] = ACCENTS) -> dict[str, list[str]]:
    """word -> its ARPAbet pronunciations (dictionary entries, or one automatic guess; a player's
    name written in another alphabet or with accents also gets its own script's reading), then each
    accent's reading (:data:`ACCENTS`) where it differs."""
    table = cmudict()
    out: dict[str, list[str]] = {}
    for word in words:
        w = word.lower()
        with _NAMES_LOCK:
            written = sorted(_NAMES.get(w, ()))
        if written:
            readings = [r for name in written for r in name_pronunciations(name, w)]
            out[w] = list(dict.fromkeys(readings))
        elif w in table:
            out[w] = list(table[w])
        else:
            out[w] = [guess(w)]
    for voice in accents:
        for w, reading in accent_readings(out, voice).items():
            if reading not in out[w] and any(_short_a_said_open(usual, reading) for usual in out[w]):
                out[w].append(reading)
    return out


def _short_a_said_open(usual: str, reading: str) -> bool:
    """Whether ``reading`` is the dictionary's ``usual`` reading with its short a (AE) said open
    (AA), and nothing else changed: "jacks" JH AA K S, "have" HH AA V, "asks" AA S K S.

    Only that: it is what was measured to lose British voices ("jacks" heard "ace", "have any" heard
    "how many"). Every other difference of the British reading was tried and cost real voices:
    the other vowels (its "one" W AA N made real Speech Commands "go"s and "yes"es heard as "one":
    counts and answers within one repair 96.7 -> 93.3%, 100 -> 93.8%) and a sound fewer (no r after a
    vowel: "are" AA fit the table's babble, "here are two" heard behind a "yes")."""
    a, b = usual.split(), reading.split()
    return len(a) == len(b) and a != b and all(x == y or (x == "AE" and y == "AA") for x, y in zip(a, b))
