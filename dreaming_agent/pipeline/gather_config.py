"""What each mode may gather for a message, and how: the knobs of `gather.py`, each with what measured it.

The defaults are the variant the bench measures as E (LightMem) and B (naive RAG); a knob left off keeps the figures
that turned it off, so a later round can try it again by name.
"""
from __future__ import annotations

from dataclasses import dataclass

from .current import CurrentSettings


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
    # sister's town in rounds 8-11, the person's own move in front of it. A pet's sentence too ("My cat is called
    # Pimentón."), and both out of the recent turns the question sees (round 21, found in the app: with the sister's
    # and the cat's lines just said, "¿A qué soy alérgica?" was answered about the sister, then about the cat).
    relatives_out: bool = True
    # What memory knows is current (`current.current_first`): the typed profile rows nearest a question come first,
    # and a question about time reads the dated events in order. None: the evidence as gathered.
    current: CurrentSettings | None = CurrentSettings()
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
    # LightMem, from `distinctive_from` on: the first `lexical_k` sentences that share the question's rarest words
    # (BM25 over every sentence, `store.TermIndex`) and that the cosine lines miss come next among what LightMem adds
    # (within `extra_share`). Offline, on the seven LoCoMo conversations no bench run uses, all their questions
    # (`python scripts/distinctive_recall.py --words`): the evidence among LightMem's search lines went 0.521 ->
    # 0.608 with them, where 2 more lines of cosine gave 0.551 (7 of 7 conversations ahead of that); cut to 200,
    # 400 and 800 sentences they paid too, at 100 they did not (2 up, 2 down): so only in a long memory. 0: off.
    lexical_k: int = 2
    min_keep: int = 3
    max_facts: int = 40  # published variant: every durable fact, as published
