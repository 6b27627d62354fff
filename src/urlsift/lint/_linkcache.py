"""The on-disk cache of ``--check-links``: links that resolved recently are not asked again.

Strategy: one JSON file that starts with urlsift's own signature (:data:`SIGNATURE`,
``{"urlsift": "link-cache", "format": 2,``) and holds ``"entries": {url: entry}``, keyed
by the URL as requested (no fragment); an entry keeps the final status, the redirects and
when the check was made. Only successes are ever stored (an accepted status, perhaps after
redirects): a failure or a timeout is always checked again. An entry is used only while
younger than the time-to-live and while its status is still accepted by the current
options. The cache is an optimisation, never a source of errors: a missing file reads as
empty; a file of urlsift's that is corrupt in any way (truncated, not JSON, not UTF-8,
nested past the parser's depth, larger than :data:`MAX_CACHE_BYTES`, entries of the wrong
shape) is ignored, said so once through the ``notice`` callback, and replaced on save.

Safety: a file urlsift did not write is **never** overwritten. A file is urlsift's when it
starts with :data:`SIGNATURE` (or is, whole and valid, a cache of the older format 1, which
had none); anything else at the cache path (a user's file, an empty file, a folder, a
pipe, a device) is left alone, said so once, and the run keeps no cache. Only regular
files are opened, without blocking. Writes are atomic (a temporary file in the same folder,
then ``os.replace``) and merge with whatever another run wrote meanwhile, newest entry
winning. Keys never carry a password (the caller redacts them).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ._http import Hop

CACHE_FORMAT = 2
"""Version of the file layout (2: with :data:`SIGNATURE`)."""

SIGNATURE = b'{"urlsift": "link-cache", "format": 2,\n'
"""The first bytes of every cache file urlsift writes: only a file that starts with them
(or a whole, valid format-1 cache) is ever read as a cache or replaced."""

_FORMAT_1_START = b'{\n "entries": {'
"""How a format-1 file (written by urlsift before the signature) starts."""

MAX_CACHE_BYTES = 64 << 20
"""A larger file is not read (and is replaced): no cache of links gets that big."""


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """A successful check remembered."""

    status: int
    """The final (accepted) status."""
    redirects: tuple[Hop, ...]
    """The redirects followed to get there."""
    checked: float
    """POSIX time of the check."""

    def to_json(self) -> dict[str, object]:
        """The entry as stored in the file."""
        return {
            "status": self.status,
            "redirects": [[hop.status, hop.location] for hop in self.redirects],
            "checked": self.checked,
        }

    @classmethod
    def from_json(cls, data: object) -> CacheEntry | None:
        """Read an entry back; None when it is not in the expected shape."""
        if not isinstance(data, dict):
            return None
        status, redirects, checked = data.get("status"), data.get("redirects"), data.get("checked")
        if type(status) is not int or type(checked) not in (int, float):
            return None
        if not isinstance(redirects, list):
            return None
        hops: list[Hop] = []
        for item in redirects:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or type(item[0]) is not int
                or not isinstance(item[1], str)
            ):
                return None
            hops.append(Hop(item[0], item[1]))
        assert isinstance(checked, (int, float))
        return cls(status, tuple(hops), float(checked))


def _read(path: Path) -> tuple[dict[str, CacheEntry], str | None, bool]:
    # The entries, what is wrong with the file (None: nothing, or no file), and whether
    # the file may be replaced (it is absent or urlsift's own). Whatever goes wrong here
    # means "no cache", never an exception; nothing but a regular file is read.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return {}, None, True
    except OSError as exc:
        return {}, f"cannot be read: {exc.strerror or exc}", False
    with os.fdopen(fd, "rb") as stream:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return {}, _FOREIGN.format("is not a regular file"), False
            raw = stream.read(MAX_CACHE_BYTES + 1)
        except OSError as exc:
            return {}, f"cannot be read: {exc.strerror or exc}", False
    if raw.startswith(SIGNATURE):
        entries, problem = _parse(raw, CACHE_FORMAT)
        return entries, problem, True
    if raw.startswith(_FORMAT_1_START):  # an older urlsift's cache: replaced when whole
        entries, problem = _parse(raw, 1)
        if problem is None:
            return entries, None, True
    return {}, _FOREIGN.format("does not start with urlsift's signature"), False


_FOREIGN = "{} (not a urlsift link cache)"


def _parse(raw: bytes, version: int) -> tuple[dict[str, CacheEntry], str | None]:
    # The entries of a file that carries urlsift's signature, and what is wrong with it.
    if len(raw) > MAX_CACHE_BYTES:
        return {}, f"is larger than {MAX_CACHE_BYTES} bytes"
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        return {}, "is nested too deeply to be a link cache"
    except (ValueError, MemoryError) as exc:
        return {}, f"is not JSON ({type(exc).__name__})"
    if not isinstance(data, dict) or data.get("format") != version:
        return {}, f"is not a format-{version} urlsift link cache"
    stored = data.get("entries")
    if not isinstance(stored, dict):
        return {}, "has no entries table"
    entries: dict[str, CacheEntry] = {}
    bad = 0
    for url, value in stored.items():
        entry = CacheEntry.from_json(value)
        if entry is None:
            bad += 1
        else:
            entries[url] = entry
    return entries, (f"has {bad} malformed entr{'y' if bad == 1 else 'ies'}" if bad else None)


def render(entries: Mapping[str, CacheEntry]) -> str:
    """The text of a cache file holding ``entries``: the signature, then sorted JSON."""
    body = json.dumps({url: entries[url].to_json() for url in sorted(entries)}, indent=1)
    return SIGNATURE.decode("ascii") + f' "entries": {body}\n}}\n'


class LinkCache:
    """Successful link checks, loaded from and saved to one JSON file.

    Args:
        path: The cache file; None gives a cache that remembers nothing.
        ttl: Time-to-live of an entry, in seconds.
        now: The current POSIX time (entries checked before ``now - ttl`` are stale).
        notice: Told once, in words, when the file cannot be used (it is then replaced
            when it is urlsift's, else left alone).
    """

    def __init__(
        self,
        path: Path | None,
        *,
        ttl: float,
        now: float,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.ttl = ttl
        self.now = now
        self._entries: dict[str, CacheEntry] = {}
        self._added: dict[str, CacheEntry] = {}
        self.problem: str | None = None
        """What was wrong with the file when it was loaded (None: nothing)."""
        self.writable = path is not None
        """False when the file at ``path`` is not urlsift's: it is never written."""
        if path is not None:
            entries, self.problem, self.writable = _read(path)
            self._entries = {url: entry for url, entry in entries.items() if self._fresh(entry)}
            if self.problem is not None and notice is not None:
                then = (
                    "it is ignored (and replaced where it can be written)"
                    if self.writable
                    else "it is left alone: nothing is written to it and this run keeps no cache"
                )
                notice(f"the link cache {path} {self.problem}; {then}")

    def _fresh(self, entry: CacheEntry) -> bool:
        # An entry from the future (clock moved back) is not trusted either.
        return 0.0 <= self.now - entry.checked < self.ttl

    def get(self, url: str, accept: frozenset[int]) -> CacheEntry | None:
        """The fresh entry for ``url`` whose status is still accepted, or None."""
        entry = self._entries.get(url)
        if entry is None or entry.status not in accept:
            return None
        return entry

    def put(self, url: str, entry: CacheEntry) -> None:
        """Remember a success (the caller stores nothing else)."""
        self._entries[url] = entry
        self._added[url] = entry

    @property
    def entries(self) -> Mapping[str, CacheEntry]:
        """The fresh entries, read-only."""
        return self._entries

    def save(self) -> bool:
        """Write the new entries, merged with the file's fresh ones; never raises OSError.

        Returns:
            True when the file was written (False: nothing new and nothing to repair, no
            path, a file at the path that is not urlsift's, or a write error).
        """
        if self.path is None or not self.writable or not (self._added or self.problem):
            return False
        entries, _problem, ours = _read(self.path)  # again: another run may have written
        if not ours:
            return False  # something else took the path meanwhile: it is not ours to replace
        merged = {url: e for url, e in entries.items() if self._fresh(e)}
        for url, entry in self._added.items():
            old = merged.get(url)
            if old is None or old.checked <= entry.checked:
                merged[url] = entry
        text = render(merged)
        temporary: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent
            )
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, self.path)
        except OSError:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
            return False
        self._added.clear()
        self.problem = None
        return True
