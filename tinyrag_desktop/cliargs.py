"""The command line's shared flags, and how they turn into settings and a data folder."""

from __future__ import annotations

import argparse
import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from .paths import DataDirError, resolve_data_dir, tighten_old_modes
from .settings import OPTIONS, Settings, SettingsError, load_settings, port_problem

# The API key from the environment, when --api-key is not given: a key on the command line is seen by every
# user of the machine (ps, /proc/PID/cmdline) and kept in the shell's history.
API_KEY_ENV = "TINYRAG_API_KEY"

# flag → settings key; each overrides the settings file for this run only.
_FLAG_KEYS = {
    "base_url": "base_url",
    "model": "chat_model",
    "api_key": "api_key",
    "temperature": "temperature",
    "allow_nanogo": "allow_nanogo",
    "allow_shell_exec": "allow_shell_exec",
    "max_tools_total": "max_tools_total",
    "max_tools_per_round": "max_tools_per_round",
    "first_token_timeout": "first_token_timeout",
    "max_continuations": "max_continuations",
    "tool_timeout": "tool_timeout",
    "max_tokens": "max_tokens",
    "context_tokens": "context_tokens",
    "offline": "network_tools",
}


def _limit(what: str, key: str) -> str:
    """A limit's help: what it is, its range and its default, as the settings' schema has them."""
    opt = OPTIONS[key]
    return (f"{what}, {opt.minimum:g} to {opt.maximum:g} (default: as saved in Settings, at first "
            f"{opt.default:g})")


def add_shared_flags(parser: argparse.ArgumentParser, title: str = "shared options") -> None:
    """The flags every verb takes (DESIGN: Headless command line)."""
    g = parser.add_argument_group(title)
    g.add_argument("--base-url", metavar="URL", help="OpenAI-compatible root, e.g. http://127.0.0.1:11434/v1")
    g.add_argument("--model", metavar="NAME", help="chat model name")
    g.add_argument("--api-key", metavar="KEY",
                   help=f"API key sent as a Bearer token (default: ${API_KEY_ENV}, else as saved in Settings); a "
                        f"key on the command line shows in the process list and the shell's history, "
                        f"${API_KEY_ENV} does not")
    g.add_argument("--temperature", type=float, metavar="T", help=_limit("sampling temperature", "temperature"))
    g.add_argument("--data-dir", metavar="DIR", help="settings, knowledge base and chats live here")
    g.add_argument("--allow-nanogo", action="store_true", default=None, help="let the model run Go code")
    g.add_argument("--allow-shell-exec", action="store_true", default=None, help="let the model run commands")
    g.add_argument("--max-tools-total", type=int, metavar="N",
                   help=_limit("most tool calls in one answer", "max_tools_total"))
    g.add_argument("--max-tools-per-round", type=int, metavar="N",
                   help=_limit("most tool calls in one round (one reply of the model)", "max_tools_per_round"))
    g.add_argument("--max-continuations", type=int, metavar="N",
                   help=_limit("most rounds after the first, each answering the tools' results",
                               "max_continuations"))
    g.add_argument("--tool-timeout", type=float, metavar="SECONDS",
                   help=_limit("seconds a tool may run before it is stopped", "tool_timeout"))
    g.add_argument("--max-tokens", type=int, metavar="N",
                   help=_limit("longest reply per round, in tokens (0: the server's own limit)", "max_tokens"))
    g.add_argument("--context-tokens", type=int, metavar="N",
                   help="how much of a chat to send at once, in tokens (0: as much as the server says the model "
                        "holds)")
    g.add_argument("--first-token-timeout", type=float, metavar="SECONDS",
                   help=_limit("seconds to wait for the model's first words (a model the server loads first is "
                               "slow)", "first_token_timeout"))
    g.add_argument("--offline", action="store_false", default=None,
                   help="network off: the network tools (url_fetch, websearch, wikipedia) are not offered, "
                        "and kb add downloads no web page or article")


# The top line of the window's and the command line's usage: the whole list of flags (10 lines) buried the
# error under it; --help lists them.
TOP_USAGE = "%(prog)s [window options] [shared options]\n       %(prog)s VERB [options] ..."


class CommandParser(argparse.ArgumentParser):
    """The parsers of the verbs and of ``kb``: a mistyped command (``kb serach``) is said with the one it looks
    like, as a mistyped verb is ("aks": did you mean ask?); argparse said "invalid choice: 'serach' (choose
    from 'add', 'search', 'list', 'remove')"."""

    def _check_value(self, action: argparse.Action, value: object) -> None:
        if isinstance(action, argparse._SubParsersAction) and value not in action.choices:
            import difflib

            named = self.prog.partition(" ")[2] + " " if " " in self.prog else ""  # "kb " in "tinyrag-desktop kb"
            close = difflib.get_close_matches(str(value), list(action.choices), n=1, cutoff=0.5)
            hint = f" (did you mean {named}{close[0]}?)" if close else ""
            raise argparse.ArgumentError(None, f"unknown command {value!r}{hint}; the {named}commands are "
                                               f"{', '.join(action.choices)}")
        super()._check_value(action, value)


def add_window_flags(parser: argparse.ArgumentParser, title: str | None = None) -> None:
    """The window's own flags (without a verb): in its parser, and listed by the top ``--help``."""
    g = parser.add_argument_group(title) if title else parser
    g.add_argument("--ask", metavar="QUESTION", help="send this question once the window is open")
    g.add_argument("--screenshot", metavar="FILE.png",
                   help="with --ask: save a picture of the window when the answer is done, then exit "
                        "(.png, .jpg or .bmp, by the file name)")
    g.add_argument("--size", metavar="WxH", help="window size, e.g. 1180x780 (default: as last time)")


def close_flags(parser: argparse.ArgumentParser, words: list[str]) -> list[str]:
    """The flags ``parser`` has that look like the mistyped ``words`` (--max-tool-calls: --max-tools-total),
    for an "unrecognized arguments" message; never a word's own flag (one typed after "--", where it is
    text): "did you mean --jsonl?" of --jsonl told nothing."""
    import difflib

    known = [option for action in parser._actions for option in action.option_strings if option.startswith("--")]
    meant: list[str] = []
    for word in words:
        if word.startswith("--") and len(word) > 3 and word.partition("=")[0] not in known:
            meant += [m for m in difflib.get_close_matches(word.partition("=")[0], known, n=1, cutoff=0.6)
                      if m not in meant]
    return meant


class DataFolderError(SettingsError):
    """The data folder cannot be used (a file in its place, a folder that cannot be made): the window says it
    in a box as well, for someone who started it from a menu and sees no console."""


@dataclass(frozen=True)
class Context:
    """What a verb runs with: the data folder, the effective settings, and warnings to show."""

    data_dir: Path
    settings: Settings
    warnings: tuple[str, ...]


def context_from_args(args: argparse.Namespace, *, create: bool = True, keep_aside: bool = False) -> Context:
    """Load the settings file from the data folder and apply the flags; raises SettingsError on bad flags
    (an unusable --data-dir included). With ``create`` False a missing data folder is not created.
    ``keep_aside``: for the window, which saves the settings: a damaged file is moved aside (load_settings)."""
    given = getattr(args, "data_dir", None)
    try:
        data_dir = resolve_data_dir(given, create=create)
    except DataDirError as exc:
        raise DataFolderError(f"--data-dir: {exc}" if given is not None else str(exc)) from None
    if create:
        # Before the settings are read, so what reading them logs (a damaged file) reaches the log file.
        # Reading verbs (create False) write nothing in the data folder, a log included.
        from .logsetup import configure

        configure(data_dir)
        tighten_old_modes(data_dir)  # an older version's files, readable by all: once, said in the log
    settings, warnings = load_settings(data_dir, keep_aside=keep_aside)
    _check_port(getattr(args, "base_url", None))
    for flag, key in _FLAG_KEYS.items():
        value, name = getattr(args, flag, None), "--" + flag.replace("_", "-")
        if flag == "api_key" and value is None:
            value, name = os.environ.get(API_KEY_ENV, "").strip() or None, API_KEY_ENV
        if value is not None:
            try:
                settings = settings.replace(**{key: value})
            except SettingsError as exc:  # said as the flag that was typed: "--base-url must be …"
                from .tool_words import command_line_words

                said = command_line_words(str(exc))
                raise SettingsError(said.replace(key, name, 1) if said.startswith(key) else
                                    f"{name}: {said}") from None
    return Context(data_dir, settings, tuple(warnings))


def unwatched(args: argparse.Namespace, ctx: Context) -> tuple[Context, bool]:
    """For a run no one watches (``ask``, the window's ``--ask``): ``ctx`` with the shell off unless this command
    line says --allow-shell-exec, and whether a saved setting that had it on was held back. The setting was
    saved in the window, where every command is shown first; here no one can be asked, so the model's commands
    would run unseen."""
    held = bool(ctx.settings["allow_shell_exec"] and not getattr(args, "allow_shell_exec", None))
    if held:
        ctx = dataclasses.replace(ctx, settings=ctx.settings.replace(allow_shell_exec=False))
    return ctx, held


def _check_port(base_url: str | None) -> None:
    """Refuse a --base-url whose port no server can have (http://127.0.0.1:99999/v1), saying so: the
    settings' check said only that it was no http:// address."""
    problem = port_problem(base_url or "")
    if problem:
        raise SettingsError(f"--base-url {base_url}: {problem}")
