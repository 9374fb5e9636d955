"""One `gather` per mode: what the Responder will read for this message, decided before any reply is written.

Every mode embeds the message (and its parts) once and searches once; the default LightMem variant decides in
code, the published one asks the model (Controller, Selector) as the published pipeline does.
"""
from __future__ import annotations

import datetime as dt
import time
from dataclasses import asdict, dataclass, replace
from typing import Callable, Iterable

import numpy as np

from ..embed.base import Embedder
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Memory, Store, TermIndex, VectorIndex
from . import abstain, controller, dates, elapsed, replies, selector
from .evidence import (Asked, Evidence, Replacements, adds_to, asked_now, clauses, happened_on, in_date_order,
                       learned_from, memory_line, newer_values, quotes, replacements, said_line,
                       stating_asked, still_said, told_when)
from .gather_config import GatherConfig
from .gather_steps import Chosen, Found, listing, ranked_apart
from .plan import Plan
from .retriever import Candidate, Search, never_evidence, search
from .trace import Step

PART_K = 3  # LightMem: the best sentences of each part of a compound question, beyond the whole question's
FACTS_SHOWN = 5  # LightMem: durable facts among the best hits, at most
PUBLISHED_FACTS = 40  # the published variant: every durable fact, as published

Told = Callable[[], Iterable[str]]  # everything the person told, read only when a question needs it


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

    def none(self, plan: Plan, **_) -> Evidence:
        return Evidence()  # no memory, no routing: every message is answered as it comes

    def rag(self, plan: Plan, *, exclude_message: int | None, **_) -> Evidence:
        """Naive RAG: the k user sentences most similar to the message, verbatim and dated, nothing else; no
        routing, every message is answered from its sentences."""
        started = time.perf_counter()
        long_memory = self._long_memory()
        vectors = self.embedder.embed_batch([plan.text], role="query")
        found = search(self.store, self.index, vectors, k=self.config.rag_top_k, memories=False,
                       exclude_message=exclude_message, distinctive=long_memory, fill=self.config.rag_top_k)
        hits = self._floor(found, long_memory)
        step = Step("Retriever", _ms(started), f"{len(hits)} verbatim sentences{ranked_apart(long_memory)}",
                    parsed=listing(hits))
        hits = in_date_order(hits)  # oldest first: the last line about a thing is its newest value
        return Evidence([said_line(c, compact=True) for c in hits], hits, steps=[step])

    def lightmem(self, plan: Plan, *, today: str, exclude_message: int | None, touch_at: str | None, told: Told,
                 **_) -> Evidence:
        """Default variant: the Controller and Selector decide in code; one model call is left, the Responder's."""
        route = plan.route
        steps = [Step("Controller", plan.decided_ms, route.describe(), parsed=asdict(route))]
        t0 = time.perf_counter()
        found = self._search(plan, exclude_message, touch_at)
        steps.append(found.step(_ms(t0), len(route.queries)))
        t0 = time.perf_counter()
        chosen = self._chosen(plan, found)
        known = abstain.relations(plan.text, told) if route.question else None
        shown = in_date_order(chosen.sentences)
        decided = chosen.decided(found, known, shown)
        steps.append(Step("Selector", _ms(t0), chosen.describe(decided), parsed=decided))
        told = told_when(self.store, shown, plan.language) if route.temporal else {}
        lines = self._lines(plan, shown, chosen.marks, told)
        count = self._counted(plan, today, shown, told) if route.question else None
        current = chosen.current
        if count:  # the count code made is read first
            current = [count.line, *current]
            steps.append(Step("Elapsed", 0.0, f"counted in code: {count.line}",
                              parsed={"start": count.start.isoformat(), "end": count.end.isoformat(),
                                      "count": count.count}))
        if route.question:  # asked what the assistant itself said: its earlier replies come first
            said = replies.if_asked(self.store, self.embedder, plan.text,
                                    words_in=plan.language if route.temporal else None)
            lines, shown, steps = said.lines + lines, said.shown + shown, steps + ([said.step] if said.step else [])
        about_them = route.personal or (known is not None and known.about_someone_known(plan.text))
        # In a language no module knows, code reads memory's entries instead: one read gives both
        entries = self.store.memories() if route.question and plan.language is None else []
        newest, before = (stating_asked(self.store, found.question, shown) if route.question and plan.language is None
                          else ((), ()))
        return Evidence(lines, shown, facts=chosen.facts, current=current,
                        steps=steps, question=route.question, may_abstain=about_them, relations=known,
                        follow_up=route.follow_up, replaced=chosen.replaced, superseded=chosen.superseded,
                        own_names=tuple(sorted(abstain.own_names(m.text for m in entries))),
                        learned=learned_from(self.store, entries, shown),
                        values_now=chosen.asked.now, values_before=chosen.asked.before,
                        values_said=chosen.asked.said, told=told, counted=count, stating_asked=newest,
                        stated_before=before)

    def published(self, plan: Plan, *, today: str, exclude_message: int | None, touch_at: str | None,
                  **_) -> Evidence:
        """The published pipeline: a model Controller, a model Selector, memory texts without their sources."""
        text = plan.text
        decision = controller.decide(self.llm, self.prompts, text, today=today, seed=self.seed)
        steps = [Step.from_structured("Controller", decision, controller.describe(decision.value))]
        t0 = time.perf_counter()
        queries = [q for q in dict.fromkeys(q.strip() for q in [text, *decision.value.queries]) if q]
        vectors = self.embedder.embed_batch(queries, role="query")
        candidates = search(self.store, self.index, vectors, k=self.config.top_k, fetch=self.config.top_k,
                            sentences=False, touch_at=touch_at,
                            exclude_message=exclude_message).candidates[: 2 * self.config.top_k]
        steps.append(Step("Retriever", _ms(t0), f"{len(candidates)} candidates", parsed=listing(candidates)))
        kept, selection = selector.select(self.llm, self.prompts, text, candidates, today=today,
                                          min_keep=self.config.min_keep, seed=self.seed)
        if selection is None:
            steps.append(Step("Selector", 0.0, f"kept all {len(kept)} (nothing to choose)",
                              parsed={"kept": [c.key for c in kept]}))
        else:
            steps.append(Step.from_structured("Selector", selection, f"kept {len(kept)} of {len(candidates)}"))
        facts = [Candidate(m, 0.0) for m in self.store.memories(tier="ltm")][:PUBLISHED_FACTS]
        return Evidence([memory_line(c, with_sources=False) for c in kept], kept, facts=facts, steps=steps)

    # -- LightMem, step by step ----------------------------------------------------------------------
    def _search(self, plan: Plan, exclude_message: int | None, touch_at: str | None) -> Found:
        """Every query searched once by cosine and once less the mean sentence; in a long memory, the word index
        too. A sentence of greetings, thanks or names ("Caroline: Wow, Mel!") is never evidence, so the search
        fetches 4k per query for k to remain."""
        long_memory = self._long_memory()
        vectors = self.embedder.embed_batch(plan.route.queries, role="query")
        k = self.config.top_k
        found = search(self.store, self.index, vectors, k=k, exclude_message=exclude_message, touch_at=touch_at,
                       small_talk=False, fetch=4 * k, distinctive=True, fill=self.config.rag_top_k)
        floor = self._floor(found, long_memory)
        set_apart = found.distinctive(0, self.config.distinctive_k)
        by_words = (self._by_words(plan.text, found, vectors[0], [*floor, *set_apart], exclude_message)
                    if long_memory else [])
        return Found(found, floor, set_apart, by_words, long_memory, vectors[0])

    def _chosen(self, plan: Plan, found: Found) -> Chosen:
        """Naive RAG's sentences and what LightMem adds, less what memory knows was replaced or is not about the
        one asked after, within the share of tokens LightMem may add, and the newer values after them."""
        sentences, facts, entries = self._choose(found.search, found.floor, found.set_apart + found.by_words)
        # An entry is shown as the sentences it quotes, verbatim and dated like the rest, not in the Writer's words.
        sentences += self._quoted([(c.record, c.score) for c in entries], sentences)
        changes = replacements(self.store, sentences, facts, found.question)
        # A durable fact whose value changed later is left out, and the sentence saying the newer value shown instead.
        changes.successors.update({c.key: [changes.stale[c.id]] for c in facts if c.id in changes.stale})
        stale = [c for c in facts if c.id in changes.stale]
        facts = [c for c in facts if c.id not in changes.stale]
        older = self._older(plan, sentences, changes)
        replaced = [c.text for c in sentences if c.key in older]
        # For the API: what is no longer current, left out or still shown marked
        superseded = [(c, tuple(sorted({e.id for e in changes.successors.get(c.key, [])})))
                      for c in stale + [c for c in sentences if c.key in older or c.key in changes.marks]]
        # A question about now reads no sentence a newer line replaced, not even in part: which part was replaced is
        # read from nearness, and a part left shown could hold the old value asked after. Any other question ("What's
        # my dog called?") reads what such a sentence still says.
        parts = {} if plan.route.current else self._still_said([c for c in sentences if c.key in older], older,
                                                                found.question)
        sentences = [parts.get(c.key, c) for c in sentences if c.key not in older or c.key in parts]
        relatives = []
        if plan.question and plan.about_the_person:  # "my sister" is not the person
            relatives = [c for c in sentences if controller.about_a_relative(c.text)]
            sentences = [c for c in sentences if c not in relatives]
        if self.config.extra_share is not None:  # what memory knows of the lines kept comes on top
            sentences = self._within_share(found.floor, sentences,
                                           first=[c.key for c in found.set_apart + found.by_words])
        # The newer value is shown as the person said it, a dated sentence like the rest.
        newer = self._successors(changes, found.search.candidates, sentences)
        asked = Asked()
        if plan.route.question and not plan.route.past:  # memory's own current value of what is asked, first
            asked = asked_now(self.store, found.question, people=plan.people)
        # Only the kind a question asks after has rows of its own. A newer value of another kind is shown as its dated
        # sentence: as a row put first, a small model read it as the answer to whatever was asked.
        current = list(asked.lines)
        marks = {key: mark for key, mark in changes.marks.items() if key not in parts}  # what is left was not replaced
        return Chosen(sentences + newer, facts, marks, older, relatives, newer, replaced, current, superseded, asked)

    def _older(self, plan: Plan, sentences: list[Candidate], changes: Replacements) -> dict[str, list[str]]:
        """The sentences a newer one replaced, left out, each with what replaced it: for a question about now, an older
        sentence a newer one on the same subject contradicts; for one not about an earlier time, such a sentence that
        said it told what held then ("now", "currently"); for any question not about the past, one whose value memory
        knows changed (replaced by its successors' entries)."""
        route = plan.route
        newer: dict[str, Candidate] = {}
        if route.current and self.config.replaced_now is not None:
            newer = newer_values(self.store, sentences, min_similarity=self.config.replaced_now)
        elif route.question and not route.earlier and self.config.replaced_now is not None:
            # not asked about an earlier time: what a sentence said held "now" holds until a newer one says otherwise
            newer = newer_values(self.store, sentences, min_similarity=self.config.replaced_now,
                                 said_as_of_saying=True)
        older = {key: [c.text] for key, c in newer.items()}
        if route.current or (route.question and not route.past):  # its successor is shown instead
            for key, entries in changes.successors.items():
                older.setdefault(key, []).extend(e.text for e in entries)
        return older

    def _still_said(self, older: list[Candidate], replaced_by: dict[str, list[str]],
                    question: np.ndarray | None) -> dict[str, Candidate]:
        """Of sentences a newer line replaced, what each still says, shown with the replaced part elided: "I have a
        dog called Pepper, and I drive an old Ford Fiesta." keeps the dog for "What's my dog called?" once the Fiesta
        was traded in. By clause, as its punctuation marks them (`evidence.still_said`); shown only when the question
        is nearer what is left than the whole sentence (what is left is what it asks after): "I'm Dana, …" is no line
        for "What car do I drive?", and a small model answered it "You're Dana"."""
        if question is None:
            return {}
        split = {c.key: said for c in older if len(said := clauses(c.text)) > 1 and replaced_by.get(c.key)}
        if not split:
            return {}
        texts = list(dict.fromkeys([t for c in older if c.key in split for t in [c.text, *split[c.key]]]
                                   + [t for key in split for t in replaced_by[key]]))
        vectors = dict(zip(texts, self.embedder.embed_batch(texts, role="passage")))
        parts = {c.key: part for c in older if c.key in split
                 if (part := still_said(c.text, np.stack([vectors[p] for p in split[c.key]]), vectors[c.text],
                                        np.stack([vectors[t] for t in replaced_by[c.key]])))}
        if not parts:
            return {}
        vectors |= dict(zip(parts.values(), self.embedder.embed_batch(list(parts.values()), role="passage")))
        kept = {}
        for c in older:
            if c.key in parts and _nearer(question, vectors[parts[c.key]], vectors[c.text]):
                kept[c.key] = Candidate(replace(c.record, text=parts[c.key]), c.score)
        return kept

    def _counted(self, plan: Plan, today: str, shown: list[Candidate],
                 told: dict[str, dates.Happened]) -> elapsed.Counted | None:
        """How long between the things the question asks after, or since one, counted from the lines' days."""
        if elapsed.asked_unit(plan.text, plan.language) is None:
            return None
        dated = [(c.text, happened.day if (happened := happened_on(c, plan.language, told))
                  else dt.date.fromisoformat(c.date[:10])) for c in shown]
        return elapsed.counted(plan.text, today, dated, plan.language)

    def _lines(self, plan: Plan, shown: list[Candidate], marks: dict[str, str],
               told: dict[str, dates.Happened]) -> list[str]:
        """Each sentence dated; for a question about time, the date in words in the question's language (the reply
        copies it), "yesterday" counted from it, and a sentence code cannot read at the day its entry tells."""
        about_time = plan.route.temporal
        words_in = plan.language if about_time else None
        return [said_line(c, marks.get(c.key, ""), compact=True, words_in=words_in, resolve_dates=about_time,
                          told=told.get(c.key)) for c in shown]

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
        best score of the entries that quote it. A question or small talk is never evidence, quoted or found: a
        message's opening "Gina: Thanks, Jon!" shares the speaker's name with every entry about her."""
        message_ids = {s.message_id for entry, _ in entries for s in entry.sources}
        shown_ids = {c.id for c in shown if c.kind == "sentence"}
        out: dict[int, Candidate] = {}
        for sentence in self.store.sentences(message_ids=message_ids):
            if never_evidence(sentence.text, small_talk=False):
                continue
            for entry, best in entries:
                if sentence.id not in shown_ids and quotes(entry, sentence):
                    out[sentence.id] = Candidate(sentence, max(best, out[sentence.id].score if sentence.id in out else 0.0))
        return list(out.values())

    def _by_words(self, text: str, found: Search, vector, shown: list[Candidate], exclude_message: int | None
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
                    or never_evidence(sentence.text, small_talk=False)):
                continue
            out.append(found_by_key.get(f"s{i}") or Candidate(sentence, _cosine(vector, vectors.get(i))))
            if len(out) == k:
                break
        return out

    def _choose(self, found: Search, floor: list[Candidate], set_apart: list[Candidate]
                ) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
        """Naive RAG's sentences as a floor, each part's best sentences, what the distinctive search adds, and the
        entries close enough to matter."""
        cfg = self.config
        sentences = list(floor)
        for part in range(1, len(found.by_query)):
            sentences += [c for c in found.top_sentences(part, PART_K) if c not in sentences]
        sentences += [c for c in set_apart if c not in sentences]
        # An entry whose sentences are all shown verbatim adds tokens, not knowledge (its marks come from them).
        entries = [c for c in found.candidates if c.kind == "memory"]

        def bears_on_question(fact: Candidate) -> bool:  # close enough, and not all of it already shown verbatim
            return not cfg.facts_min_score or (fact.score >= cfg.facts_min_score
                                               and (not fact.sources or adds_to(fact.record, sentences)))

        facts = [c for c in entries if c.tier == "ltm" and bears_on_question(c)][:FACTS_SHOWN]
        memories = [c for c in entries if c.tier != "ltm" and c.score >= cfg.memory_min_score
                    and adds_to(c.record, sentences)]
        memories = _one_per_message(memories)[: cfg.memories_shown]
        if len(sentences) + len(memories) < cfg.min_keep:
            extra = [c for c in found.candidates if c.kind == "sentence" and c not in sentences]
            sentences += extra[: cfg.min_keep - len(sentences) - len(memories)]
        return sentences, facts, memories

    def _long_memory(self) -> bool:
        """Whether memory holds enough sentences for naive RAG's lines to come from the distinctive search."""
        start = self.config.distinctive_from
        return start is not None and (start == 0 or self.index.held("sentences") >= start)

    def _floor(self, found: Search, long_memory: bool) -> list[Candidate]:
        """Naive RAG's sentences, which LightMem always shows too: plain cosine's k, or the distinctive search's."""
        k = self.config.rag_top_k
        return found.distinctive(0, k) if long_memory else found.top_sentences(0, k)

    def _cost(self, c: Candidate) -> int:
        """Tokens of the line `c` becomes."""
        return self.llm.count_tokens(said_line(c, compact=True))


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


def _cosine(a, b) -> float:
    if b is None:  # not embedded yet
        return 0.0
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    return float(a @ b / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12))


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)


def _nearer(question: np.ndarray, part: np.ndarray, whole: np.ndarray) -> bool:
    """Whether a question is nearer a part of a sentence than the whole of it (one vector each; the question's may
    be a row of the search's)."""
    q = question.reshape(-1, part.shape[-1])[0]
    return float(q @ part) >= float(q @ whole)
