"""nanoGo: a sandboxed Go interpreter in pure Python (tree-sitter front end, compiled to Python closures).

    run_sandboxed(source, timeout=10.0) -> RunResult(stdout, stderr, exit_code, status)
    await run_sandboxed_async(source, timeout=10.0)

Importing this package is cheap: the compiler and runtime load only inside the worker process.
"""

__all__ = ["RunResult", "run_sandboxed", "run_sandboxed_async", "WORKER_FLAG"]


def __getattr__(name):  # lazy, so the worker process does not load the parent's machinery
    if name in __all__:
        from . import sandbox
        return getattr(sandbox, name)
    raise AttributeError(name)
