"""Which search finds the evidence: `python scripts/research/distinctive_recall.py [--locomo FILE] [--out FILE.md]`.

No model: every LoCoMo conversation's turns ("Speaker: text", as the bench feeds them) and the three scenarios'
messages are split into sentences and embedded by the bench's embedder; questions and small talk are left out as
LightMem leaves them out. For each question with evidence, the share of its evidence (LoCoMo: turns; scenarios: a
phrase) among the sentences each search shows: plain cosine's top 8 (naive RAG), the top 8 searched as the question
less the mean sentence vector (`VectorIndex.search(less=…)`), and plain cosine's 8 with the first 3 found that way
added (LightMem's `GatherConfig.distinctive_k`). Figures: docs/results/HISTORY.md, round 14.

With `--prefixes`, where the distinctive search starts to pay (`GatherConfig.distinctive_from`): the LoCoMo
conversations no bench run uses, each cut to its first 100, 200, 400 and 800 sentences and whole, with the
questions whose evidence lies within the cut; plain cosine's top 8 against the distinctive top 8 (round 15).

With `--small-talk`, what to do with a sentence of small talk ("Melanie: Wow, Caroline.") that a search finds, on
the LoCoMo conversations no bench run uses: set it aside (LightMem), keep it (naive RAG), or let the next sentence of
its message that says something stand in its place (round 20).

With `--words`, what the word index (BM25, `TermIndex`) adds to LightMem's lines in a long memory: on the LoCoMo
conversations no bench run uses, whole and cut to their first 100, 200, 400 and 800 sentences, the evidence among
LightMem's search lines (the floor and the first 3 of the distinctive search), among them with 2 more of the floor's
search, and among them with the first 2 the word index ranks highest that they miss (round 24).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.bench.locomo import load_locomo  # noqa: E402
from dreaming_agent.bench.scenario import load_scenario  # noqa: E402
from dreaming_agent.bench.scoring import occurs  # noqa: E402
from dreaming_agent.pipeline.retriever import is_question, never_evidence  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store.terms import TermIndex  # noqa: E402
from dreaming_agent.text import says_nothing, split_sentences  # noqa: E402
from dreaming_agent.wiring import build_embedder  # noqa: E402

K, ADDED = 8, 3
SEARCHES = ("plain top 8", "distinctive top 8", "plain 8 + distinctive first 3")
BENCHED = {"conv-26", "conv-30", "conv-49"}  # measured by the bench: not for choosing where the search starts
CUTS = (100, 200, 400, 800)


def shown(plain: np.ndarray, distinctive: np.ndarray, usable: np.ndarray) -> dict[str, list[int]]:
    """The sentence indices each search shows for one question."""
    def top(scores: np.ndarray, n: int) -> list[int]:
        return [int(j) for j in np.argsort(-scores) if usable[j]][:n]

    floor = top(plain, K)
    return {SEARCHES[0]: floor, SEARCHES[1]: top(distinctive, K),
            SEARCHES[2]: floor + [j for j in top(distinctive, ADDED) if j not in floor]}


def searched(embedder, texts: list[str], questions: list[str]):
    """Per question, each search's sentence indices."""
    vectors = np.asarray(embedder.embed_batch(texts, role="passage"), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = np.asarray(embedder.embed_batch(questions, role="query"), dtype=np.float32)
    plain = queries @ vectors.T
    distinctive = plain - vectors @ vectors.mean(axis=0)  # ranks as (question - mean) . sentence
    usable = np.array([not never_evidence(t) for t in texts])
    return [shown(plain[i], distinctive[i], usable) for i in range(len(questions))]


def turns_as_fed(conversation) -> tuple[list[str], list[str]]:
    """Each sentence as the bench feeds it ("Speaker: text" split), and the turn it comes from."""
    texts, turn_of = [], []
    for turn in conversation.turns:
        for sentence in split_sentences(f"{turn.speaker}: {turn.as_message()}"):
            texts.append(sentence)
            turn_of.append(turn.dia_id)
    return texts, turn_of


def recall(questions, found, turn_of, names=SEARCHES) -> dict[str, float]:
    """Mean share of each question's evidence turns among the sentences each search shows."""
    return {name: float(np.mean([len(set(q.evidence) & {turn_of[j] for j in f[name]}) / len(set(q.evidence))
                                 for q, f in zip(questions, found)])) for name in names}


def prefixes(embedder, conversations) -> str:
    """Plain against distinctive top 8 on each unbenched conversation cut to its first n sentences."""
    rows = ["| conversation | " + " | ".join(f"first {n}" for n in CUTS) + " | whole |", "|---" * (2 + len(CUTS)) + "|"]
    means: dict[str, list[tuple[float, float]]] = {}
    for conversation in conversations:
        if conversation.sample_id in BENCHED:
            continue
        texts, turn_of = turns_as_fed(conversation)
        last = {dia_id: j for j, dia_id in enumerate(turn_of)}  # a turn is within the cut when its last sentence is
        cells = []
        for n in (*CUTS, len(texts)):
            inside = [q for q in conversation.questions
                      if q.evidence and all(e in last and last[e] < n for e in q.evidence)]
            if not inside:
                cells.append("–")
                continue
            r = recall(inside, searched(embedder, texts[:n], [q.question for q in inside]), turn_of, SEARCHES[:2])
            cells.append(f"{r[SEARCHES[0]]:.2f} → {r[SEARCHES[1]]:.2f} ({len(inside)})")
            means.setdefault("whole" if n == len(texts) else f"first {n}", []).append((r[SEARCHES[0]], r[SEARCHES[1]]))
        rows.append(f"| {conversation.sample_id} | " + " | ".join(cells) + " |")
    rows.append("| mean | " + " | ".join(
        f"{np.mean([p for p, _ in v]):.2f} → {np.mean([d for _, d in v]):.2f} "
        f"({sum(d > p for p, d in v)} up, {sum(d < p for p, d in v)} down)" for v in means.values()) + " |")
    return ("Evidence recall, plain cosine's top 8 → the distinctive top 8 (questions whose evidence lies within the "
            "cut):\n\n" + "\n".join(rows))


def small_talk(embedder, conversations) -> str:
    """Evidence recall of the top 8 of each search with small talk set aside, kept, or standing for its message."""
    ways = ("set aside", "kept", "its message's next sentence")
    rows = ["| conversation | search | " + " | ".join(ways) + " |", "|---" * (2 + len(ways)) + "|"]
    means: dict[tuple[str, str], list[float]] = {}
    for conversation in conversations:
        if conversation.sample_id in BENCHED:
            continue
        texts, turn_of = turns_as_fed(conversation)  # a turn is one message
        questions = [q for q in conversation.questions if q.evidence]
        vectors = np.asarray(embedder.embed_batch(texts, role="passage"), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        plain = np.asarray(embedder.embed_batch([q.question for q in questions], role="query"), dtype=np.float32) @ vectors.T
        asked = [is_question(t) for t in texts]
        chat = [says_nothing(t) and not asked[j] for j, t in enumerate(texts)]

        def says_more(j: int) -> int | None:  # the next sentence of j's message that is neither a question nor chat
            nxt = j + 1
            while nxt < len(texts) and turn_of[nxt] == turn_of[j]:
                if not asked[nxt] and not chat[nxt]:
                    return nxt
                nxt += 1
            return None

        for search, scores in (("plain", plain), ("distinctive", plain - vectors @ vectors.mean(axis=0))):
            cells = []
            for way in ways:
                shares = []
                for q, row in zip(questions, scores):
                    shown: list[int] = []
                    for j in (int(j) for j in np.argsort(-row)):
                        if chat[j] and way != "kept":
                            j = says_more(j) if way == ways[2] else None
                        if j is not None and not asked[j] and j not in shown:
                            shown.append(j)
                        if len(shown) == K:
                            break
                    shares.append(len(set(q.evidence) & {turn_of[j] for j in shown}) / len(set(q.evidence)))
                cells.append(float(np.mean(shares)))
                means.setdefault((search, way), []).append(cells[-1])
            rows.append(f"| {conversation.sample_id} | {search} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    for search in ("plain", "distinctive"):
        rows.append(f"| mean | {search} | " + " | ".join(f"{np.mean(means[(search, w)]):.3f}" for w in ways) + " |")
    return "Evidence recall of the top 8, small talk found by the search:\n\n" + "\n".join(rows)


def by_words(embedder, conversations, more: int = 2) -> str:
    """Evidence among LightMem's search lines, with `more` of the floor's search, or with `more` by the word index."""
    ways = ("LightMem's lines", f"+ {more} by cosine", f"+ {more} by words")
    rows = ["| conversation | " + " | ".join(f"first {n}" for n in CUTS) + " | whole |", "|---" * (2 + len(CUTS)) + "|"]
    means: dict[str, list[list[float]]] = {}
    for conversation in conversations:
        if conversation.sample_id in BENCHED:
            continue
        texts, turn_of = turns_as_fed(conversation)
        last = {dia_id: j for j, dia_id in enumerate(turn_of)}
        cells = []
        for n in (*CUTS, len(texts)):
            inside = [q for q in conversation.questions if q.evidence and not q.adversarial
                      and all(e in last and last[e] < n for e in q.evidence)]
            if not inside:
                cells.append("–")
                continue
            vectors = np.asarray(embedder.embed_batch(texts[:n], role="passage"), dtype=np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            plain = np.asarray(embedder.embed_batch([q.question for q in inside], role="query"), dtype=np.float32) @ vectors.T
            distinctive = plain - vectors @ vectors.mean(axis=0)
            usable = np.array([not never_evidence(t) for t in texts[:n]])
            words = TermIndex()
            for j, text in enumerate(texts[:n]):
                words.add(j, text)
            shares: list[list[float]] = [[], [], []]
            for q, p, d in zip(inside, plain, distinctive):
                ranked = [int(j) for j in np.argsort(-(d if n >= 400 else p)) if usable[j]]
                lines = ranked[:K] + [j for j in [int(j) for j in np.argsort(-d) if usable[j]][:ADDED] if j not in ranked[:K]]
                worded = [j for j, _ in words.search(None, q.question, 4 * more + len(lines)) if usable[j] and j not in lines]
                for way, shown in enumerate((lines, lines + [j for j in ranked[K:] if j not in lines][:more],
                                             lines + worded[:more])):
                    shares[way].append(len(set(q.evidence) & {turn_of[j] for j in shown}) / len(set(q.evidence)))
            found = [float(np.mean(x)) for x in shares]
            means.setdefault("whole" if n == len(texts) else f"first {n}", []).append(found)
            cells.append(" / ".join(f"{x:.2f}" for x in found) + f" ({len(inside)})")
        rows.append(f"| {conversation.sample_id} | " + " | ".join(cells) + " |")
    rows.append("| mean | " + " | ".join(
        " / ".join(f"{np.mean([f[w] for f in v]):.3f}" for w in range(3))
        + f" (words against cosine: {sum(f[2] > f[1] for f in v)} up, {sum(f[2] < f[1] for f in v)} down)"
        for v in means.values()) + " |")
    return (f"Evidence recall: {' / '.join(ways)} (questions whose evidence lies within the cut; LightMem's floor is "
            "the distinctive search's from 400 sentences on):\n\n" + "\n".join(rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json")
    parser.add_argument("--max-questions", type=int, default=100, help="per conversation, as the bench samples them")
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    parser.add_argument("--prefixes", action="store_true", help="where the search starts to pay (see above)")
    parser.add_argument("--small-talk", action="store_true", help="small talk found by the search (see above)")
    parser.add_argument("--words", action="store_true", help="what the word index adds (see above)")
    args = parser.parse_args(argv)
    embedder = build_embedder(Settings.load({}, {"embedder": "embedded"}))
    if args.prefixes or args.small_talk or args.words:
        conversations = load_locomo(args.locomo, max_questions=10_000 if args.prefixes or args.words else args.max_questions)
        table = (prefixes if args.prefixes else by_words if args.words else small_talk)(embedder, conversations)
        print(table)
        if args.out:
            args.out.write_text(table + "\n", encoding="utf-8")
        return 0
    rows = [f"| corpus | sentences | questions | {' | '.join(SEARCHES)} |", "|---" * (3 + len(SEARCHES)) + "|"]
    for conversation in load_locomo(args.locomo, max_questions=args.max_questions):
        texts, turn_of = turns_as_fed(conversation)
        questions = [q for q in conversation.questions if q.evidence]
        found = searched(embedder, texts, [q.question for q in questions])
        shares = recall(questions, found, turn_of)
        lines = np.mean([len(f[SEARCHES[2]]) for f in found])
        rows.append(f"| {conversation.sample_id} | {len(texts)} | {len(questions)} | "
                    + " | ".join(f"{shares[name]:.3f}" for name in SEARCHES[:2])
                    + f" | {shares[SEARCHES[2]]:.3f} ({lines:.1f} lines) |")
    for name in ("dev", "holdout", "third"):
        scenario = load_scenario(ROOT / "dreaming_agent" / "bench" / "scenarios" / f"{name}.json")
        texts = [s for session in scenario.sessions for turn in session.turns for s in split_sentences(turn)]
        questions = [q for q in scenario.questions if q.type != "abstention"]
        found = searched(embedder, texts, [q.question for q in questions])
        hits = {name_: sum(any(occurs(p, " ".join(texts[j] for j in f[name_])) for p in q.evidence_phrases)
                           for q, f in zip(questions, found)) for name_ in SEARCHES}
        lines = np.mean([len(f[SEARCHES[2]]) for f in found])
        rows.append(f"| {name} | {len(texts)} | {len(questions)} | "
                    + " | ".join(f"{hits[n]} found" for n in SEARCHES[:2])
                    + f" | {hits[SEARCHES[2]]} found ({lines:.1f} lines) |")
    table = "\n".join(rows)
    print(table)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
