"""Synthetic memories for the perf command: varied texts, realistic vectors, loaded in bulk into SQLite and Chroma."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from ..embed.base import Embedder, unit_rows
from ..store import Store, VectorIndex

_NAMES = ["Ana", "Luis", "Marta", "Tom", "Priya", "Kenji", "Sofía", "Omar", "Lena", "Diego", "Chloé", "Ravi", "Nadia",
          "Pablo", "Grace", "Iker", "Yuki", "Elena", "Sam", "Zoe"]
_PLACES = ["Lisbon", "Sevilla", "Berlin", "Osaka", "Toronto", "the harbour", "the old market", "Valencia", "Nairobi",
           "the library", "Bilbao", "Quito", "the gym", "Porto", "Madrid", "the beach house"]
_FACTS = [
    "{name} moved to {place} in {year}.",
    "My sister {name} works at {place} on {weekday}s.",
    "I paid {amount} euros for a {thing} in {place}.",
    "{name} is allergic to {food} since {year}.",
    "We adopted a {pet} called {name} in {month} {year}.",
    "Mi amigo {name} vive en {place} desde {year}.",
    "El {weekday} compré un {thing} por {amount} euros.",
    "My {relative} {name} turns {age} on {month} {day}.",
    "I run {km} km every {weekday} near {place}.",
    "{name} recommended the {food} restaurant in {place}.",
    "Tengo cita con el médico el {day} de {month_es}.",
    "Our flight to {place} leaves at {hour}:00 on {month} {day}.",
]
_QUESTIONS = [
    "Where does {name} live now?",
    "What did I buy in {place}?",
    "When is {name}'s birthday?",
    "¿Dónde vive {name}?",
    "What is {name} allergic to?",
    "How far do I run on {weekday}s?",
    "When does our flight to {place} leave?",
    "¿Qué compré el {weekday}?",
]
_SLOTS = {
    "year": [str(y) for y in range(1995, 2026)],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "month": ["January", "March", "April", "June", "July", "September", "October", "December"],
    "month_es": ["enero", "marzo", "mayo", "julio", "agosto", "octubre", "noviembre"],
    "thing": ["bicycle", "guitar", "laptop", "sofa", "camera", "kayak", "coat", "lamp"],
    "food": ["peanut", "shellfish", "sushi", "tapas", "ramen", "curry", "gluten"],
    "pet": ["cat", "dog", "parrot", "rabbit", "turtle"],
    "relative": ["brother", "aunt", "grandmother", "cousin", "uncle"],
}
POOL_SIZE = 1000  # texts embedded for real; bulk vectors are drawn around them (embedding 100k would take ~20 min)


def fact_texts(count: int, *, seed: int, start: int = 0) -> list[str]:
    """`count` distinct memory-like sentences; the running number keeps each one unique (no dedupe losses)."""
    rng = random.Random(f"{seed}-{start}")
    return [_fill(rng.choice(_FACTS), rng, serial=start + i) for i in range(count)]


def question_texts(count: int, *, seed: int) -> list[str]:
    rng = random.Random(f"{seed}-questions")
    return [_fill(rng.choice(_QUESTIONS), rng, serial=None) for _ in range(count)]


def _fill(template: str, rng: random.Random, *, serial: int | None) -> str:
    values = {slot: rng.choice(options) for slot, options in _SLOTS.items()}
    values.update(name=rng.choice(_NAMES), place=rng.choice(_PLACES), day=str(rng.randint(1, 28)),
                  hour=str(rng.randint(6, 22)), age=str(rng.randint(5, 90)), km=str(rng.randint(2, 21)))
    # Amounts carry the serial so that no two of 100k texts normalise to the same string.
    values["amount"] = str(serial if serial is not None else rng.randint(5, 900))
    text = template.format(**values)
    return text if serial is None or "{amount}" in template else f"{text[:-1]} (note {serial})."


def mixed_vectors(pool: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """Unit vectors near the real ones: a pool row, part of another, a little noise.

    Pure random unit vectors have no neighbourhood structure (HNSW's worst case); these keep the real
    embedder's anisotropy and local neighbourhoods, which is what an index meets in use.
    """
    primary = pool[rng.integers(len(pool), size=count)]
    secondary = pool[rng.integers(len(pool), size=count)]
    weight = rng.uniform(0.0, 0.6, size=(count, 1)).astype(np.float32)
    noise = rng.standard_normal((count, pool.shape[1]), dtype=np.float32) * (0.25 / np.sqrt(pool.shape[1]))
    return unit_rows(primary + weight * secondary + noise)


@dataclass
class Corpus:
    """A store and index grown in steps, with the same vectors kept in numpy for the exact floor."""

    store: Store
    index: VectorIndex
    pool: np.ndarray
    seed: int = 0
    keys: list[tuple[str, int]] = field(default_factory=list)  # row -> (kind, id), as a retrieve Candidate names it
    _blocks: list[np.ndarray] = field(default_factory=list)
    _matrix: np.ndarray | None = None

    @property
    def size(self) -> int:
        return len(self.keys)

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None or len(self._matrix) != self.size:
            blocks = self._blocks or [np.zeros((0, self.pool.shape[1]), np.float32)]
            self._matrix = np.concatenate(blocks)
            self._blocks = [self._matrix]
        return self._matrix

    def grow(self, target: int, *, chunk: int = 4000, on_chunk=lambda added: None) -> None:
        """Add entries up to `target`: half user sentences (two per message), half memories (two per message)."""
        rng = np.random.default_rng([self.seed, self.size])
        while self.size < target:
            before = self.size
            self._add_chunk(-(-min(chunk, target - self.size) // 4), rng)  # sizes round up to a multiple of 4
            on_chunk(self.size - before)

    def _add_chunk(self, pairs: int, rng: np.random.Generator) -> None:
        """`pairs` messages of two sentences, and two memories sourced from each message."""
        texts = fact_texts(4 * pairs, seed=self.seed, start=self.size)
        sentence_vectors = mixed_vectors(self.pool, 2 * pairs, rng)
        memory_vectors = mixed_vectors(self.pool, 2 * pairs, rng)
        memory_ids = []
        with self.store.transaction():  # one transaction: nested store calls join it
            for p in range(pairs):
                message = self.store.add_message("perf", "user", f"{texts[4 * p]} {texts[4 * p + 1]}",
                                                 "2025-01-01T12:00:00")
                for j in (0, 1):
                    memory_ids.append(self.store.add_memory(
                        texts[4 * p + 2 + j], source_message_ids=[message.id], embedding=memory_vectors[2 * p + j],
                        created_at="2025-01-01T12:00:00"))
            sentences = self.store.sentences(missing_embedding=True)
            self.store.set_sentence_embeddings(list(zip([s.id for s in sentences], sentence_vectors)))
        sentence_ids = [s.id for s in sentences]
        self.index.add("sentences", sentence_ids, sentence_vectors)
        self.index.add("memories", memory_ids, memory_vectors)
        self.keys += [("sentence", i) for i in sentence_ids] + [("memory", i) for i in memory_ids]
        self._blocks += [sentence_vectors, memory_vectors]


def embed_pool(embedder: Embedder, count: int, *, seed: int, batch: int = 64,
               on_batch=lambda n: None) -> tuple[list[str], np.ndarray]:
    """Real embeddings of `count` synthetic memory texts, in batches (the progress bar moves per batch)."""
    texts = fact_texts(count, seed=seed, start=10**7)  # a serial range the bulk never uses
    rows = []
    for start in range(0, count, batch):
        rows.append(embedder.embed_batch(texts[start:start + batch], role="passage"))
        on_batch(len(rows[-1]))
    return texts, np.concatenate(rows).astype(np.float32)
