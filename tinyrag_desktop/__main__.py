"""Entry point: no verb opens the window; a verb (ask, kb, nanogo) runs headless."""

from __future__ import annotations

import sys

VERBS = ("ask", "kb", "nanogo")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--nanogo-worker":  # a frozen build starts the sandbox as its own executable
        from .tools.nanogo.worker import main as worker_main

        return worker_main(argv[1:])
    if argv and argv[0] == "--llama-server":  # a frozen build that carries llama-cpp-python runs it so
        from .localmodel import serve_main

        return serve_main(argv[1:])
    if argv and (argv[0] in VERBS or argv[0] in ("-h", "--help", "--version")):
        from .cli import main as cli_main

        return cli_main(argv)
    from .app import main as app_main

    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main())
