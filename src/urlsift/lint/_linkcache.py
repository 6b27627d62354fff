"""The on-disk cache of ``--check-links``: links that resolved recently are not asked again.

Strategy: one JSON file, ``{"format": 1, "entries": {url: entry}}``, keyed by the URL as
requested (no fragment); an entry keeps the final status, the redirects and when the check
was made. Only successes are ever stored (an accepted status, perhaps after redirects):
a failure or a timeout is always checked again. An entry is used only while younger than
the time-to-live and while its status is still accepted by the current options. The cache
is an optimisation, never a source of errors: a missing, unreadable or corrupt file reads
as empty, and a file that cannot be written is left alone. Writes are atomic (a temporary
file in the same folder, then ``os.replace``) and merge with whatever another run wrote
meanwhile, newest entry winning.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ._http import Hop

CACHE_FORMAT = 1
"""Version of the file layout; a file with another version is ignored (and replaced)."""


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


def _read(path: Path) -> dict[str, CacheEntry]:
    # Everything that goes wrong here means "no cache".
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}
    raw = data.get("entries")
    if not isinstance(raw, dict):
        return {}
    entries: dict[str, CacheEntry] = {}
    for url, value in raw.items():
        entry = CacheEntry.from_json(value)
        if isinstance(url, str) and entry is not None:
            entries[url] = entry
    return entries


class LinkCache:
    """Successful link checks, loaded from and saved to one JSON file.

    Args:
        path: The cache file; None gives a cache that remembers nothing.
        ttl: Time-to-live of an entry, in seconds.
        now: The current POSIX time (entries checked before ``now - ttl`` are stale).
    """

    def __init__(self, path: Path | None, *, ttl: float, now: float) -> None:
        self.path = path
        self.ttl = ttl
        self.now = now
        self._entries: dict[str, CacheEntry] = {}
        self._added: dict[str, CacheEntry] = {}
        if path is not None:
            self._entries = {url: entry for url, entry in _read(path).items() if self._fresh(entry)}

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
            True when the file was written (False: nothing new, no path, or a write error).
        """
        if self.path is None or not self._added:
            return False
        merged = {url: e for url, e in _read(self.path).items() if self._fresh(e)}
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
        return True
