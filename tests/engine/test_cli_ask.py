"""`python -m tinyrag_desktop ask` as a user runs it, against the loopback scripted server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.sse_server import ScriptedLLMServer, Status, Stream, free_port
from tinyrag_desktop.cliprint import INTERRUPTED

BLOCK = '<tool name="calculate"><query>6 * 7</query></tool>'


def ask(server_url: str, data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "tinyrag_desktop", "ask", "What is 6 * 7?", "--base-url", server_url,
         "--model", "scripted", "--data-dir", str(data_dir), *args],
        capture_output=True, text=True, timeout=60, env=env,
    )


def test_ask_jsonl_prints_one_event_per_line(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Computing ", *BLOCK, " now."]), Stream(["It is ", "42."]))
        proc = ask(llm.base_url, tmp_path, "--jsonl")
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    names = [e["event"] for e in events]
    assert names[0] == "route" and names[-1] == "done"
    assert names.index("tool_start") < names.index("tool_result")
    result = next(e for e in events if e["event"] == "tool_result")
    assert result["status"] == "ok" and result["result"] == "6 * 7 = 42" and result["id"] == next(
        e for e in events if e["event"] == "tool_start")["id"]
    text = "".join(e["text"] for e in events if e["event"] == "text")
    assert text == "Computing  now.\n\nIt is 42."
    assert proc.stderr == ""


def test_ask_streams_text_and_tool_status_lines(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Computing ", *BLOCK]), Stream(["It is 42."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0
    assert "It is 42." in proc.stdout and "<tool" not in proc.stdout
    assert "⟳ calculate: 6 * 7" in proc.stderr and "✓ calculate “6 * 7” = 42" in proc.stderr.splitlines()


def test_server_down_exits_non_zero_with_a_plain_message(tmp_path: Path) -> None:
    proc = ask(f"http://127.0.0.1:{free_port()}/v1", tmp_path)
    assert proc.returncode == 1
    assert "cannot be reached" in proc.stderr and "Traceback" not in proc.stderr


def test_server_error_exits_non_zero(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Status(500, {"error": {"message": "boom"}}))
        proc = ask(llm.base_url, tmp_path, "--jsonl")
    assert proc.returncode == 1
    errors = [json.loads(l) for l in proc.stdout.splitlines() if json.loads(l)["event"] == "error"]
    assert "boom" in errors[0]["message"]


def test_bad_flag_value_is_refused_in_words(tmp_path: Path) -> None:
    proc = ask("http://127.0.0.1:9/v1", tmp_path, "--max-tools-total", "-1")
    assert proc.returncode == 2
    assert "--max-tools-total must be at least 0" in proc.stderr and "Traceback" not in proc.stderr


def test_damaged_settings_warn_and_continue(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{broken")
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["fine"]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0 and "fine" in proc.stdout
    assert "warning:" in proc.stderr and "damaged" in proc.stderr
    # ask saves no settings: the file is left for the user to correct, or for the window to keep aside
    assert (tmp_path / "settings.json").read_text() == "{broken" and not (tmp_path / "settings.json.bad").exists()


def test_ctrl_c_stops_the_answer_and_says_so(tmp_path: Path) -> None:
    import signal

    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["word "] * 400, delay=0.02))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "Tell me a story", "--base-url", llm.base_url,
             "--model", "scripted", "--data-dir", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.read(5) == "word "  # the answer is streaming
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    # no blank line before it: the answer stopped mid-line, but on a pipe of its own (there was one)
    assert err == "Stopped.\n"
    assert out.count("word") < 400


def test_ctrl_c_ends_ask_jsonl_with_an_interrupted_error_line(tmp_path: Path) -> None:
    # The lines just stopped: a consumer could not tell a stop from a crash
    import signal

    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["word "] * 400, delay=0.02))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "Tell me a story", "--jsonl", "--base-url",
             llm.base_url, "--model", "scripted", "--data-dir", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        assert proc.stdout is not None
        seen = []
        while not seen or seen[-1]["event"] != "text":  # the answer is streaming
            line = proc.stdout.readline()
            assert line, proc.communicate(timeout=30)[1]
            seen.append(json.loads(line))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    events = seen + [json.loads(line) for line in out.splitlines()]
    assert events[-1] == {"event": "error", "message": "Stopped.", "kind": "interrupted"}
    assert [e["event"] for e in events].count("error") == 1 and "done" not in [e["event"] for e in events]
    assert sum(e["event"] == "text" for e in events) < 400  # stopped, not answered whole
    assert err == ""  # with --jsonl an error is said on standard output only


def _ask_over_notes(tmp_path: Path, notes: dict[str, str], question: str,
                    *replies: Stream) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    """``ask QUESTION`` over a knowledge base of ``notes`` (file name → text), the model's ``replies`` scripted:
    the finished process and the requests the model server got."""
    from tinyrag_desktop.kb import Importer, open_store

    for name, text in notes.items():
        (tmp_path / name).write_text(text)
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / name) for name in notes])
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    with ScriptedLLMServer() as llm:
        llm.queue(*replies)
        proc = subprocess.run(
            [sys.executable, "-m", "tinyrag_desktop", "ask", question, "--base-url", llm.base_url, "--model",
             "scripted", "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60, env=env)
        return proc, list(llm.requests)


def test_plain_ask_lists_the_sources_the_answer_used_on_stderr(tmp_path: Path) -> None:
    notes = {"leave.md": "# Leave\n\nEvery employee gets 27 vacation days, booked in the HR portal.\n",
             "parking.md": "# Parking\n\nEmployees park in garage B; days without a space are rare.\n"}
    proc, requests = _ask_over_notes(tmp_path, notes, "How many vacation days do employees get?",
                                     Stream(["Twenty-seven, ", "booked in the HR portal."]))
    system = requests[0]["messages"][0]["content"]
    assert proc.returncode == 0, proc.stderr
    assert "27 vacation days" in system and "garage B" in system
    assert proc.stdout == "Twenty-seven, booked in the HR portal.\n"  # the answer alone
    # both notes went into the prompt; the answer drew on one, listed with the number the prompt gave it
    leave = (tmp_path / "leave.md").resolve()
    number = re.search(rf"^\[(\d)\] [^\n]*\nSource: [^\n]*\({re.escape(str(leave))}\)$", system, re.M).group(1)
    assert proc.stderr == f"Sources:\n  [{number}] {leave}\n"


def test_ask_numbers_the_sources_a_search_found_as_the_model_was_told(tmp_path: Path) -> None:
    notes = {"leave.md": "# Leave\n\nEvery employee gets 27 vacation days, booked in the HR portal.\n",
             "parking.md": "# Parking\n\nEmployees park in garage B; the gate opens with the badge.\n"}
    proc, requests = _ask_over_notes(
        tmp_path, notes, "What is 2 + 2?",
        Stream(['<tool name="rag_knowledge"><query>garage gate badge</query></tool>']),
        Stream(["Use your badge at garage B [1]."]))
    result = requests[-1]["messages"][-1]["content"]
    assert proc.returncode == 0, proc.stderr
    parking = (tmp_path / "parking.md").resolve()
    assert f"[1] Parking\nSource: Parking ({parking})" in result
    assert proc.stderr.endswith(f"Sources:\n  [1] {parking}\n"), proc.stderr


def test_the_prompt_says_which_of_the_questions_numbers_and_names_no_passage_holds(tmp_path: Path) -> None:
    # "Was invoice 99817 paid?" put the invoices' passages into the prompt with no word that none of them is
    # invoice 99817: a model answered "Yes, invoice 99817 was paid by bank transfer [1]."
    notes = {"invoices.md": "# Invoices\n\nInvoice 10442 was paid by bank transfer in March. "
                            "Invoice 10443 is still open.\n"}
    proc, requests = _ask_over_notes(tmp_path, notes, "Was invoice 99817 paid quickly?",
                                     Stream(["The knowledge base has no invoice 99817."]))
    system = requests[0]["messages"][0]["content"]
    assert proc.returncode == 0, proc.stderr
    assert "Invoice 10442 was paid" in system  # the route put the passages into the prompt
    assert "No passage mentions “99817”: these match the other words." in system
    assert "“quickly”" not in system  # an everyday word none of them holds is no news


def test_no_sources_are_listed_when_the_server_gave_no_answer(tmp_path: Path) -> None:
    # With the server down, "Sources:" and the knowledge base's passages followed the error, as if an
    # answer had drawn on them.
    from tinyrag_desktop.kb import Importer, open_store

    (tmp_path / "leave.md").write_text("# Leave\n\nEvery employee gets 27 vacation days.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "leave.md")])
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "tinyrag_desktop", "ask", "How many vacation days do employees get?",
         "--base-url", f"http://127.0.0.1:{free_port()}/v1", "--model", "scripted", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 1
    assert "cannot be reached" in proc.stderr
    assert "Sources" not in proc.stderr and "leave.md" not in proc.stderr


def test_an_empty_question_is_refused_before_the_server_is_asked(tmp_path: Path) -> None:
    # `ask ""` (an empty shell variable, a stray pair of quotes) sent the model an empty message and
    # printed whatever it made up, with exit status 0; the window's --ask refuses it (exit 2).
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["made up"]))
        for question in ("", "  \n "):
            proc = subprocess.run(
                [sys.executable, "-m", "tinyrag_desktop", "ask", question, "--base-url", llm.base_url,
                 "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
            assert proc.returncode == 2, proc.stdout
            assert "error: the question is empty" in proc.stderr and proc.stdout == ""
        assert llm.requests == []


def test_reasoning_the_chat_template_opened_is_said_to_be_reasoning(tmp_path: Path) -> None:
    # The reply starts inside reasoning only its </think> shows: printed already, it is named for what it
    # was, and the answer follows; --jsonl carries the retract event.
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Six sevens", ".\n</th", "ink>\n\n", "It is 42."]))
        proc = ask(llm.base_url, tmp_path)
        llm.queue(Stream(["Six sevens", ".\n</th", "ink>\n\n", "It is 42."]))
        jsonl = ask(llm.base_url, tmp_path / "another", "--jsonl")
        llm.queue(Stream(["Six sevens", ".\n</th", "ink>\n\n", "It is 42."]))
        again = ask(llm.base_url, tmp_path)  # the data folder remembers: it starts as reasoning
    assert proc.returncode == 0, proc.stderr
    # the blank lines after </think> are not printed: two came before the answer
    assert proc.stdout == "Six sevens.\nIt is 42.\n" and "</think>" not in proc.stdout
    assert "(the text above was the model's reasoning; its answer follows)" in proc.stderr
    events = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert {"event": "retract", "text": "Six sevens.\n", "channel": "text"} in events
    assert "".join(e["text"] for e in events if e["event"] == "reasoning") == "Six sevens.\n"
    assert again.stdout == "It is 42.\n" and "the text above" not in again.stderr


def test_reasoning_closed_in_the_middle_of_a_line_is_said_to_be_reasoning(tmp_path: Path) -> None:
    # "…is 42.</think>It is 42.", the tag cut between two pieces: printed as one line "…is 42.It is 42.",
    # with "</think>" in it before the splitter read a close anywhere but at a line's start
    pieces = ["Six sevens is 42.</th", "ink>It is ", "**42**."]
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(pieces))
        proc = ask(llm.base_url, tmp_path)
        llm.queue(Stream(pieces))
        jsonl = ask(llm.base_url, tmp_path / "another", "--jsonl")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Six sevens is 42.\nIt is **42**.\n"  # the answer on a line of its own
    assert "(the text above was the model's reasoning; its answer follows)" in proc.stderr
    events = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert {"event": "retract", "text": "Six sevens is 42.", "channel": "text"} in events
    assert "".join(e["text"] for e in events if e["event"] == "reasoning") == "Six sevens is 42."
    assert events[-1]["event"] == "done" and events[-1]["transcript"] == "It is **42**."


def test_a_reply_of_reasoning_sent_apart_and_a_bare_close_that_ran_out_says_it_only_reasoned(tmp_path: Path) -> None:
    # reasoning_content, then "</think>" alone in the text, then finish_reason "length": it said "The answer
    # was cut short … The text so far is kept", of an answer that never began
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["</think>", "\n\n"], reasoning=["Six sevens ", "is 42."], finish="length"))
        proc = ask(llm.base_url, tmp_path, "--jsonl", "--max-tokens", "64")
    assert proc.returncode == 1
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    (error,) = [e for e in events if e["event"] == "error"]
    assert error["message"].startswith("The model only reasoned and gave no answer") and "64 tokens" in error["message"]
    assert "".join(e["text"] for e in events if e["event"] == "reasoning") == "Six sevens is 42."


def test_a_damaged_knowledge_base_is_said_on_stderr_and_the_answer_comes(tmp_path: Path) -> None:
    (tmp_path / "knowledge.db").write_bytes(b"SQLite format 3\x00" + b"\x00garbage" * 600)
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Twenty-seven."]))
        proc = subprocess.run(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "How many vacation days do I get?", "--base-url",
             llm.base_url, "--model", "scripted", "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0 and proc.stdout == "Twenty-seven.\n"
    assert "warning: The knowledge base" in proc.stderr and "cannot be read" in proc.stderr
    assert "Answering without it." in proc.stderr and "Traceback" not in proc.stderr


def test_a_shell_saved_on_but_held_back_by_ask_gives_the_model_the_reason_that_is_true(tmp_path: Path) -> None:
    # With "allow_shell_exec": true saved, `ask` turns the shell off (no one can be asked), but told the
    # model, and the user, to "enable 'Allow shell commands' in Settings", which was on already.
    (tmp_path / "settings.json").write_text(json.dumps({"allow_shell_exec": True}))
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['<tool name="shell"><query>ls</query></tool>']), Stream(["No listing, then."]))
        proc = ask(llm.base_url, tmp_path, "--jsonl")
    assert proc.returncode == 0, proc.stderr
    result = next(json.loads(line) for line in proc.stdout.splitlines()
                  if json.loads(line)["event"] == "tool_result")
    assert result["status"] == "error"
    assert result["error"] == ("The tool shell is disabled: `ask` cannot ask you before each command, so it runs "
                               "them only with --allow-shell-exec.")
    assert "add --allow-shell-exec" in proc.stderr


def test_each_result_line_names_its_call_and_a_tool_that_is_off_says_off(tmp_path: Path) -> None:
    calls = "".join(f'<tool name="calculate"><query>{n}+{n}</query></tool>' for n in range(1, 6))
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([calls, '<tool name="shell"><query>ls</query></tool>']), Stream(["Done."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert "✓ calculate “1+1” = 2" in lines
    skipped = [line for line in lines if "skipped" in line]
    assert [line.split("”")[0] for line in skipped] == ["⤼ calculate “4+4", "⤼ calculate “5+5"]
    (off,) = [line for line in lines if line.startswith("✗ shell")]  # an error, as the card and --jsonl say
    assert off.startswith("✗ shell “ls” off: ") and "disabled" not in off.split(":", 1)[0]


def test_a_command_that_failed_says_its_exit_status_on_its_line(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['<tool name="shell"><query>ls /no-such-folder-tinyrag</query></tool>']), Stream(["It failed."]))
        proc = ask(llm.base_url, tmp_path, "--allow-shell-exec")
    assert proc.returncode == 0, proc.stderr
    (line,) = [line for line in proc.stderr.splitlines() if line.startswith("✓ shell")]
    assert line.endswith("The command ended with exit status 2.")


def test_offline_names_the_flag_not_a_setting_that_is_on(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['<tool name="websearch"><query>news</query></tool>']), Stream(["Offline, then."]))
        proc = ask(llm.base_url, tmp_path, "--offline", "--jsonl")
    assert proc.returncode == 0, proc.stderr
    result = next(json.loads(line) for line in proc.stdout.splitlines()
                  if json.loads(line)["event"] == "tool_result")
    assert result["error"] == ("The tool websearch is disabled: network tools are off for this question "
                               "(--offline); leave out --offline to use them.")


def test_max_tokens_flag_limits_the_reply_and_a_reasoning_only_reply_names_it(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([], reasoning=["Thinking ", "on and on."], finish="length"))
        proc = ask(llm.base_url, tmp_path, "--max-tokens", "64")
        body = llm.requests[-1]
    assert body["max_tokens"] == 64
    assert proc.returncode == 1
    assert "only reasoned" in proc.stderr and "64 tokens" in proc.stderr and "--max-tokens" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_readme_names_every_event_ask_jsonl_prints() -> None:
    # `retract` came in --jsonl unexplained: a consumer showed as answer the reasoning it takes back
    import typing

    from tinyrag_desktop.engine import events

    printed = {kind.event for kind in typing.get_args(events.EngineEvent) if not getattr(kind, "progress", False)}
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    listed = re.search(r'line `\{"event": NAME, \.\.\.\}`: ((?:`\w+`, )+`\w+`)', readme)
    assert listed is not None
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == printed


def test_a_tool_call_shown_as_text_is_said_not_run_with_its_reason(tmp_path: Path) -> None:
    # The window says "(a tool call not run: …)" after such a block; `ask` printed it with no word.
    broken = '<tool name=""><query>6*7</query></tool>'
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Let me see: ", broken[:9], broken[9:], " It is 42."]), Stream(["It is 42."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert broken in proc.stdout and "not run" not in proc.stdout  # stdout stays the answer as written
    said = [line for line in proc.stderr.splitlines() if line.startswith("(a tool call not run: ")]
    assert len(said) == 1 and "name" in said[0], proc.stderr


def test_a_call_in_another_format_is_said_not_run_on_stderr_and_stdout_stays_the_answer(tmp_path: Path) -> None:
    # The window says why after the call; `ask` writes it with its status lines, between the two rounds.
    written = '<tool_call>\n{"name": "calculate", "arguments": {"query": "6*7"}}\n</tool_call>'
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([written[:20], written[20:]]), Stream(['<tool name="calculate"><query>6*7</query></tool>']),
                  Stream(["It is 42."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(written) and proc.stdout.rstrip().endswith("It is 42.")
    assert "not run" not in proc.stdout and "*(" not in proc.stdout
    said = [line for line in proc.stderr.splitlines() if "not run" in line]
    assert said == ["(the tool call above was not run: it is written in another app's format; the model was asked "
                    "again)"], proc.stderr


def test_the_readme_names_every_kind_of_error_ask_jsonl_prints() -> None:
    # `kind` was documented nowhere: a consumer of --jsonl could only guess "server_error" from a run
    from tinyrag_desktop.engine import errors

    def kinds(cls: type) -> set[str]:
        return {sub.kind for sub in cls.__subclasses__()} | {k for sub in cls.__subclasses__() for k in kinds(sub)}

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    said = readme.split("`error` has `message`", 1)[1].split("\n\n", 1)[0]
    assert kinds(errors.LLMError) | {INTERRUPTED} <= set(re.findall(r"`(\w+)`", said)), said


def test_the_readme_names_every_field_of_the_done_event() -> None:
    from dataclasses import fields

    from tinyrag_desktop.engine.events import Done

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`done` comes last, after an `error` too: (.*?)`done` does not say", readme, re.S)
    assert said is not None
    named = set(re.findall(r"`(\w+)`", said.group(1)))
    assert {f.name for f in fields(Done)} <= named  # a new field (shortened) went unsaid


def test_the_readme_names_every_field_of_tool_start_and_tool_result() -> None:
    # README named the events and done's fields, not param, round, raw or result, which --jsonl prints too
    from dataclasses import fields

    from tinyrag_desktop.engine.events import ToolFinished, ToolStarted

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for kind in (ToolStarted, ToolFinished):
        said = re.search(rf"`{kind.event}` has (.*?)\.(?:\s|$)", readme, re.S)
        assert said is not None, kind.event
        assert {f.name for f in fields(kind)} <= set(re.findall(r"`(\w+)`", said.group(1))), kind.event


def _ask_jsonl(server_url: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """`ask --jsonl` with no --model, its output written as a C.UTF-8 locale writes it ("surrogateescape")."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:surrogateescape"}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "Hi", "--jsonl", "--base-url", server_url,
                           "--data-dir", str(data_dir)], capture_output=True, text=True, timeout=60, env=env)


def test_half_a_character_from_the_settings_or_the_server_is_no_traceback(tmp_path: Path) -> None:
    # {"chat_model": "a\ud800"} in settings.json: "UnicodeEncodeError: … surrogates not allowed" (the fuzzing
    # review's case); a server's model name, error or reasoning holding "\ud800" are outside text as well
    from tests.sse_server import Raw

    (tmp_path / "settings.json").write_text('{"chat_model": "a\\ud800"}', encoding="utf-8")
    with ScriptedLLMServer(models=("m\ud800",)) as llm:
        llm.queue(Raw(['data: {"choices": [{"delta": {"reasoning_content": "hm \\ud800.", '
                       '"content": "Hi \\ud800 there"}}]}\n\n', 'data: {"error": {"message": "broke \\ud800 here"}}\n\n']))
        proc = _ask_jsonl(llm.base_url, tmp_path)
    assert "Traceback" not in proc.stderr and "chat_model holds half of a character" in proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "".join(e["text"] for e in events if e["event"] == "text") == "Hi \ufffd there"
    assert "".join(e["text"] for e in events if e["event"] == "reasoning") == "hm \ufffd."
    (error,) = [e for e in events if e["event"] == "error"]
    assert "broke \ufffd here" in error["message"] and events[-1]["model"] == "m\ufffd"


def test_a_call_left_open_in_one_round_is_said_not_closed_and_the_next_round_is_not_part_of_it(tmp_path) -> None:
    # Round 2's "</tool>" closed round 1's call in the re-parse of the whole answer: `ask` said "the <query>
    # element is not closed", a reason the engine never gave, of a block that took in round 2's words.
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['Let me compute <tool name="calculate"><query>2+2']),
                  Stream(["Oops, I forgot the closing </tool> tag. Anyway, 2+2 is 4."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.startswith("(a tool call not run: ")]
    assert said == ["(a tool call not run: the block was not closed with </tool> before the end)"], proc.stderr


def test_a_tool_that_is_off_names_the_flag_that_turns_it_on_to_the_model_and_the_user(tmp_path: Path) -> None:
    # The tools' reasons are the window's ("enable 'Allow Go code (nanoGo)' in Settings"): `ask` names its flag.
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['<tool name="nanogo"><source>fmt.Println(1)</source></tool>',
                          '<tool name="shell"><query>ls</query></tool>']), Stream(["Both are off."]))
        proc = ask(llm.base_url, tmp_path, "--jsonl")
        told = llm.requests[-1]["messages"][-1]["content"]
    assert proc.returncode == 0, proc.stderr
    errors = [json.loads(line)["error"] for line in proc.stdout.splitlines()
              if json.loads(line)["event"] == "tool_result"]
    assert errors == [
        "The tool nanogo is disabled: pass --allow-nanogo, or enable 'Allow Go code (nanoGo)' in Settings.",
        "The tool shell is disabled: pass --allow-shell-exec to let the model run commands."]
    assert "pass --allow-nanogo" in told and "pass --allow-shell-exec" in told


def test_a_program_left_open_in_one_round_is_said_not_closed_and_the_next_round_is_not_part_of_it(tmp_path) -> None:
    # A <source> holds blank lines of its own: only the round's start (Done.round_starts) tells where the
    # program's round ended. Read as one text, round 2's "</tool>" closed it: "the <source> element is not closed".
    program = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}'
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f'Let me run <tool name="nanogo"><source>{program}']),
                  Stream(["Oops, I forgot the closing </tool> tag. Anyway, it prints hi."]))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.startswith("(a tool call not run: ")]
    assert said == ["(a tool call not run: the block was not closed with </tool> before the end)"], proc.stderr


def test_a_call_with_a_blank_line_in_one_round_is_said_not_run_for_the_engines_reason(tmp_path) -> None:
    # No blank line is taken for a round's end: "not closed with </tool> before the end" was said of a block
    # closed in the same round, for which the engine told the model "the <query> element is not closed".
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['Let me compute <tool name="calculate"><query>2+2\n\nthat is</tool> After all, 2+2 is 4.']))
        proc = ask(llm.base_url, tmp_path)
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.startswith("(a tool call not run: ")]
    assert said == ["(a tool call not run: the <query> element is not closed)"], proc.stderr
