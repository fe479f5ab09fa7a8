"""Adapting PocketSphinx's bundled acoustic model to a voice, with Debian's sphinxtrain.

:func:`adapt` takes a speaker's enrollment recordings with what each says and returns new
Gaussian means and variances for the bundled US English model (MAP, optionally after a global
MLLR transform), plus the Baum-Welch counts of that speaker against the unadapted model, from
which several speakers' counts can later be pooled into one table-wide model
(:func:`pooled_model`) without keeping any audio.

The recipe (measured on the Free Spoken Digit Dataset, see ``tests/bench/enrollment.py``):

1. features with ``sphinx_fe`` using the model's own front-end settings (``feat.params``),
   noise removal on and **silence removal off** (its default would cut the frames ``bw``
   aligns to silence);
2. ``bw`` (forward-backward counts) against the model. The model is a PTM model
   (``-ts2cbfn .ptm.``) whose wheel ships ``sendump`` but not ``mixture_weights`` nor a text
   ``mdef``: both are rebuilt once (:func:`base_model`);
3. optionally ``mllr_solve`` + ``mllr_transform`` (one global class) and ``bw`` again;
4. ``map_adapt`` (Bayesian mean update) writes the adapted ``means`` (the variances are kept:
   adapting them too cost most of the gain); the decoder loads them over the bundled model
   (``Decoder(mean=..., var=...)``).

Everything runs locally in a temporary folder that is removed afterwards. When sphinxtrain is
missing, :class:`~tabletop.errors.SetupError` says which Debian packages to install.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from tabletop.errors import InvalidInputError, SetupError
from tabletop.speech.audio import SAMPLE_RATE, Utterance, write_wav

__all__ = [
    "METHODS",
    "Adaptation",
    "Tools",
    "find_tools",
    "bundled_model_dir",
    "base_model",
    "adapt",
    "pooled_model",
    "model_fingerprint",
]

METHODS = ("map", "mllr+map", "mllr")
INSTALL_HINT = "apt-get install sphinxtrain sphinxbase-utils pocketsphinx"
SPHINXTRAIN_DIRS = ("/usr/lib/sphinxtrain", "/usr/local/lib/sphinxtrain", "/usr/libexec/sphinxtrain")
# The bundled model's streams (1s_c_d_dd: 13 cepstra, their deltas and double deltas).
PTM_ARGS = ("-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38")
FRONT_END_KEYS = ("-lowerf", "-upperf", "-nfilt", "-transform", "-lifter")
COUNT_FILES = ("gauden_counts", "mixw_counts", "tmat_counts")
TOOL_TIMEOUT = 120.0


@dataclass(frozen=True)
class Tools:
    """Where the programs of the recipe are."""

    sphinx_fe: str
    mdef_convert: str
    bw: str
    map_adapt: str
    mllr_solve: str
    mllr_transform: str


def _which(name: str, dirs: Sequence[str] = ()) -> str | None:
    for folder in dirs:
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
    return shutil.which(name)


def find_tools() -> Tools:
    """The sphinxtrain, sphinxbase and pocketsphinx programs, or a SetupError saying what to install."""
    dirs = [os.environ["TABLETOP_SPHINXTRAIN_DIR"]] if os.environ.get("TABLETOP_SPHINXTRAIN_DIR") else list(SPHINXTRAIN_DIRS)
    found = {
        "sphinx_fe": _which("sphinx_fe"),
        "mdef_convert": _which("pocketsphinx_mdef_convert"),
        "bw": _which("bw", dirs),
        "map_adapt": _which("map_adapt", dirs),
        "mllr_solve": _which("mllr_solve", dirs),
        "mllr_transform": _which("mllr_transform", dirs),
    }
    missing = [name for name, path in found.items() if path is None]
    if missing:
        packages = sorted(
            {"sphinx_fe": "sphinxbase-utils", "mdef_convert": "pocketsphinx"}.get(name, "sphinxtrain") for name in missing
        )
        raise SetupError(
            f"voice enrollment needs sphinxtrain's tools, and {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing: apt-get install {' '.join(packages)} "
            f"(everything: {INSTALL_HINT})",
            code="no-sphinxtrain",
        )
    return Tools(**found)  # type: ignore[arg-type]


def bundled_model_dir() -> Path:
    """The acoustic model folder PocketSphinx's wheel ships (``.../en-us/en-us``)."""
    try:
        from pocketsphinx import get_model_path
    except (ImportError, OSError) as error:
        raise SetupError(f"PocketSphinx is not installed: pip install pocketsphinx==5.1.1 ({error})") from None
    return Path(get_model_path()) / "en-us" / "en-us"


def model_fingerprint(model_dir: Path | None = None) -> str:
    """A short hash of the bundled model's means and mdef: a profile is only valid for it."""
    model_dir = Path(model_dir or bundled_model_dir())
    digest = hashlib.sha256()
    for name in ("mdef", "means", "variances", "sendump"):
        digest.update((model_dir / name).read_bytes())
    return digest.hexdigest()[:16]


# -- the model's files, in sphinxtrain's formats ----------------------------------------------


def read_sendump(path: Path) -> np.ndarray:
    """Mixture weights from a PocketSphinx ``sendump``: float32 [senone][stream][codeword].

    Layout: length-prefixed header strings ending with a zero length, int32 codewords, int32
    senones, then uint8 values ordered [stream][codeword][senone]; v stands for the weight
    1.0001 ** (-v * 1024) (as PocketSphinx reads it), renormalised per senone and stream.
    """
    data = Path(path).read_bytes()
    pos = 0
    n_feat = 1
    while True:
        (length,) = struct.unpack_from("<i", data, pos)
        pos += 4
        if length == 0:
            break
        text = data[pos : pos + length].rstrip(b"\0").decode("ascii", "replace")
        if text.startswith("feature_count "):
            n_feat = int(text.split()[1])
        if text.startswith("cluster_count ") and int(text.split()[1]) != 0:
            raise SetupError(f"{path}: a clustered sendump is not supported")
        pos += length
    n_codewords, n_senones = struct.unpack_from("<ii", data, pos)
    pos += 8
    count = n_feat * n_codewords * n_senones
    values = np.frombuffer(data, dtype=np.uint8, count=count, offset=pos).astype(np.float64)
    values = values.reshape(n_feat, n_codewords, n_senones)
    weights = np.power(1.0001, -values * 1024.0)  # [stream][codeword][senone]
    weights /= weights.sum(axis=1, keepdims=True)
    return weights.transpose(2, 0, 1).astype(np.float32)  # [senone][stream][codeword]


def write_s3_3d(path: Path, array: np.ndarray) -> None:
    """A sphinxtrain binary 3-d float32 file (mixture_weights's format). Without a
    ``chksum0`` header line the readers expect no checksum (its rolling sum is slow in Python)."""
    a = np.ascontiguousarray(array, dtype="<f4")
    with open(path, "wb") as f:
        f.write(b"s3\nversion 1.0\nendhdr\n")
        f.write(struct.pack("<I", 0x11223344))
        f.write(struct.pack("<IIII", *a.shape, a.size))
        f.write(a.tobytes())


def base_model(cache: Path | None = None) -> Path:
    """A folder sphinxtrain can read for the bundled model: its files plus a text ``mdef.txt``
    and ``mixture_weights`` rebuilt from ``sendump``. Made once and cached (``cache`` or the
    user cache folder), keyed by the model's fingerprint."""
    tools = find_tools()
    bundled = bundled_model_dir()
    if cache is None:
        from platformdirs import user_cache_dir

        cache = Path(user_cache_dir("tabletop")) / "sphinxtrain-base"
    folder = Path(cache) / model_fingerprint(bundled)
    if (folder / "ready").exists():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".base.", dir=folder.parent))
    try:
        for name in ("means", "variances", "transition_matrices", "noisedict", "feat.params", "mdef"):
            shutil.copyfile(bundled / name, work / name)
        _run([tools.mdef_convert, "-text", str(bundled / "mdef"), str(work / "mdef.txt")], "pocketsphinx_mdef_convert")
        write_s3_3d(work / "mixture_weights", read_sendump(bundled / "sendump"))
        (work / "ready").write_text("ok\n")
        try:
            os.replace(work, folder)
        except OSError:  # another process made it first
            shutil.rmtree(work, ignore_errors=True)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return folder


# -- adaptation --------------------------------------------------------------------------------


class AdaptedFiles:
    """The files an adaptation leaves in its ``folder``: adapted ``means`` and ``variances``, and the
    speaker's ``counts`` against the unadapted model (a zip). Shared by :class:`Adaptation` and a
    stored voice profile."""

    folder: Path

    @property
    def means(self) -> Path:
        return self.folder / "means"

    @property
    def variances(self) -> Path:
        return self.folder / "variances"

    @property
    def counts(self) -> Path:
        return self.folder / "counts.zip"


@dataclass
class Adaptation(AdaptedFiles):
    """The result of :func:`adapt`: the adapted ``means``/``variances`` files (in ``folder``),
    the speaker's counts against the unadapted model (``counts``, a zip), and figures."""

    folder: Path
    method: str
    utterances: int
    seconds: float
    frames: int
    cpu_seconds: float
    words: tuple[str, ...] = field(default_factory=tuple)


def _run(cmd: list[str], what: str, cwd: Path | None = None) -> str:
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=TOOL_TIMEOUT, cwd=cwd)
    except FileNotFoundError:
        raise SetupError(f"{what} is missing: {INSTALL_HINT}", code="no-sphinxtrain") from None
    except subprocess.TimeoutExpired:
        raise SetupError(f"{what} did not finish in {TOOL_TIMEOUT:.0f} s: voice adaptation failed") from None
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-4:])
        raise SetupError(f"{what} failed (exit {result.returncode}): {tail}")
    return result.stderr + result.stdout


def _child_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def _words(text: str) -> list[str]:
    """The words of a prompt as the dictionary spells them ("Ben, got any 7s?" -> ben got any sevens)."""
    from tabletop.language.normalise import normalise  # the parser's own word forms

    return list(normalise(text))


def _write_dictionary(path: Path, words: Iterable[str]) -> None:
    from tabletop.speech.pronounce import pronunciations

    prons = pronunciations(set(words))
    with open(path, "w", encoding="utf-8") as f:
        for word in sorted(prons):
            # bw aligns with one pronunciation per word: the first (the dictionary's usual one).
            f.write(f"{word} {prons[word][0]}\n")


def _front_end_args(model: Path) -> list[str]:
    args: list[str] = []
    for line in (model / "feat.params").read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in FRONT_END_KEYS:
            args += parts
    return args


def _bw(tools: Tools, base: Path, work: Path, means: Path, accum: Path, mllr: Path | None = None) -> str:
    accum.mkdir()
    cmd = [
        tools.bw,
        "-hmmdir", str(base),
        "-moddeffn", str(base / "mdef.txt"),
        *PTM_ARGS,
        "-cmn", "batch", "-agc", "none", "-varnorm", "no",
        "-meanfn", str(means),
        "-varfn", str(base / "variances"),
        "-mixwfn", str(base / "mixture_weights"),
        "-tmatfn", str(base / "transition_matrices"),
        "-dictfn", str(work / "enroll.dict"),
        "-fdictfn", str(base / "noisedict"),
        "-ctlfn", str(work / "enroll.ctl"),
        "-lsnfn", str(work / "enroll.transcription"),
        "-cepdir", str(work / "feat"),
        "-cepext", "mfc",  # no dot: with ".mfc" bw retries silently for minutes, then fails
        "-accumdir", str(accum),
        "-timing", "no",
    ]
    if mllr is not None:
        cmd += ["-mllrmat", str(mllr)]
    log = _run(cmd, "sphinxtrain's bw")
    if not (accum / "gauden_counts").exists():
        raise SetupError("sphinxtrain's bw wrote no counts: the recordings could not be aligned with their text")
    return log


def _map_adapt(
    tools: Tools, base: Path, means: Path, accums: Sequence[Path], out: Path, work: Path, variances: bool = False
) -> None:
    """MAP-adapt the means (Bayesian update) into ``out``; the variances too only when asked:
    re-estimated from ten seconds of speech they shrink and make the model overconfident (FSDD
    speaker's rank words: 91.7% with them adapted, 97.5% with the means alone; 82.8% before)."""
    _run(
        [
            tools.map_adapt,
            "-moddeffn", str(base / "mdef.txt"),
            "-ts2cbfn", ".ptm.",
            "-meanfn", str(means),
            "-varfn", str(base / "variances"),
            "-mixwfn", str(base / "mixture_weights"),
            "-tmatfn", str(base / "transition_matrices"),
            "-accumdir", ",".join(str(a) for a in accums),  # one argument, comma-separated
            "-mapmeanfn", str(out / "means"),
            "-mapvarfn", str((out if variances else work) / "variances"),
            "-mapmixwfn", str(work / "map_mixture_weights"),
            "-maptmatfn", str(work / "map_transition_matrices"),
        ],
        "sphinxtrain's map_adapt",
    )
    if not variances:
        shutil.copyfile(base / "variances", out / "variances")


def _mllr(tools: Tools, base: Path, accum: Path, work: Path) -> tuple[Path, Path]:
    matrix = work / "mllr_matrix"
    _run(
        [
            tools.mllr_solve,
            "-meanfn", str(base / "means"),
            "-varfn", str(base / "variances"),
            "-outmllrfn", str(matrix),
            "-accumdir", str(accum),
        ],
        "sphinxtrain's mllr_solve",
    )
    means = work / "mllr_means"
    _run(
        [tools.mllr_transform, "-inmeanfn", str(base / "means"), "-outmeanfn", str(means), "-mllrmat", str(matrix)],
        "sphinxtrain's mllr_transform",
    )
    return matrix, means


def adapt(
    recordings: Sequence[tuple[Utterance, str]],
    out: Path,
    *,
    method: str = "mllr+map",
    base: Path | None = None,
) -> Adaptation:
    """Adapt the bundled model to the speaker of ``recordings`` ((utterance, what it says) pairs).

    Writes ``means``, ``variances`` (the adapted model, unless ``method`` is "mllr", which
    writes ``mllr_matrix`` instead) and ``counts.zip`` (the speaker's Baum-Welch counts against
    the unadapted model, for :func:`pooled_model`) into ``out``.

    :raises SetupError: when sphinxtrain is missing or a tool fails (the reason says what to do).
    :raises InvalidInputError: for no recordings, an empty text, or audio that is not 16 kHz.
    """
    if method not in METHODS:
        raise InvalidInputError(f"unknown adaptation method {method!r}: use one of {', '.join(METHODS)}")
    if not recordings:
        raise InvalidInputError("no enrollment recordings to adapt to")
    tools = find_tools()
    base = base or base_model()
    cpu0 = time.process_time() + _child_cpu()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seconds = 0.0
    words_used: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="tabletop-adapt-") as tmp:
        work = Path(tmp)
        (work / "wav").mkdir()
        (work / "feat").mkdir()
        ctl, transcripts = [], []
        for i, (utterance, text) in enumerate(recordings):
            words = _words(text)
            if not words:
                raise InvalidInputError(f"enrollment recording {i + 1} has no text: say what it says")
            if utterance.rate != SAMPLE_RATE:
                raise InvalidInputError(f"enrollment recording {i + 1} is {utterance.rate} Hz, not {SAMPLE_RATE} Hz")
            uid = f"u{i:04d}"
            write_wav(work / "wav" / f"{uid}.wav", utterance)
            seconds += utterance.duration
            ctl.append(uid)
            transcripts.append(f"<s> {' '.join(words)} </s> ({uid})")
            words_used.update(words)
        (work / "enroll.ctl").write_text("\n".join(ctl) + "\n")
        (work / "enroll.transcription").write_text("\n".join(transcripts) + "\n")
        _write_dictionary(work / "enroll.dict", words_used)
        _run(
            [
                tools.sphinx_fe,
                *_front_end_args(base),
                "-samprate", str(SAMPLE_RATE),
                "-remove_noise", "yes",
                "-remove_silence", "no",  # its default (yes) cuts the frames bw aligns to silence
                "-c", str(work / "enroll.ctl"),
                "-di", str(work / "wav"), "-ei", "wav", "-mswav", "yes",
                "-do", str(work / "feat"), "-eo", "mfc",
            ],
            "sphinx_fe",
        )
        frames = sum(max(0, ((work / "feat" / f"{u}.mfc").stat().st_size - 4) // (13 * 4)) for u in ctl)
        accum = work / "counts"
        _bw(tools, base, work, base / "means", accum)
        _zip_counts(accum, out / "counts.zip")
        if method == "map":
            _map_adapt(tools, base, base / "means", [accum], out, work)
        else:
            matrix, mllr_means = _mllr(tools, base, accum, work)
            if method == "mllr":
                shutil.copyfile(matrix, out / "mllr_matrix")
            else:
                accum2 = work / "counts-mllr"
                _bw(tools, base, work, mllr_means, accum2)
                _map_adapt(tools, base, mllr_means, [accum2], out, work)
    cpu = time.process_time() + _child_cpu() - cpu0
    return Adaptation(out, method, len(recordings), round(seconds, 2), frames, round(cpu, 3), tuple(sorted(words_used)))


def _zip_counts(accum: Path, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in COUNT_FILES:
            if (accum / name).exists():
                zf.write(accum / name, name)
    os.replace(tmp, path)


def pooled_model(counts: Sequence[Path], out: Path, *, base: Path | None = None) -> Path:
    """One model adapted by MAP to several speakers at once, from their ``counts.zip`` files.

    Writes ``means`` and ``variances`` into ``out`` and returns it.
    """
    if not counts:
        raise InvalidInputError("no voice profiles to pool")
    tools = find_tools()
    base = base or base_model()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tabletop-pool-") as tmp:
        work = Path(tmp)
        accums = []
        for i, path in enumerate(counts):
            folder = work / f"counts{i}"
            folder.mkdir()
            with zipfile.ZipFile(path) as zf:
                for name in COUNT_FILES:
                    if name in zf.namelist():
                        zf.extract(name, folder)
            accums.append(folder)
        _map_adapt(tools, base, base / "means", accums, out, work)
    return out
