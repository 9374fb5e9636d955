"""The web app: build it from the package and serve it on this machine only (unless told otherwise)."""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # before gradio is imported: no calls home


def main() -> None:
    from dreaming_agent.errors import DreamingAgentError
    from dreaming_agent.settings import add_arguments, from_args

    parser = argparse.ArgumentParser(description="Dreaming agent web app (every setting also reads its env var).")
    add_arguments(parser)
    args = parser.parse_args()

    from dreaming_agent.ui import build_app  # gradio is slow to import: not for --help
    from dreaming_agent.wiring import choose_llm

    try:
        # The model every entry point picks: Ollama, else the 0.5B model (fetched on first use), else SmolLM2.
        choice = choose_llm(from_args(args))
        print(f"model: {choice.line()}", flush=True)
        demo = build_app(choice.settings, model_choice=choice)
    except DreamingAgentError as e:  # a missing model or a bad setting: its message says how to fix it
        sys.exit(f"error: {e}")
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        share=False,
    )


if __name__ == "__main__":
    main()
