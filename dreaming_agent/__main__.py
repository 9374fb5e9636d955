"""Command line: python -m dreaming_agent chat | dream | bench | perf | doctor | mcp."""
from __future__ import annotations

import argparse
import sys

from . import settings as settings_module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dreaming_agent", description="A memory system for small local LLMs.")
    commands = parser.add_subparsers(dest="command", required=True)

    chat = commands.add_parser("chat", help="chat in the terminal (/dream, /undo, /memory, /quit)")
    chat.add_argument("--mode", choices=["lightmem", "rag", "compare"], default="lightmem")
    settings_module.add_arguments(chat)

    dream = commands.add_parser("dream", help="run one Dream over an existing database (--db)")
    settings_module.add_arguments(dream)

    doctor = commands.add_parser("doctor", help="check the backend, model, embedder and index, with timings")
    settings_module.add_arguments(doctor)

    mcp = commands.add_parser("mcp", help="serve memory to other agents as MCP tools over stdio (set --db to keep it)")
    settings_module.add_arguments(mcp)

    from .bench.cli import add_parser as add_bench
    from .perf import add_parser as add_perf

    add_bench(commands)
    add_perf(commands)

    args = parser.parse_args(argv)
    if args.command in ("bench", "perf"):
        return args.run(args)
    settings = settings_module.from_args(args)
    if args.command == "mcp":  # the memory API chooses the model itself, as it does for any caller
        from .api.mcp_server import run_mcp

        return run_mcp(settings)
    from .wiring import choose_llm

    choice = choose_llm(settings)
    if args.command == "doctor":
        from .doctor import run_doctor

        return run_doctor(choice)
    from .cli_chat import run_chat, run_dream_once

    if args.command == "dream":
        return run_dream_once(choice)
    return run_chat(choice, mode=args.mode)


if __name__ == "__main__":
    sys.exit(main())
