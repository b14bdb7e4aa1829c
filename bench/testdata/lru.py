"""A least-recently-used cache with per-entry expiry and hit statistics."""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Optional, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class Stats:
    """Counters a cache keeps about its lookups."""

    hits: int = 0
    misses: int = 0
    evictions: int = 0
    expirations: int = 0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        if total == 0:
            return 0.0
        return self.hits / total


@dataclass
class _Entry(Generic[V]):
    value: V
    expires_at: Optional[float] = None


@dataclass
class LRUCache(Generic[K, V]):
    """Holds at most `capacity` entries, evicting the least recently used."""

    capacity: int
    ttl: Optional[float] = None
    clock: Callable[[], float] = time.monotonic
    stats: Stats = field(default_factory=Stats)
    _items: "OrderedDict[K, _Entry[V]]" = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        if self.capacity <= 0:
            raise ValueError(f"capacity must be positive, got {self.capacity}")
        if self.ttl is not None and self.ttl <= 0:
            raise ValueError(f"ttl must be positive, got {self.ttl}")

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: K) -> bool:
        entry = self._items.get(key)
        return entry is not None and not self._expired(entry)

    def get(self, key: K, default: Optional[V] = None) -> Optional[V]:
        entry = self._items.get(key)
        if entry is None:
            self.stats.misses += 1
            return default
        if self._expired(entry):
            del self._items[key]
            self.stats.expirations += 1
            self.stats.misses += 1
            return default
        self._items.move_to_end(key)
        self.stats.hits += 1
        return entry.value

    def put(self, key: K, value: V) -> None:
        expires_at = None
        if self.ttl is not None:
            expires_at = self.clock() + self.ttl
        if key in self._items:
            self._items.move_to_end(key)
        self._items[key] = _Entry(value, expires_at)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
            self.stats.evictions += 1

    def pop(self, key: K, default: Optional[V] = None) -> Optional[V]:
        entry = self._items.pop(key, None)
        if entry is None or self._expired(entry):
            return default
        return entry.value

    def clear(self) -> None:
        self._items.clear()

    def purge_expired(self) -> int:
        """Drops every expired entry and returns how many there were."""
        now = self.clock()
        stale = [k for k, e in self._items.items() if e.expires_at is not None and e.expires_at <= now]
        for key in stale:
            del self._items[key]
        self.stats.expirations += len(stale)
        return len(stale)

    def _expired(self, entry: _Entry[V]) -> bool:
        return entry.expires_at is not None and entry.expires_at <= self.clock()


def memoize(capacity: int = 128, ttl: Optional[float] = None):
    """Decorates a function of hashable arguments with an LRUCache."""

    def decorate(fn):
        cache: LRUCache = LRUCache(capacity=capacity, ttl=ttl)

        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            sentinel = object()
            value = cache.get(key, sentinel)
            if value is sentinel:
                value = fn(*args, **kwargs)
                cache.put(key, value)
            return value

        wrapper.cache = cache
        wrapper.__name__ = fn.__name__
        wrapper.__doc__ = fn.__doc__
        return wrapper

    return decorate


if __name__ == "__main__":
    @memoize(capacity=64)
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    print(fib(80), fib.cache.stats.hit_rate)
