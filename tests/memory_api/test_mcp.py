"""The MCP server driven through a real MCP client session over stdio, the real offline embedder behind it."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from .scripts import ALLERGY, BRISTOL, LEEDS, SISTER

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False"}


def _server(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=list(args), cwd=ROOT, env=OFFLINE)


async def _call(client: Client, tool: str, **arguments):
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    content = result.structured_content
    return content["result"] if set(content) == {"result"} else content


def test_remember_recall_forget_dream_undo_over_stdio(tmp_path):
    async def session():
        async with Client(_server("-m", "tests.memory_api.mcp_child", str(tmp_path / "memory.sqlite3")),
                          read_timeout_seconds=120) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert {"remember", "recall", "forget", "delete_memory", "dream", "undo_dream"} <= tools

            sister = await _call(client, "remember", text=SISTER, date="2026-05-10")
            allergy = await _call(client, "remember", text=ALLERGY, date="2026-05-11")
            (entry,) = sister["memories"]
            hits = await _call(client, "recall", query="Where does my sister Ana live?")
            found = next(h for h in hits if h["kind"] == "sentence" and h["text"] == SISTER)
            said = {"message_id": sister["message_id"], "date": "2026-05-10T12:00:00", "text": SISTER}
            assert found["sources"] == [said]

            forgotten = await _call(client, "forget", memory_id=entry["id"])
            assert forgotten["message_ids"] == [sister["message_id"]] and entry["id"] in forgotten["memory_ids"]
            hits = await _call(client, "recall", query="Where does my sister Ana live?")
            assert not [h for h in hits if "Porto" in h["text"] or any("Porto" in s["text"] for s in h["sources"])]

            (allergy_entry,) = allergy["memories"]
            dreamt = await _call(client, "dream")
            assert [(c["op"], c["target_ids"]) for c in dreamt["accepted"]] == [("PROMOTE", [allergy_entry["id"]])]
            assert [m["id"] for m in await _call(client, "list_memories", tier="ltm")] == [allergy_entry["id"]]
            undone = await _call(client, "undo_dream")
            assert undone["status"] == "undone" and undone["dream_id"] == dreamt["dream_id"]
            assert await _call(client, "list_memories", tier="ltm") == []
            history = await _call(client, "memory_history", memory_id=allergy_entry["id"])
            assert history[0] == {"at": "2026-05-11T12:00:00", "event": "said", "memory_id": None,
                                  "message_id": allergy["message_id"], "text": ALLERGY}

            refused = await client.call_tool("forget", {"memory_id": entry["id"]})
            assert refused.is_error and f"No memory with id {entry['id']}" in refused.content[0].text

    asyncio.run(session())


def test_recall_ranks_a_replaced_home_below_the_new_one_and_says_so(tmp_path):
    """The issue's client: "Where does the user live now?" after a home and a move, and the profile tool."""
    async def session():
        async with Client(_server("-m", "tests.memory_api.mcp_child", str(tmp_path / "memory.sqlite3")),
                          read_timeout_seconds=120) as client:
            await _call(client, "remember", text=LEEDS, date="2026-11-01")
            moved = await _call(client, "remember", text=BRISTOL, date="2026-11-27")
            move = next(m["id"] for m in moved["memories"] if "Bristol" in m["text"])
            hits = await _call(client, "recall", query="Where does the user live now?", limit=8)
            statuses = [h["status"] for h in hits]
            assert statuses == sorted(statuses)  # "current" before "replaced"
            assert "Bristol" in hits[0]["text"] and hits[0]["status"] == "current", hits
            leeds = [h for h in hits if "Leeds" in h["text"]]
            assert leeds and all(h["status"] == "replaced" and move in h["replaced_by"] for h in leeds), hits
            home = next(row for row in await _call(client, "profile") if row["attribute"] == "home")
            assert [v["value"] for v in home["current"]] == ["Bristol"] and home["current"][0]["memory_id"] == move
            assert [(v["value"], v["since"]) for v in home["before"]] == [("Leeds", "2026-11-01")]
            events = await _call(client, "timeline")
            assert [(e["memory_id"], e["when"]) for e in events if e["memory_id"] == move] == [
                (move, "the week before 27 November 2026")]

    asyncio.run(session())


def test_the_cli_command_serves_the_same_tools(tmp_path):
    """`python -m dreaming_agent mcp`, with the scripted model that the settings offer for tests."""
    async def session():
        command = _server("-m", "dreaming_agent", "mcp", "--llm", "scripted", "--db", str(tmp_path / "m.sqlite3"))
        async with Client(command, read_timeout_seconds=120) as client:
            added = await _call(client, "remember_fact", text="The user's cat is called Miso")
            hits = await _call(client, "recall", query="What is my cat's name?", limit=1)
            assert hits[0]["id"] == added["memories"][0]["id"] and hits[0]["kind"] == "memory"
            deleted = await _call(client, "delete_memory", memory_id=hits[0]["id"])
            assert deleted["memory_ids"] == [hits[0]["id"]]
            assert await _call(client, "list_memories") == []

    asyncio.run(session())
