"""The web app: build it from the package and serve it on this machine only (unless told otherwise)."""
from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # before gradio is imported: no calls home


def main() -> None:
    from dreaming_agent.settings import add_arguments, from_args
    from dreaming_agent.ui import build_app

    parser = argparse.ArgumentParser(description="Dreaming agent web app (every setting also reads its env var).")
    add_arguments(parser)
    settings = from_args(parser.parse_args())
    demo = build_app(settings)
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        share=False,
    )


if __name__ == "__main__":
    main()
