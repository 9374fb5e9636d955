"""The launched web app under many visitors at once: isolation, end of session, and load figures."""
from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from dreaming_agent.store import make_client

from .conftest import Markers, call, close_all, demo_llm, echo_facts, found, report

ISOLATION_SESSIONS = 20
CALL_TIMEOUT_S = 180  # bound on any one visitor's whole script


def flat(outputs) -> str:
    """Everything an endpoint returned, as one string (chat bubbles, panels, notices)."""
    return json.dumps(outputs, ensure_ascii=False, default=str)


def visit(client, mine: list[str]) -> dict:
    """One visitor's script: three statements, a typed fact, a question answered both ways, then memory."""
    seen = []
    for text in (f"I like {mine[0]} lemons.", f"I own {mine[1]} boats.", f"I visit {mine[2]} museum."):
        out = call(client, "/chat", text, "lightmem")
        assert out["textbox"] == "", f"the turn failed: {out['chat'][-1]}"
        seen.append(flat(out))
    seen.append(flat(call(client, "/add_memory", f"The user grows {mine[3]} tomatoes")))
    seen.append(flat(call(client, "/chat", f"What about lemons, boats and museums {mine[4]}?", "compare")))
    panels = client.predict(60, api_name="/wait_for_learning")
    assert not panels["learning"], "the Writer did not finish within 60 s"
    seen.append(flat(panels))
    return {"seen": " ".join(seen), "panels": panels}


def session_files(folder) -> set[str]:
    return {p.name for p in folder.glob("dreaming-*.sqlite3*")}


def web_collections(chroma) -> set[str]:
    return {c.name for c in chroma.list_collections() if c.name.startswith("da-web-")}


def test_concurrent_sessions_never_see_each_other_and_are_dropped_when_they_end(launch, visitors, tmp_path,
                                                                                 monkeypatch):
    folder = tmp_path / "sessions"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # each session's throwaway database lands here
    chroma = make_client()  # the in-process Chroma the app uses: its collections are visible here
    before = web_collections(chroma)
    url = launch(demo_llm(ExtractedFacts=echo_facts))
    markers = Markers(4)
    plans = [[markers.new() for _ in range(5)] for _ in range(ISOLATION_SESSIONS)]
    started = time.perf_counter()
    with ThreadPoolExecutor(len(plans)) as pool:  # every visitor arrives and talks at the same time
        clients = list(pool.map(lambda _: visitors(url), plans))
        futures = [pool.submit(visit, client, mine) for client, mine in zip(clients, plans)]
        results = [f.result(timeout=CALL_TIMEOUT_S) for f in futures]
    elapsed = time.perf_counter() - started

    for mine, result in zip(plans, results):
        foreign = found(result["seen"]) - set(mine)
        assert not foreign, f"a session saw another session's markers: {sorted(foreign)}"
        history, mid_term, facts = (result["panels"][k] for k in ("history", "mid_term", "facts"))
        assert all(m in history for m in (mine[0], mine[1], mine[2], mine[4])), "a message went missing"
        assert all(f"The user {verb} {m}" in mid_term for verb, m in zip(("likes", "owns", "visits"), mine))
        assert f"The user grows {mine[3]} tomatoes" in facts
    assert len(session_files(folder)) >= ISOLATION_SESSIONS  # one database per visitor (plus WAL files)
    opened = web_collections(chroma) - before
    assert len(opened) == 2 * ISOLATION_SESSIONS  # memories and sentences, per visitor

    close_all(clients)  # the heartbeats stop, as when tabs close: the app's unload event releases each session
    deadline = time.monotonic() + 60
    while (session_files(folder) or web_collections(chroma) & opened) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert session_files(folder) == set(), "a closed session's database is still on disk"
    assert not web_collections(chroma) & opened, "a closed session's index is still in Chroma"
    report("session isolation", sessions=ISOLATION_SESSIONS, calls=ISOLATION_SESSIONS * 7, foreign_markers_seen=0,
           databases_left_after_close=0, collections_left_after_close=0, seconds=round(elapsed, 1))


def chat_load(client, mine: list[str]) -> dict:
    """Turns one after another, timed from the client; then the session's whole history."""
    round_trips, turn_ms, errors = [], [], []
    for marker in mine:
        started = time.perf_counter()
        try:
            out = call(client, "/chat", f"I like {marker} lemons.", "lightmem")
        except Exception as e:  # an endpoint error is a failure to count, not to hide
            errors.append(repr(e))
            continue
        round_trips.append(time.perf_counter() - started)
        if out["textbox"] != "":
            errors.append(out["chat"][-1])
        server = re.search(r'<b>LightMem</b> <span class="da-ms">(\d+) ms</span>', out["turn"])
        turn_ms.append(int(server.group(1)) if server else 0)
    history = client.predict(120, api_name="/wait_for_learning")["history"]
    return {"round_trips": round_trips, "turn_ms": turn_ms, "errors": errors,
            "lost": [m for m in mine if m not in history]}


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def test_load_many_sessions_many_turns(launch, visitors, full):
    sessions, turns = (50, 20) if full else (10, 5)
    llm = demo_llm(ExtractedFacts=echo_facts)  # no delay: the model's own time is ~0
    url = launch(llm)
    markers = Markers(6)
    alone = chat_load(visitors(url), [markers.new() for _ in range(10)])  # the app's own latency, uncontended
    assert alone["errors"] == [] and alone["lost"] == []
    plans = [[markers.new() for _ in range(turns)] for _ in range(sessions)]
    with ThreadPoolExecutor(sessions) as pool:
        clients = list(pool.map(lambda _: visitors(url), plans))
        started = time.perf_counter()
        futures = [pool.submit(chat_load, client, mine) for client, mine in zip(clients, plans)]
        results = [f.result(timeout=60 + 10 * turns) for f in futures]
    elapsed = time.perf_counter() - started

    round_trips = [t * 1000 for r in results for t in r["round_trips"]]
    in_agent = [t for r in results for t in r["turn_ms"]]
    errors = [e for r in results for e in r["errors"]]
    lost = [m for r in results for m in r["lost"]]
    report("load", sessions=sessions, turns_per_session=turns, turns=len(round_trips), errors=len(errors),
           lost_messages=len(lost), model_delay_ms=llm.delay_s * 1000,
           alone_p50_round_trip_ms=round(statistics.median(alone["round_trips"]) * 1000),
           alone_p95_round_trip_ms=round(p95(alone["round_trips"]) * 1000),
           p50_round_trip_ms=round(statistics.median(round_trips)), p95_round_trip_ms=round(p95(round_trips)),
           max_round_trip_ms=round(max(round_trips)), p95_turn_in_agent_ms=round(p95(in_agent)),
           seconds=round(elapsed, 1), turns_per_s=round(len(round_trips) / elapsed, 1))
    assert errors == [] and lost == []
    assert len(round_trips) == sessions * turns
