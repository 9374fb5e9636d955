"""What happens to the model's answer before the person sees it: a list of checks, run in order by one loop
(`check_loop.run`).

Each check has a name, says when it applies (`applies(plan, evidence)`) and gives a verdict on the answer: keep it,
replace it, or ask the model once more without some evidence lines (or without the recent turns).
"""
from __future__ import annotations

from ..text import content_words, entities, mentions, numbers, proper_nouns, split_sentences
from . import abstain, acknowledge, dates, elapsed, voice
from .check_loop import (KEEP, Check, Context, Draft, OnText, Verdict, asked_again, replaced,  # noqa: F401
                         run)
from .evidence import Evidence, happened_on
from .plan import Plan
from .responder import hands_back
from .trace import Step


def _abstention(check: abstain.Check, by: str) -> Step:
    """Code's ruling on the answer, and which check made it (`by`)."""
    return Step("Abstention", 0.0, check.reason, parsed={
        "abstained": check.abstained, "by": by, "unsupported": list(check.unsupported),
        "never_mentioned": list(check.never_mentioned)})


# -- the checks, in the order they run --------------------------------------------------------------------
class NoEvidence(Check):
    """A question about the person with no evidence line and no fact: "I don't know", without a model call."""

    name, before_the_model = "No evidence", True

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.may_abstain

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if draft.evidence.lines or draft.evidence.facts:
            return KEEP
        ruling = abstain.no_evidence(context.plan.text)
        return replaced(ruling.answer, ruling=_abstention(ruling, self.name))


class CopiedAcknowledgement(Check):
    """A question's reply that opens with the code's acknowledgement of an earlier statement, copied from the window:
    that opening goes; when it was all of the reply, asked again without the recent turns ("I don't know" if the
    new reply is the acknowledgement again)."""

    name = "Acknowledgement copied"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.question and plan.question

    def stream(self, on_text: OnText, plan: Plan) -> OnText:
        return acknowledge.Stripped(on_text)

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        rest = acknowledge.without_copied(draft.text)
        if again:
            return replaced(rest or abstain.UNKNOWN.get(context.plan.language, draft.text))  # none in an unknown language
        if rest == draft.text:
            return KEEP
        if rest:
            return replaced(rest, note=Step(self.name, 0.0, "the reply opened with an earlier statement's "
                                            "acknowledgement, copied from the window; that opening is left out",
                                            parsed={"asked_again": False}))
        return asked_again(without_recent=True, note=Step(
            self.name, 0.0, "the reply was only an earlier statement's acknowledgement, copied from the window; "
            "asked again without the recent turns", parsed={"asked_again": True}))


# Why an answer asked again without the lines it was read from became "I don't know", by the slip found.
_AGAIN = {"Own name": "asked again without those lines, the answer gave the person's own name again"}


class WrongLine(Check):
    """An answer read from a line that cannot answer the question: the person's own name given for someone or
    something else's (`abstain.own_name_given`; in a language no module knows, `abstain.own_name_read_wrongly`).
    Asked again without the lines behind it; still wrong, "I don't know" (in a language no module knows, the
    model's second answer stands: code has no words of theirs to say it with)."""

    name = "Wrong line"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.may_abstain or bool(evidence.own_names)

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        slip = _wrong_line(draft, context) if draft.text else None
        if slip is None:
            return KEEP
        indices, name, reason = slip
        unknown = abstain.UNKNOWN.get(context.plan.language)
        if unknown is None:  # no words of the person's language to say "I don't know" with
            return KEEP if again or not indices else asked_again(tuple(indices), without_recent=True, note=Step(
                name, 0.0, reason + "; the turns before, which say them too, left out",
                parsed={"left_out": [draft.evidence.lines[i] for i in indices]}))
        if again:
            return replaced(unknown, ruling=_abstention(abstain.Check(unknown, True, _AGAIN[name]), name))
        note = Step(name, 0.0, reason, parsed={"left_out": [draft.evidence.lines[i] for i in indices]})
        if not indices:  # nothing to leave out: asked again, the same prompt would give the same answer
            return replaced(unknown, note=note, ruling=_abstention(abstain.Check(unknown, True, reason), name))
        return asked_again(tuple(indices), note=note)


def _wrong_line(draft: Draft, context: Context) -> tuple[list[int], str, str] | None:
    """The indices of the evidence lines to leave out, the slip's name and why; None when the answer is no slip
    (or the name checks are off)."""
    if not context.name_checks:
        return None
    packed = draft.packed
    kept = [draft.evidence.shown[i] for i in packed.kept_evidence]
    if context.plan.language is None:
        own = abstain.own_name_read_wrongly(draft.text, context.plan.text, kept, draft.evidence.own_names)
    else:
        own = abstain.own_name_given(draft.text, context.plan.text, [c.text for c in kept])
    if own is None:
        return None
    return [packed.kept_evidence[i] for i in own], "Own name", (
        "the answer gave the person's own name for the name of someone or something else; "
        + ("asked again without the lines where they give it" if own else "replaced by 'I don't know'"))


class OldValue(Check):
    """For a question about now, an answer that gives an older value of what memory holds a current value of, and
    none of the current value: asked again once without the evidence lines and the turns before that say the old
    value; the second answer stands. Older is read from memory's typed entries (`evidence.asked_now`): a name or
    number of a value memory holds as replaced ("You live in Wrocław." when memory's profile says the person moved to
    Gdańsk), or one that only lines told before the current value say, none of them saying it (the Writer typed the
    move to Gdańsk but not the home before it). A value the question itself names is no slip ("Did I like Leeds more
    than Bristol?"). Names and numbers are compared by letters, not by words of a language, so it runs in any
    language the answer is in; a diet, whose value has no name, by the Writer's English words for it
    (`kinds.value_words`: "vegetarian" answered when memory holds "The user is pescatarian now"). Without the
    Writer's entries (RAG, or LightMem without its Writer) memory holds no current value and the check never
    applies."""

    name = "Old value"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.question and plan.question and bool(evidence.values_before or evidence.values_now)

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        evidence, question = draft.evidence, context.plan.text
        if again or not draft.text or any(mentions(value, draft.text) for value in evidence.values_now):
            return KEEP
        replaced = [v for v in evidence.values_before if mentions(v, draft.text) and not mentions(v, question)]
        old = replaced or _told_before_now(draft.text, question, evidence)
        if not old:
            return KEEP
        indices = tuple(i for i, line in enumerate(evidence.lines) if any(mentions(v, line) for v in old))
        held = "memory holds as replaced by" if replaced else "only lines told before memory's current value say:"
        return asked_again(indices, without_recent=True, note=Step(
            self.name, 0.0, f"the answer gave {', '.join(old)}, which {held} "
            f"{', '.join(evidence.values_now) or 'a newer value'}; asked again without the lines and the turns "
            "before that say it", parsed={"old": old, "now": list(evidence.values_now), "typed": bool(replaced),
                                          "left_out": [evidence.lines[i] for i in indices]}))


def _told_before_now(answer: str, question: str, evidence: Evidence) -> list[str]:
    """The names and numbers of the answer (not the question's) that only evidence lines told before memory's
    current values say, none of those lines saying a current value: an older value memory never typed."""
    if not evidence.values_now or not evidence.values_said:
        return []
    old = []
    for name in sorted(entities(answer)):
        saying = [i for i, line in enumerate(evidence.lines) if mentions(name, line)]
        if saying and not mentions(name, question) and all(
                i < len(evidence.shown) and evidence.shown[i].date < evidence.values_said
                and not any(mentions(v, evidence.lines[i]) for v in evidence.values_now) for i in saying):
            old.append(name)
    return old


class HandedBack(Check):
    """In a language no module knows, a question's reply that is one of the person's sentences whole (the question
    itself included), or an earlier reply whole, copied from what the model was shown: the 0.5B default model hands
    back the last thing told for a question never answered, and gives some questions back as their own answer
    ("Gdzie teraz pracuję?"). Code cannot read whether a sentence answers the question; the line nearest it (by the
    embedder's score) is taken to, and so is the newest stating the kind of thing the question asks after, by the
    embedder's reading of both (`Evidence.stating_asked`: "Wo wohne ich jetzt?" asks after a home, "Ich bin am 2.
    Dezember nach Leipzig gezogen!" states one): either is kept when handed back, unless the nearest is an older
    statement of that kind (`Evidence.stated_before`: the old home, once a move was told). Any other is asked again
    once without the recent turns, and, for the person's own sentence or question, from memory's entries in the
    Writer's words alone (`Evidence.in_memory_words`); the second answer stands."""

    name = "Handed back"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return plan.language is None and evidence.question and plan.question

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if again or not draft.text:
            return KEEP
        theirs, replies, nearest = _said_before(draft)
        if hands_back(draft.text, context.plan.text):
            return asked_again(without_recent=True, in_memory_words=True, note=Step(
                self.name, 0.0, "the reply was the question itself, in a language code does not read; asked again "
                "from memory's entries in the Writer's words, without their sentences and the turns before",
                parsed={"handed_back": draft.text, "whose": "question"}))
        answering = [] if nearest and nearest[0] in draft.evidence.stated_before else nearest
        if any(hands_back(draft.text, said) for said in [*answering, *draft.evidence.stating_asked]):
            return KEEP
        if any(hands_back(draft.text, said) for said in theirs):
            return asked_again(without_recent=True, in_memory_words=True, note=Step(
                self.name, 0.0, "the reply was one of the person's own sentences, whole, in a language code does not "
                "read; asked again from memory's entries in the Writer's words, without their sentences and the "
                "turns before", parsed={"handed_back": draft.text, "whose": "person"}))
        if any(hands_back(draft.text, said) for said in replies):
            return asked_again(without_recent=True, note=Step(
                self.name, 0.0, "the reply was an earlier reply, whole, copied from the window; asked again without "
                "the turns before", parsed={"handed_back": draft.text, "whose": "assistant"}))
        return KEEP


def _said_before(draft: Draft) -> tuple[list[str], list[str], list[str]]:
    """What the model was shown that the person said (each whole turn and each of its sentences), what the assistant
    replied before, and the line nearest the question (with its message)."""
    kept = [draft.evidence.shown[i] for i in draft.packed.kept_evidence if i < len(draft.evidence.shown)]
    theirs = [source.text for c in kept for source in c.sources if source.role == "user"]
    theirs += [turn["content"] for turn in draft.recent if turn["role"] == "user"]
    replies = [turn["content"] for turn in draft.recent if turn["role"] == "assistant"]
    said = [c for c in kept if c.kind == "sentence"]
    nearest = max(said, key=lambda c: c.score) if said else None
    return ([*theirs, *(part for said in theirs for part in split_sentences(said))], replies,
            [nearest.text, nearest.sources[0].text] if nearest else [])


class NoDay(Check):
    """A question asking when, in a language a module knows, answered with no day and no number (a span, "2 años",
    answers "how long"), by restating a line that tells when it happened: that day is added to the answer, as code
    counted it (`dates.when`). Shown the line "- 4 April 2026 (said 7 April 2026): Last Saturday (4 April 2026) I
    drove…", the 0.5B model answers "You drove up to Caraquet…" and leaves the day out, asked again too. The line
    restated is the one sharing most of the answer's words (at least half); only a line that opened with that day
    adds it (not naive RAG's, dated the day it was said), the day read in the line's words or its entry's
    (`Evidence.told`)."""

    name = "No day"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return plan.route.temporal and plan.language is not None and evidence.question and plan.question

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        answer = draft.text.strip()
        if not answer or dates.names_a_day(answer) or numbers(answer) or abstain.says_unknown(answer):
            return KEEP
        said = content_words(answer)
        kept = [i for i in draft.packed.kept_evidence if i < len(draft.evidence.shown)]
        shared = lambda i: len(said & content_words(draft.evidence.shown[i].text))  # noqa: E731
        index = max(kept, key=shared, default=None)
        if index is None or 2 * shared(index) < len(said):
            return KEEP
        restated = draft.evidence.shown[index]
        happened = happened_on(restated, context.plan.language, draft.evidence.told)
        if happened is None or not draft.evidence.lines[index].startswith(f"- {happened.label}"):
            return KEEP  # the line did not show that day (naive RAG's lines show the day it was said)
        return replaced(f"{answer} ({happened.label})", note=Step(
            self.name, 0.0, "asked when, the answer restated a line without its day; the day code counted for that "
            "line added", parsed={"model": answer, "line": restated.text, "day": happened.label}))


class Count(Check):
    """Asked how many days (weeks, months…) passed between two things or since one, an answer whose number is not
    the count code made from the lines' days (`elapsed.counted`) is that count: shown "24 days passed from
    1 February 2023 to 25 February 2023" first, the 0.5B model answered "2". An answer that says it does not know
    stands where the question names something the lines counted from do not say (or names nothing), and so does one
    giving a count a line says in words ("for 5 years"): code counted between the lines nearest the question's words,
    not lines known to answer it. Shown "1 day passed from 6 December 2026 to 7 December 2026", the 0.5B model
    answered "How many days ago did I get the Toyota Yaris?" with "I don't know."."""

    name = "Count"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.counted is not None and evidence.question and plan.question

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        counted, answer, plan = draft.evidence.counted, draft.text.strip(), context.plan
        if not answer or str(counted.count) in numbers(answer):
            return KEEP
        if abstain.says_unknown(answer):
            names = proper_nouns(plan.text)
            if not names or not all(mentions(name, " ".join(counted.counted_from)) for name in names):
                return KEEP
        lines = draft.evidence.lines
        if any(elapsed.said_as_a_count(n, counted.unit, lines, plan.language) for n in numbers(answer)):
            return KEEP
        return replaced(f"{counted.line}.", ruling=Step(self.name, 0.0, "the answer's number was not the count code "
                                                        "made from the lines' days; that count shown instead",
                                                        parsed={"model": answer, "count": counted.count}))


class EmptyAnswer(Check):
    """An empty reply is a failure to show, not an answer to store."""

    name = "Empty answer"

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if draft.text:
            return KEEP
        error = "The model returned an empty answer."
        return replaced(f"⚠️ {error} Your message is saved; send it again.", error=error)


class Abstention(Check):
    """A question about the person: an answer that names what no line shown says, or a name or number the person
    never said of the relation asked after, becomes "I don't know"."""

    name = "Abstention"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.may_abstain

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if draft.ruling or draft.error:
            return KEEP
        evidence, answer, question = draft.evidence, draft.text, context.plan.text
        # what the model was shown: the lines, the facts and the current values (a count code made among them)
        kept_lines = "\n".join([*(evidence.lines[i] for i in draft.packed.kept_evidence),
                                *(c.text for c in evidence.facts),
                                *evidence.current[:draft.packed.included.get("current", 0)]])
        ruling = abstain.check(answer, question, dates.with_words(kept_lines))
        if not ruling.abstained and evidence.relations is not None:
            ruling = evidence.relations.check(answer, question, dated=dates.names_a_day(answer))
        return replaced(ruling.answer, ruling=_abstention(ruling, self.name))


class Acknowledgement(Check):
    """A statement's reply: never a refusal, never the person's words as the assistant's (`acknowledge.check`)."""

    name = "Acknowledgement"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return not evidence.question

    def stream(self, on_text: OnText, plan: Plan) -> OnText:
        return acknowledge.Held(on_text, plan.text)  # a refusal is never shown, not even for a moment

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if draft.error:
            return KEEP
        ruling = acknowledge.check(draft.text, context.plan.text)
        return replaced(ruling.answer, ruling=Step(self.name, 0.0, ruling.reason, parsed={"replaced": ruling.abstained}))


class InTheirLanguage(Check):
    """A reply that only says it does not know, in the question's language (`abstain.in_their_language`)."""

    name = "In their language"

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        shown = abstain.in_their_language(draft.text, context.plan.text)
        if shown == draft.text:
            return KEEP
        return replaced(shown, note=Step(self.name, 0.0, "'I don't know' said in the question's language",
                                         parsed={"model": draft.text, "shown": shown}))


class Voice(Check):
    """A question the person asks about themselves is answered to them, not in their voice (`voice.to_the_person`)."""

    name = "Voice"

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return evidence.question and plan.question and plan.personal

    def stream(self, on_text: OnText, plan: Plan) -> OnText:
        return voice.Addressed(on_text, plan.text)

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        if draft.error:
            return KEEP
        turned = voice.to_the_person(draft.text, context.plan.text, personal=True)
        if turned == draft.text:
            return KEEP
        return replaced(turned, note=Step(self.name, 0.0, "the person's own first person turned to them",
                                          parsed={"model": draft.text, "shown": turned}))


# The default variant's checks, in order; the published pipeline keeps only what any reply needs.
DEFAULT: list[Check] = [NoEvidence(), CopiedAcknowledgement(), WrongLine(), OldValue(), HandedBack(), NoDay(),
                        Count(), EmptyAnswer(), Abstention(), Acknowledgement(), InTheirLanguage(), Voice()]
PUBLISHED: list[Check] = [EmptyAnswer(), InTheirLanguage()]
FOR_VARIANT = {"default": DEFAULT, "published": PUBLISHED}
