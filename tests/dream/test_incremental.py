"""A Dream reviews what is new since the last applied Dream; unchanged clusters cost no model call."""
import pytest

from dreaming_agent.dream import run_dream, undo_last_dream
from dreaming_agent.testing import ScriptedLLM

from .builders import remember


def test_second_dream_skips_what_the_first_already_saw(store, index, embedder):
    remember(store, embedder, "The user watched a film about sharks", ("I watched a film about sharks.", "2026-03-02T10:00:00"))
    remember(store, embedder, "The user went to a concert on Saturday", ("I went to a concert on Saturday.", "2026-03-02T10:01:00"))
    llm = ScriptedLLM()
    first = run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00")
    assert first.llm_calls == 2
    again = run_dream(store, index, llm, embedder, now="2026-03-03T23:00:00")
    assert again.llm_calls == 0  # nothing new since the first Dream
    remember(store, embedder, "The user watched another film about sharks", ("Another shark film tonight.", "2026-03-04T10:00:00"))
    third = run_dream(store, index, llm, embedder, now="2026-03-04T23:00:00")
    assert 1 <= third.llm_calls <= 2 and third.llm_calls < 3


def test_after_an_undo_the_entries_count_as_new_again(store, index, embedder):
    remember(store, embedder, "The user is allergic to cashews", ("I'm allergic to cashews.", "2026-03-02T10:00:00"))
    llm = ScriptedLLM({"DreamProposal": ['{"operations": [{"op": "PROMOTE", "target_ids": [1], "text": null, "reason": "health"}]}']})
    assert len(run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00").accepted) == 1
    assert undo_last_dream(store, index) is not None
    assert run_dream(store, index, llm, embedder, now="2026-03-03T23:00:00").llm_calls == 1


def test_an_entry_written_in_the_same_second_as_the_last_dream_still_counts_as_new(store, index, embedder):
    remember(store, embedder, "The user watched a film about sharks", ("I watched a film about sharks.", "2026-03-02T10:00:00"))
    llm = ScriptedLLM()
    assert run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00").llm_calls == 1
    # Stamps have one-second resolution: this entry may have come just after that Dream began.
    remember(store, embedder, "The user went to a concert on Saturday", ("I went to a concert on Saturday.", "2026-03-02T23:00:00"))
    assert run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00").llm_calls == 1


def test_progress_counts_groups_done_of_total_as_the_model_answers(store, index, embedder):
    remember(store, embedder, "The user watched a film about sharks", ("I watched a film about sharks.", "2026-03-02T10:00:00"))
    remember(store, embedder, "The user went to a concert on Saturday", ("I went to a concert on Saturday.", "2026-03-02T10:01:00"))
    llm = ScriptedLLM()
    heard: list[tuple[int, int, int]] = []  # (done, total, model calls made by then)
    report = run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00",
                       on_progress=lambda done, total: heard.append((done, total, len(llm.calls))))
    assert heard == [(0, 2, 0), (1, 2, 1), (2, 2, 2)] and report.clusters == 2
    heard.clear()
    run_dream(store, index, llm, embedder, now="2026-03-03T23:00:00",
              on_progress=lambda done, total: heard.append((done, total, len(llm.calls))))
    assert heard == [(0, 0, 2)]  # nothing new: the page can say so at once


def test_a_lone_entry_the_validator_would_refuse_whatever_is_proposed_costs_no_call(store, index, embedder):
    # Said once and about a pet: too thin to promote, too durable to forget. Nothing the model says could change it.
    remember(store, embedder, "The user has a cat named Pimienta", ("My cat is Pimienta.", "2026-03-02T10:00:00"))
    film = remember(store, embedder, "The user watched a film about sharks",
                    ("I watched a film about sharks.", "2026-03-02T10:01:00"))
    llm = ScriptedLLM()
    report = run_dream(store, index, llm, embedder, now="2026-03-02T23:00:00")
    assert report.llm_calls == 1 and [o["cluster"] for o in report.raw_outputs] == [[film]] and report.settled == 1



@pytest.mark.parametrize("moved", [True, False], ids=["after-a-new-job", "no-new-job"])
def test_a_dream_never_promotes_a_workplace_the_person_has_left(store, index, embedder, moved):
    # In the app a Dream promoted the old hospital after the person told of a new job. Said twice, the entry is
    # promoted when nothing replaced it; after the new job it stays mid-term, and no model call is spent on it.
    old = remember(store, embedder, "The user works in the hospital of Txagorritxu",
                   ("Trabajo en el hospital de Txagorritxu.", "2026-03-02T10:00:00"),
                   ("Hoy tuve guardia en el hospital de Txagorritxu.", "2026-03-05T10:00:00"))
    if moved:
        remember(store, embedder, "The user's job is a new job in Basurto",
                 ("Empiezo un trabajo nuevo en Basurto.", "2026-03-20T10:00:00"))
    promote = '{"operations": [{"op": "PROMOTE", "target_ids": [%d], "text": null, "reason": "said twice"}]}' % old
    report = run_dream(store, index, ScriptedLLM({"DreamProposal": [promote]}), embedder, now="2026-03-20T23:00:00")
    if moved:
        assert report.accepted == [] and report.llm_calls == 0 and report.settled == 2
        assert store.memory(old).tier == "mtm"
    else:
        assert [o.op for o in report.accepted] == ["PROMOTE"] and store.memory(old).tier == "ltm"
