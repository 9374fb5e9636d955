"""One `gather` per mode: what the Responder will read for this message, decided before any reply is written.

Every mode embeds the message (and its parts) once and searches once; the default LightMem variant decides in
code, the published one asks the model (Controller, Selector) as the published pipeline does.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..embed.base import Embedder
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Memory, Store, TermIndex, VectorIndex
from . import abstain, controller, selector
from .current import current_first
from .evidence import (Evidence, Replacements, in_context, in_date_order, memory_line, newer_values, newest_values,
                       quotes, replacements, said_line)
from .gather_config import GatherConfig
from .retriever import Candidate, is_question, never_evidence, search
from .trace import Step


@dataclass
class Gatherer:
    store: Store
    index: VectorIndex
    embedder: Embedder
    llm: LLM
    prompts: PromptLibrary
    config: GatherConfig
    seed: int = 0
    terms: TermIndex | None = None  # the words of every sentence (kept by the agent: built once, read each turn)

    def none(self, text: str, **_) -> Evidence:
        return Evidence()  # no memory, no routing: every message is answered as it comes

    def rag(self, text: str, *, exclude_message: int | None, **_) -> Evidence:
        """Naive RAG: the k user sentences most similar to the message, verbatim and dated, nothing else."""
        started = time.perf_counter()
        long_memory = self._long_memory()
        vectors = self.embedder.embed_batch([text], role="query")
        found = search(self.store, self.index, vectors, k=self.config.rag_top_k, memories=False,
                       exclude_message=exclude_message, distinctive=long_memory, fill=self.config.rag_top_k)
        hits = self._floor(found, long_memory)
        step = Step("Retriever", _ms(started), f"{len(hits)} verbatim sentences{_ranked_apart(long_memory)}",
                    parsed=_listing(hits))
        if self.config.rag_date_order:
            hits = in_date_order(hits)
        # Naive: no routing, every message answered from its sentences.
        words_in = abstain.language(text) if self.config.rag_dates_in_words else None
        return Evidence([said_line(c, compact=self.config.compact_lines, words_in=words_in,
                                   speaker=self.config.rag_speakers) for c in hits], hits,
                        steps=[step], prompt=self.config.rag_prompt)

    def lightmem(self, text: str, *, today: str, exclude_message: int | None, touch_at: str | None) -> Evidence:
        """Default variant: the Controller and Selector decide in code; one model call is left, the Responder's."""
        started = time.perf_counter()
        decided = controller.plan(text)
        steps = [Step("Controller", _ms(started), decided.describe(), parsed={"queries": decided.queries})]
        t0 = time.perf_counter()
        long_memory = self._long_memory()
        vectors = self.embedder.embed_batch(decided.queries, role="query")
        found = search(self.store, self.index, vectors, k=self.config.top_k, exclude_message=exclude_message,
                       touch_at=touch_at, small_talk=not self.config.skip_small_talk,
                       fetch=4 * self.config.top_k if self.config.skip_small_talk else None,
                       distinctive=self.config.distinctive or long_memory, fill=self.config.rag_top_k)
        floor = self._floor(found, long_memory)
        set_apart = self._set_apart(found, long_memory)
        by_words = self._by_words(text, found, vectors[0], [*floor, *set_apart], exclude_message) if long_memory else []
        steps.append(Step("Retriever", _ms(t0), f"{len(found.candidates)} candidates for {len(decided.queries)} queries"
                          f"{_ranked_apart(long_memory)}{_worded(by_words)}",
                          parsed=_listing(found.candidates + [c for c in by_words if c not in found.candidates])))
        t0 = time.perf_counter()
        sentences, facts, memories = self._choose(found, floor, set_apart + by_words)
        if self.config.entries_as_said:
            sentences += self._quoted([(c.record, c.score) for c in memories], sentences)
            memories = []
        changes = replacements(self.store, sentences, facts)
        # A durable fact is shown as plain text, with no mark: one whose value changed later is left out, and the
        # sentence saying the newer value shown instead (in the app, "The user works in the hospital of
        # Txagorritxu", promoted by a Dream, still answered "Where do I work?" after the new job)
        changes.successors.update({c.key: [changes.stale[c.id]] for c in facts if c.id in changes.stale})
        facts = [c for c in facts if c.id not in changes.stale]
        older: dict[str, str] = {}
        if decided.current and self.config.replaced_now is not None:
            older = newer_values(self.store, sentences, min_similarity=self.config.replaced_now)
        if decided.current or (self.config.replaced_unless_past and decided.question and not decided.past):
            older.update((key, "") for key in changes.successors)  # its successor is shown instead
        sentences = [c for c in sentences if c.key not in older]
        relatives = []
        if self.config.relatives_out and decided.question and controller.about_the_person(text):
            relatives = [c for c in sentences if controller.about_a_relative(c.text)]
            sentences = [c for c in sentences if c not in relatives]
        if self.config.extra_share is not None:  # what memory knows of the lines kept comes on top
            sentences = self._within_share(floor, sentences, first=[c.key for c in set_apart + by_words])
        # The newer value is shown as the person said it, a dated sentence like the rest: shown as an entry with its
        # quote, the 0.5B model copied the whole entry line into an answer about something else (in the app).
        newer = self._successors(changes, found.candidates, sentences)
        sentences += newer
        known = abstain.relations(text, lambda: told(self.store)) if decided.question else None
        marks = changes.marks
        if self.config.name_newest and decided.personal and known is None:  # "my sister" is not the person
            successors = {e.id: e for group in changes.successors.values() for e in group}
            marks = {**newest_values(list(successors.values()), sentences), **marks}
        if self.config.newest_wins is not None:
            marks = {**newer_values(self.store, sentences, min_similarity=self.config.newest_wins), **marks}
        if self.config.message_chars:
            sentences = in_context(self.store, sentences, max_chars=self.config.message_chars)
        shown = in_date_order(memories + sentences)
        about_time = self.config.resolve_dates and decided.temporal
        words_in = abstain.language(text) if about_time else None  # the reply's language: it copies the dates
        lines = [said_line(c, marks.get(c.key, ""), compact=self.config.compact_lines, words_in=words_in,
                           resolve_dates=about_time, speaker=self.config.speakers)
                 if c.kind == "sentence" else memory_line(c, with_sources=True, words_in=words_in) for c in shown]
        marked = sum(1 for c in sentences if c.key in marks)
        unsaid = f"; never mentioned: {', '.join(known.unsaid)}" if known and known.unsaid else ""
        distinct = {c.key for c in set_apart} - {c.key for c in floor}
        apart = sum(1 for c in sentences if c.key in distinct)
        worded = sum(1 for c in sentences if c in by_words)
        steps.append(Step("Selector", _ms(t0),
                          f"kept {len(sentences)} sentences, {len(memories)} entries, {len(facts)} durable facts; "
                          f"{marked} marked current/replaced{_apart(apart)}{_words_kept(worded)}{_left_out(older)}"
                          f"{_newer_shown(newer)}{_relatives(relatives)}{unsaid} "
                          "(decided in code)",
                          parsed=[c.key for c in shown]))
        about_them = decided.personal or (known is not None and known.about_someone_known(text))
        evidence = Evidence(lines, shown, facts=[c.text for c in facts], steps=steps, question=decided.question,
                            may_abstain=about_them, relations=known, prompt=self.config.lightmem_prompt,
                            follow_up=decided.follow_up or not self.config.standalone_without_recent,
                            parts=decided.queries[1:] if self.config.name_the_parts else [])
        if decided.question and self.config.current is not None:
            evidence = current_first(evidence, self.store, vectors[0], about_time=decided.temporal,
                                     about_the_past=decided.past, settings=self.config.current)
        return evidence

    def _within_share(self, floor: list[Candidate], sentences: list[Candidate], first: list[str] = ()) -> list[Candidate]:
        """The floor's sentences still shown, and the others while every line fits in the floor's tokens plus
        `extra_share` of them — those keyed in `first` in its order, then best score first; in their order."""
        cost = {c.key: self._cost(c) for c in [*floor, *sentences]}
        in_floor = {c.key for c in floor}
        budget = (1 + self.config.extra_share) * sum(cost[c.key] for c in floor)
        kept = {c.key for c in sentences if c.key in in_floor}
        spent = sum(cost[key] for key in kept)
        rank = {key: i for i, key in enumerate(first)}
        for c in sorted((c for c in sentences if c.key not in in_floor),
                        key=lambda c: (rank.get(c.key, len(rank)), -c.score)):
            if spent + cost[c.key] <= budget:
                kept.add(c.key)
                spent += cost[c.key]
        return [c for c in sentences if c.key in kept]

    def _successors(self, changes: Replacements, candidates: list[Candidate], shown: list[Candidate]) -> list[Candidate]:
        """The sentences stating the newer value of a shown (or left out) sentence, each once and not when shown
        already; each takes the score of the best sentence it replaces."""
        score = {c.key: c.score for c in candidates}
        entries: dict[int, tuple[Memory, float]] = {}
        for key, newer in changes.successors.items():
            for entry in newer:
                entries[entry.id] = (entry, max(score.get(key, 0.0), entries.get(entry.id, (entry, 0.0))[1]))
        return self._quoted(list(entries.values()), shown)

    def _quoted(self, entries: list[tuple[Memory, float]], shown: list[Candidate]) -> list[Candidate]:
        """The sentences that state each entry (what its line would quote), each once, not when shown already, at the
        best score of the entries that quote it. A question or small talk is never evidence, quoted or found: in
        LoCoMo a message's opening "Gina: Thanks, Jon!" shares the speaker's name with an entry about her, and 81
        such lines (17 questions) reached E's prompts for conv-26's and conv-30's 200 questions."""
        message_ids = {s.message_id for entry, _ in entries for s in entry.sources}
        shown_ids = {c.id for c in shown if c.kind == "sentence"}
        small_talk = not self.config.skip_small_talk
        out: dict[int, Candidate] = {}
        for sentence in self.store.sentences(message_ids=message_ids):
            if never_evidence(sentence.text, small_talk=small_talk):
                continue
            for entry, best in entries:
                if sentence.id not in shown_ids and quotes(entry, sentence):
                    out[sentence.id] = Candidate(sentence, max(best, out[sentence.id].score if sentence.id in out else 0.0))
        return list(out.values())

    def _by_words(self, text: str, found, vector, shown: list[Candidate], exclude_message: int | None
                  ) -> list[Candidate]:
        """The first `lexical_k` usable sentences the word index ranks highest for the message and `shown` lacks;
        one the cosine search also found keeps its candidate, another is scored by cosine like the rest."""
        k = self.config.lexical_k
        if not k or self.terms is None:
            return []
        ids = [i for i, _ in self.terms.search(self.store, text, 4 * k + len(shown))]
        found_by_key = {c.key: c for c in found.candidates}
        stored = {s.id: s for s in self.store.sentences(ids=ids)}  # a deleted sentence is no longer there
        vectors = self.store.sentence_vectors(ids)
        shown_keys = {c.key for c in shown}
        out: list[Candidate] = []
        for i in ids:
            sentence = stored.get(i)
            if (sentence is None or sentence.message_id == exclude_message or f"s{i}" in shown_keys
                    or never_evidence(sentence.text, small_talk=not self.config.skip_small_talk)):
                continue
            out.append(found_by_key.get(f"s{i}") or Candidate(sentence, _cosine(vector, vectors.get(i))))
            if len(out) == k:
                break
        return out

    def _choose(self, found, floor: list[Candidate], set_apart: list[Candidate]
                ) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
        """Naive RAG's sentences as a floor, each part's best sentences, what the distinctive search adds, and the
        entries close enough to matter."""
        cfg = self.config
        sentences = list(floor)
        for part in range(1, len(found.by_query)):
            sentences += [c for c in found.top_sentences(part, cfg.part_k) if c not in sentences]
        sentences += [c for c in set_apart if c not in sentences]
        # An entry whose message is already shown verbatim adds tokens, not knowledge (its marks come from it).
        shown_messages = {s.sources[0].message_id for s in sentences}
        entries = [c for c in found.candidates if c.kind == "memory"]

        def bears_on_question(fact: Candidate) -> bool:  # close enough, and not all of it already shown verbatim
            repeated = bool(fact.sources) and all(s.message_id in shown_messages for s in fact.sources)
            return not cfg.facts_min_score or (fact.score >= cfg.facts_min_score and not repeated)

        facts = [c for c in entries if c.tier == "ltm" and bears_on_question(c)][: cfg.facts_shown]
        memories = [c for c in entries if c.tier != "ltm" and c.score >= cfg.memory_min_score
                    and not any(s.message_id in shown_messages for s in c.sources)]
        memories = _one_per_message(memories)[: cfg.memories_shown]
        if cfg.within_rag_budget:
            budget = sum(self._cost(c) for c in floor)  # what naive RAG's own lines take
            kept = set(map(id, self._best_within(sentences + memories + facts, budget)))
            sentences, memories, facts = ([c for c in group if id(c) in kept] for group in (sentences, memories, facts))
        if len(sentences) + len(memories) < cfg.min_keep:
            extra = [c for c in found.candidates if c.kind == "sentence" and c not in sentences]
            sentences += extra[: cfg.min_keep - len(sentences) - len(memories)]
        return sentences, facts, memories

    def _long_memory(self) -> bool:
        """Whether memory holds enough sentences for naive RAG's lines to come from the distinctive search."""
        start = self.config.distinctive_from
        return start is not None and (start == 0 or self.index.held("sentences") >= start)

    def _set_apart(self, found, long_memory: bool) -> list[Candidate]:
        """What the distinctive search offers LightMem beyond naive RAG's lines: its first `distinctive_k`; with
        `distinctive_after_floor`, in a long memory whose floor is that search's first k, the `distinctive_k` after."""
        after = self.config.rag_top_k if long_memory and self.config.distinctive_after_floor else 0
        return found.distinctive(0, after + self.config.distinctive_k)[after:]

    def _floor(self, found, long_memory: bool) -> list[Candidate]:
        """Naive RAG's sentences, which LightMem always shows too: plain cosine's k, or the distinctive search's."""
        k = self.config.rag_top_k
        return found.distinctive(0, k) if long_memory else found.top_sentences(0, k)

    def _best_within(self, chosen: list[Candidate], budget: int) -> list[Candidate]:
        """Best score first, each that still fits in `budget` tokens (at least `min_keep`, whatever they cost)."""
        kept, spent = [], 0
        for c in sorted(chosen, key=lambda c: -c.score):
            cost = self._cost(c)
            if spent + cost <= budget or len(kept) < self.config.min_keep:
                kept.append(c)
                spent += cost
        return kept

    def _cost(self, c: Candidate) -> int:
        """Tokens of the line `c` becomes (a durable fact is its text)."""
        if c.kind == "sentence":
            line = said_line(c, compact=self.config.compact_lines, speaker=self.config.speakers)
        else:
            line = c.text if c.tier == "ltm" else memory_line(c, with_sources=True)
        return self.llm.count_tokens(line)

    def published(self, text: str, *, today: str, exclude_message: int | None, touch_at: str | None) -> Evidence:
        """The published pipeline: a model Controller, a model Selector, memory texts without their sources."""
        decision = controller.decide(self.llm, self.prompts, text, today=today, seed=self.seed)
        steps = [Step.from_structured("Controller", decision, controller.describe(decision.value))]
        t0 = time.perf_counter()
        queries = [q for q in dict.fromkeys(q.strip() for q in [text, *decision.value.queries]) if q]
        vectors = self.embedder.embed_batch(queries, role="query")
        candidates = search(self.store, self.index, vectors, k=self.config.top_k, fetch=self.config.top_k,
                            sentences=False, touch_at=touch_at,
                            exclude_message=exclude_message).candidates[: 2 * self.config.top_k]
        steps.append(Step("Retriever", _ms(t0), f"{len(candidates)} candidates", parsed=_listing(candidates)))
        kept, selection = selector.select(self.llm, self.prompts, text, candidates, today=today,
                                          min_keep=self.config.min_keep, seed=self.seed)
        if selection is None:
            steps.append(Step("Selector", 0.0, f"kept all {len(kept)} (nothing to choose)", parsed=[c.key for c in kept]))
        else:
            steps.append(Step.from_structured("Selector", selection, f"kept {len(kept)} of {len(candidates)}"))
        facts = [m.text for m in self.store.memories(tier="ltm")][: self.config.max_facts]
        return Evidence([memory_line(c, with_sources=False) for c in kept], kept, facts=facts, steps=steps,
                        prompt="responder")


def _one_per_message(entries: list[Candidate]) -> list[Candidate]:
    """Best first, an entry only when it quotes a message no better entry quotes: two entries of one remark would
    show the same sentence twice."""
    seen: set[int] = set()
    out = []
    for c in entries:
        messages = {s.message_id for s in c.sources}
        if not messages or messages - seen:
            out.append(c)
            seen |= messages
    return out


def _apart(n: int) -> str:
    return (f"; {n} found only once what every sentence shares was taken out of the question" if n else "")


def _worded(found: list[Candidate]) -> str:
    return f"; {len(found)} more found by the question's rarest words" if found else ""


def _words_kept(n: int) -> str:
    return f"; {n} found only by the question's rarest words" if n else ""


def _cosine(a, b) -> float:
    if b is None:  # not embedded yet
        return 0.0
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    return float(a @ b / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12))


def _ranked_apart(long_memory: bool) -> str:
    return "; naive RAG's ranked less what every sentence shares (a long memory)" if long_memory else ""


def _newer_shown(newer: list[Candidate]) -> str:
    return f"; shown {len(newer)} newer value{'s' if len(newer) != 1 else ''} memory knows" if newer else ""


def _relatives(relatives: list[Candidate]) -> str:
    n = len(relatives)
    return f"; left out {n} line{'s' if n != 1 else ''} about a relative or pet, the question being about you" if n else ""


def _left_out(older: dict[str, str]) -> str:
    return f"; left out {len(older)} older value{'s' if len(older) != 1 else ''} a newer line replaced" if older else ""


def _listing(candidates: list[Candidate]) -> list[dict]:
    return [{"key": c.key, "score": round(c.score, 3), "date": c.date, "text": c.text} for c in candidates]


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)


def told(store: Store) -> list[str]:
    """Everything the person told, one text per message (questions left out), and every entry memory holds
    (one they typed into "memory about you" was never a message)."""
    by_message: dict[int, list[str]] = {}
    for s in store.sentences():
        if not is_question(s.text):
            by_message.setdefault(s.message_id, []).append(s.text)
    return [" ".join(texts) for texts in by_message.values()] + [m.text for m in store.memories()]
