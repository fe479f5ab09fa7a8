"""A small back-off n-gram language model in ARPA format, built from sample sentences.

The chatter rejector decodes each utterance a second time with an open n-gram model over the
domain's sentences (plus common English words as an escape for chatter), and accepts a command
only when it agrees with the grammar decoder.

>>> text = arpa(["go fish", "yes two"], order=2)
>>> text.splitlines()[1]
'ngram 1=6'
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Iterable

__all__ = ["arpa", "COMMON_WORDS"]

# Frequent English words (function words and everyday vocabulary). In the open decoder they
# give speech that is not a command somewhere else to go than the command words.
COMMON_WORDS = tuple(
    """
    a about after again all also always am an and another any are around as at away back bad be
    because bed been before being best better big bit book both boy but buy by call came can car
    care cat chair change check child close cold come could cup day did do does dog done door down
    drink eat else end enough even ever every eye face fall far feel find fine first food for forget
    found friend from full fun game gave get girl give glad go going gone good got great had hand
    happy hard has have he head hear help her here him his hold home hot house how hungry i if in
    into is it just keep kind know last late leave left let life light like listen little live long
    look lot love made make man many may me mean milk mind minute money more morning most mother
    much must my name need never new next nice night no not nothing now of off oh ok okay old on
    once one only open or other our out outside over people phone picture place play please put
    rain read ready really right room run said same sat saw say school see seem set she should
    show side sit sleep small so some something soon sorry start stay still stop sure table take
    talk tea tell than thank thanks that the their them then there these they thing think this
    those thought through time tired to today together told tomorrow too took town tree try turn
    two under until up us use very wait walk want was watch water way we week well went were what
    when where which while who why will window with without woman word work world would write
    wrong yeah year yes yesterday yet you your
    """.split()
) + (
    # Number words: said at a card table all the time (a score, a count, "zero"), and the
    # count and rank words' nearest neighbours.
    "zero", "eleven", "twelve", "thirteen", "fifteen", "twenty", "thirty", "fifty", "hundred",
)


def _log10(p: float) -> float:
    return math.log10(p) if p > 0 else -99.0


def arpa(
    sentences: Iterable[str],
    extra_words: Iterable[str] = (),
    order: int = 3,
    discount: float = 0.5,
    extra_weight: float = 0.5,
) -> str:
    """An ARPA back-off model of ``sentences`` (absolute discounting); ``extra_words`` join the
    unigrams with ``extra_weight`` pseudo-counts each."""
    counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    for sentence in sentences:
        words = ["<s>"] + sentence.lower().split() + ["</s>"]
        for n in range(1, order + 1):
            for i in range(len(words) - n + 1):
                gram = tuple(words[i : i + n])
                if n == 1 and gram == ("<s>",):
                    continue
                counts[n][gram] += 1
    for w in extra_words:
        w = w.lower()
        if (w,) not in counts[1]:
            counts[1][(w,)] = 0
    uni = counts[1]
    total = sum(uni.values()) + extra_weight * len(uni)
    probs: list[dict[tuple[str, ...], float]] = [dict() for _ in range(order + 1)]
    for gram, c in uni.items():
        probs[1][gram] = (c + extra_weight) / total
    probs[1][("<s>",)] = 0.0
    # Higher orders: discounted relative frequencies.
    context_counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    followers: list[defaultdict[tuple[str, ...], list[tuple[str, ...]]]] = [defaultdict(list) for _ in range(order + 1)]
    for n in range(2, order + 1):
        for gram, c in counts[n].items():
            context_counts[n][gram[:-1]] += c
            followers[n][gram[:-1]].append(gram)
        for gram, c in counts[n].items():
            probs[n][gram] = max(c - discount, 0.01) / context_counts[n][gram[:-1]]

    def lower_prob(gram: tuple[str, ...]) -> float:
        """Back-off probability of gram[-1] given gram[1:-1]."""
        n = len(gram) - 1
        if n == 1:
            return probs[1].get(gram[-1:], 0.0)
        if gram[1:] in probs[n]:
            return probs[n][gram[1:]]
        return backoff[n].get(gram[1:-1], 1.0) * lower_prob(gram[1:])

    backoff: list[dict[tuple[str, ...], float]] = [dict() for _ in range(order + 1)]
    for n in range(1, order):
        # Contexts of length n that are followed in order n+1.
        for context, grams in followers[n + 1].items():
            seen = sum(probs[n + 1][g] for g in grams)
            seen_lower = sum(lower_prob(g) for g in grams)
            left = max(1.0 - seen, 1e-6)
            backoff[n][context] = left / max(1.0 - seen_lower, 1e-6)

    lines = ["\\data\\"]
    for n in range(1, order + 1):
        lines.append(f"ngram {n}={len(probs[n])}")
    lines.append("")
    for n in range(1, order + 1):
        lines.append(f"\\{n}-grams:")
        for gram in sorted(probs[n]):
            p = -99.0 if gram == ("<s>",) else _log10(probs[n][gram])
            line = f"{p:.4f} {' '.join(gram)}"
            if n < order:
                b = backoff[n].get(gram)
                if b is not None:
                    line += f" {_log10(b):.4f}"
                elif n < order:
                    line += " 0.0000"
            lines.append(line)
        lines.append("")
    lines.append("\\end\\")
    return "\n".join(lines) + "\n"
