"""The on-disk cache of ``--check-links``: links that resolved recently are not asked again.

Strategy: one JSON file, ``{"format": 1, "entries": {url: entry}}``, keyed by the URL as
requested (no fragment); an entry keeps the final status, the redirects and when the check
was made. Only successes are ever stored (an accepted status, perhaps after redirects):
a failure or a timeout is always checked again. An entry is used only while younger than
the time-to-live and while its status is still accepted by the current options. The cache
is an optimisation, never a source of errors: a missing file reads as empty; a file that
cannot be read or is corrupt in any way (truncated, not JSON, not UTF-8, nested past the
parser's depth, larger than :data:`MAX_CACHE_BYTES`, another layout, entries of the wrong
shape) is ignored, said so once through the ``notice`` callback, and replaced on save; a
file that cannot be written is left alone. Writes are atomic (a temporary file in the same
folder, then ``os.replace``) and merge with whatever another run wrote meanwhile, newest
entry winning. Keys never carry a password (the caller redacts them).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ._http import Hop

CACHE_FORMAT = 1
"""Version of the file layout; a file with another version is ignored (and replaced)."""

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


def _read(path: Path) -> tuple[dict[str, CacheEntry], str | None]:
    # The fresh and stale entries, and what is wrong with the file (None: nothing, or
    # no file). Whatever goes wrong here means "no cache", never an exception.
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_CACHE_BYTES + 1)
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"cannot be read: {exc.strerror or exc}"
    if len(raw) > MAX_CACHE_BYTES:
        return {}, f"is larger than {MAX_CACHE_BYTES} bytes"
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        return {}, "is nested too deeply to be a link cache"
    except (ValueError, MemoryError) as exc:
        return {}, f"is not JSON ({type(exc).__name__})"
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}, f"is not a format-{CACHE_FORMAT} urlsift link cache"
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


class LinkCache:
    """Successful link checks, loaded from and saved to one JSON file.

    Args:
        path: The cache file; None gives a cache that remembers nothing.
        ttl: Time-to-live of an entry, in seconds.
        now: The current POSIX time (entries checked before ``now - ttl`` are stale).
        notice: Told once, in words, when the file cannot be used (it is then replaced).
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
        if path is not None:
            entries, self.problem = _read(path)
            self._entries = {url: entry for url, entry in entries.items() if self._fresh(entry)}
            if self.problem is not None and notice is not None:
                notice(
                    f"the link cache {path} {self.problem}; "
                    "it is ignored (and replaced where it can be written)"
                )

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
            path, or a write error).
        """
        if self.path is None or not (self._added or self.problem):
            return False
        merged = {url: e for url, e in _read(self.path)[0].items() if self._fresh(e)}
        for url, entry in self._added.items():
            old = merged.get(url)
            if old is None or old.checked <= entry.checked:
                merged[url] = entry
        document = {
            "format": CACHE_FORMAT,
            "entries": {url: merged[url].to_json() for url in sorted(merged)},
        }
        text = json.dumps(document, indent=1, sort_keys=True) + "\n"
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
