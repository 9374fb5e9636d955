"""One `gather` per mode: what the Responder will read for this message, decided before any reply is written.

Every mode embeds the message (and its parts) once and searches once; the default LightMem variant decides in
code, the published one asks the model (Controller, Selector) as the published pipeline does.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..embed.base import Embedder
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Memory, Store, VectorIndex
from . import abstain, controller, selector
from .evidence import (Evidence, Replacements, in_context, in_date_order, memory_line, newer_values, newest_values,
                       quotes, replacements, said_line)
from .retriever import Candidate, is_question, never_evidence, search
from .trace import Step


@dataclass(frozen=True)
class GatherConfig:
    top_k: int = 8  # LightMem: entries per query
    rag_top_k: int = 8  # naive RAG: verbatim sentences shown (also LightMem's floor)
    # The defaults are the best naive RAG of the ablation in docs/results/bench.md; LightMem reads the same prompt.
    rag_date_order: bool = True  # oldest first, so the last line about a thing is its newest value
    compact_lines: bool = True  # "- 2026-03-02: text" rather than '- (2026-03-02) the person said: "text"'
    rag_prompt: str = "responder"  # "answer": a three-sentence prompt (measured worse, kept for the ablation)
    lightmem_prompt: str = "responder"
    part_k: int = 3  # LightMem: extra sentences per part of a compound question
    facts_shown: int = 5  # LightMem: durable facts among a query's best hits, at most this many
    # ...from this score on, and not when their message is shown verbatim (0: any fact among the hits, as before)
    facts_min_score: float = 0.45
    memory_min_score: float = 0.45  # LightMem: a mid-term entry is shown (with its sources) from this score on
    memories_shown: int = 2  # LightMem: mid-term entries shown at most, the best first, each quoting a new message
    # LightMem reads no more than naive RAG: its sentences, entries and facts, best score first, in the tokens that
    # naive RAG's lines take. Off: RAG's lines are a floor, the rest is added on top. Measured (round 7 in
    # docs/results/bench.md): on, E is as fast as RAG but its LoCoMo conv-30 lead is gone (F1 0.041 vs 0.040, from
    # 0.068 vs 0.036 off) and third loses a question, so the default keeps the floor.
    within_rag_budget: bool = False
    message_chars: int = 0  # LightMem: show a hit as its whole message when the message is this short (0: off)
    newest_wins: float | None = None  # LightMem: mark an older conflicting sentence at this similarity (None: off)
    # LightMem, a question about now: leave out an older sentence that a newer one on the same subject contradicts
    # (different names or numbers, embeddings at least this similar; None: off)
    replaced_now: float | None = 0.5
    # LightMem, a question about time: each line dated in words, in the question's language ("- 22 March 2026: …",
    # "- 22 de marzo de 2026: …": the reply copies them), and "yesterday (21 March 2026)", counted in code from the
    # line's date. Only then: on other questions the 0.5B model tripped over the added dates (resolved: two held-out
    # answers lost, none won; every line in words on every question, at 983b0c9: E lost on dev 15 -> 12, holdout
    # 13 -> 12, third 9 -> 7, among them "¿Cuánto pesa Pimentón ahora?").
    resolve_dates: bool = True
    # Naive RAG: its lines dated in words on every question (it has no Controller to tell a question about time);
    # off, as the ablation kept it. On (983b0c9): dev 10 -> 9, holdout 10 -> 9, third 4 -> 4, LoCoMo conv-26's token
    # F1 0.066 -> 0.132 (a right date written "2023-05-08" scores 0 against "8 May 2023").
    rag_dates_in_words: bool = False
    # Each line of a named speaker's message says who said it ("- 2023-06-27: Caroline: This necklace is super
    # special to me"), not only the message's first sentence: naive RAG's lines (`rag_speakers`) and LightMem's. The
    # person of the app has no name, so only a conversation of two people (LoCoMo) would read differently. Measured
    # (round 16): naive RAG's F1 0.095 -> 0.085 on conv-26 and 0.061 -> 0.071 on conv-30, LightMem's 0.171 -> 0.165
    # and 0.174 -> 0.175, evidence recall unchanged: no better, so lines stay as said.
    rag_speakers: bool = False
    speakers: bool = False
    # LightMem: a question that does not lean on the turns before it is answered without their questions and
    # answers (the Controller's `follow_up`); what the person told there stays
    standalone_without_recent: bool = True
    # LightMem: a compound question reaches the Responder with its parts named ("Answer each part: 1) … 2) …");
    # the 0.5B model answered one part of two-part questions
    name_the_parts: bool = False
    # LightMem, a question about the person (not about a relative): a sentence that says a value which replaced an
    # older one (a move, a new job) is followed by it in plain words, "(newest: I live in Bilbao)". Measured (round 9
    # in docs/results/bench.md): it mends the new user's "Where do I live now?", but on third the Writer's value was
    # the neighbourhood and the model answered "Which city…?" with it (one question lost), so it is off.
    name_newest: bool = False
    # LightMem: a sentence of greetings, thanks or exclamations and names ("Caroline: Wow, Mel!") is never evidence;
    # found for a question naming someone, it took a line that could have said something about them. The search
    # then fetches 4k per query rather than 2k, so that k sentences remain once small talk and questions are out.
    skip_small_talk: bool = True
    # LightMem: a mid-term entry the search found is shown as the sentences it quotes, verbatim and dated like the
    # rest, without the Writer's words ("The user's friends … are Caroline's rocks" for Caroline's own remark).
    # Measured (round 11 in docs/results/bench.md): LoCoMo conv-26 F1 0.131 -> 0.154 (ahead of RAG in every
    # category), third 9 -> 10, dev and holdout unchanged. Off: the entry with its quote, as in rounds 6-11.
    entries_as_said: bool = True
    # LightMem: naive RAG's sentences are always shown; what LightMem adds (the sentences its entries quote, a
    # compound question's parts) is shown best score first while all the lines take at most this share
    # more tokens than naive RAG's own (None: no limit). A small model on a CPU spends its time reading the prompt,
    # so this keeps E within the issue's 1.3x of RAG's time wherever it runs: unlimited, LoCoMo conv-26's E read 369
    # tokens to RAG's 296 (p50) and took 1.38x RAG's time, the two entries' sentences adding about 2.8 lines.
    extra_share: float | None = 0.25
    # LightMem: a sentence whose value memory knows was replaced (a move, a new job) is left out, its successor shown,
    # for any question that does not ask about the past or the history ("before", "did", "have I…", "viví"), not
    # only for one about now: in the app, "Where do I work?" read the old line marked "(replaced later)" beside the
    # new one, and the 0.5B model answered with the old hospital. Off: only a question about now leaves it out.
    replaced_unless_past: bool = True
    # LightMem, a question about the person themselves ("Where do I live now?": first person, naming no relative, pet
    # or thing of theirs): a sentence about one of their relatives and not about them ("Mi hermana Ane vive en
    # Donostia.", not "…, we talk on Sundays") is left out. In the app the 0.5B model answered that question with the
    # sister's town in rounds 8-11, the person's own move in front of it.
    relatives_out: bool = True
    # LightMem: the question is searched a second time, its vector less the mean of every sentence's, and those of
    # the first `distinctive_k` found that way that naive RAG's lines miss come first among what LightMem adds
    # (within `extra_share`). A short remark is near every question in plain cosine ("Caroline: The mentoring is
    # going great!" was among the 8 nearest of 24 of conv-26's questions); taking out what all sentences share ranks
    # the sentence that answers higher more often (it has hubs of its own, hence only the first 3). Offline, on the user sentences of all ten LoCoMo conversations (`/tmp` script, small talk
    # and questions left out), the evidence turns among the top 8 went from 0.33 to 0.48 (every conversation
    # gained); naive RAG's 8 and the first 3 found this way: 0.41, 0.6 lines more on average. On dev, holdout and
    # third the first 3 are among naive RAG's lines already. Adding the first 2 of any rank measured worse: dev
    # 14 -> 12 with 2 lines of no use ("Packing is chaos.") for "¿Cuánto pesa Pimentón ahora?", at 1.33x RAG's time.
    distinctive: bool = True
    distinctive_k: int = 3
    # From a memory of this many sentences on, naive RAG's k sentences (and so LightMem's floor) are the first k
    # found by that search rather than by plain cosine (None: never; 0: always, the bench's G and H). Offline, on the
    # seven LoCoMo conversations no bench run uses, cut to their first 100, 200, 400 and 800 sentences and whole
    # (`python scripts/distinctive_recall.py --prefixes`): from 400 on it found more of the evidence in all 7 (mean
    # 0.56 -> 0.71 at 400); at 100 and 200 more on average too, but less in 1 of the 7 each. Always on (round 14's G
    # and H): LoCoMo conv-26 F1 0.053 -> 0.088 for naive RAG and 0.145 -> 0.165 for LightMem, but LightMem lost 2
    # questions on each scenario (72-109 sentences: dev 14 -> 12, holdout 13 -> 11, third 10 -> 8), RAG none.
    distinctive_from: int | None = 400
    # LightMem, from `distinctive_from` on: what the distinctive search adds are its 3 sentences after the floor's k
    # (its first k), its first 3 being among them already. Offline, on the seven LoCoMo conversations no bench run
    # uses (whole), the evidence among the lines went from 0.52 to 0.56 (7 of 7 up). But on conv-26 (round 16 in
    # docs/results/bench.md) they took the share of the sentences LightMem's entries quote: F1 0.171 -> 0.160,
    # evidence recall 0.48 -> 0.47, 368 -> 394 prompt tokens. Off: the first 3, which a long memory shows already.
    distinctive_after_floor: bool = False
    min_keep: int = 3
    max_facts: int = 40  # published variant: every durable fact, as published


@dataclass
class Gatherer:
    store: Store
    index: VectorIndex
    embedder: Embedder
    llm: LLM
    prompts: PromptLibrary
    config: GatherConfig
    seed: int = 0

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
        steps.append(Step("Retriever", _ms(t0), f"{len(found.candidates)} candidates for {len(decided.queries)} queries"
                          f"{_ranked_apart(long_memory)}", parsed=_listing(found.candidates)))
        t0 = time.perf_counter()
        floor = self._floor(found, long_memory)
        set_apart = self._set_apart(found, long_memory)
        sentences, facts, memories = self._choose(found, floor, set_apart)
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
            sentences = self._within_share(floor, sentences, first=[c.key for c in set_apart])
        # The newer value is shown as the person said it, a dated sentence like the rest: shown as an entry with its
        # quote, the 0.5B model copied the whole entry line into an answer about something else (in the app).
        newer = self._successors(changes, found.candidates, sentences)
        sentences += newer
        known = abstain.relations(text, self._told) if decided.question else None
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
        steps.append(Step("Selector", _ms(t0),
                          f"kept {len(sentences)} sentences, {len(memories)} entries, {len(facts)} durable facts; "
                          f"{marked} marked current/replaced{_apart(apart)}{_left_out(older)}{_newer_shown(newer)}"
                          f"{_relatives(relatives)}{unsaid} "
                          "(decided in code)",
                          parsed=[c.key for c in shown]))
        about_them = decided.personal or (known is not None and known.about_someone_known(text))
        return Evidence(lines, shown, facts=[c.text for c in facts], steps=steps, question=decided.question,
                        may_abstain=about_them, relations=known, prompt=self.config.lightmem_prompt,
                        follow_up=decided.follow_up or not self.config.standalone_without_recent,
                        parts=decided.queries[1:] if self.config.name_the_parts else [])

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

    def _told(self) -> list[str]:
        """Everything the person told, one text per message (questions left out), and every entry memory holds
        (one they typed into "memory about you" was never a message)."""
        told: dict[int, list[str]] = {}
        for s in self.store.sentences():
            if not is_question(s.text):
                told.setdefault(s.message_id, []).append(s.text)
        return [" ".join(texts) for texts in told.values()] + [m.text for m in self.store.memories()]

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
        """What the distinctive search offers LightMem beyond naive RAG's lines: its first `distinctive_k`, or, in a
        long memory whose floor is that search's first k already, the `distinctive_k` after them."""
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


def _ranked_apart(long_memory: bool) -> str:
    return "; naive RAG's ranked less what every sentence shares (a long memory)" if long_memory else ""


def _newer_shown(newer: list[Candidate]) -> str:
    return f"; shown {len(newer)} newer value{'s' if len(newer) != 1 else ''} memory knows" if newer else ""


def _relatives(relatives: list[Candidate]) -> str:
    n = len(relatives)
    return f"; left out {n} line{'s' if n != 1 else ''} about a relative, the question being about you" if n else ""


def _left_out(older: dict[str, str]) -> str:
    return f"; left out {len(older)} older value{'s' if len(older) != 1 else ''} a newer line replaced" if older else ""


def _listing(candidates: list[Candidate]) -> list[dict]:
    return [{"key": c.key, "score": round(c.score, 3), "date": c.date, "text": c.text} for c in candidates]


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)
