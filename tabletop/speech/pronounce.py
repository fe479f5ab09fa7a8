"""Pronunciations in CMU ARPAbet for any word a grammar holds.

Words come from the CMU dictionary bundled with PocketSphinx. A word it lacks (names such as
"priya", "aoife", "xiomara") gets one automatically: espeak-ng's IPA for the word mapped to
ARPAbet phones, or a simple letter-to-sound guess when espeak-ng is missing. No name is
spelled out by hand.

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

__all__ = ["cmudict", "pronunciations", "guess", "ipa_to_arpabet", "letters_to_arpabet", "PHONES"]

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
}
_IPA_KEYS = sorted(_IPA, key=len, reverse=True)
_STRIP = str.maketrans("", "", "ˈˌ\u200d-.̩̃ʰ")


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
def guess(word: str, voice: str = "en-us") -> str:
    """An ARPAbet pronunciation for a word the dictionary lacks."""
    exe = shutil.which("espeak-ng")
    if exe:
        try:
            result = subprocess.run(
                [exe, "-v", voice, "-q", "--ipa", "--sep=_", word], capture_output=True, timeout=10, text=True
            )
            phones = ipa_to_arpabet(result.stdout.strip())
            if phones and all(p in PHONES for p in phones.split()):
                return phones
        except (OSError, subprocess.SubprocessError):
            pass
    return letters_to_arpabet(word)


def pronunciations(words: "list[str] | set[str] | tuple[str, ...]") -> dict[str, list[str]]:
    """word -> its ARPAbet pronunciations (dictionary entries, or one automatic guess)."""
    table = cmudict()
    out: dict[str, list[str]] = {}
    for word in words:
        w = word.lower()
        if w in table:
            out[w] = table[w]
        else:
            out[w] = [guess(w)]
    return out
