"""Where a round ended in an answer stored before rounds were kept, guessed in a Go program left open (see
markdown_prep.guessed_round_starts): found in time in a long program, and not inside the program's own code."""

from __future__ import annotations

import pytest

from tinyrag_desktop.markdown_prep import guessed_round_starts

OPEN = '<tool name="nanogo"><source>'
PROSE = "const help = `Usage: run it\n\nPrints the answer to the question.`\nfunc main() {}"


def test_a_long_run_of_blank_lines_is_read_once():
    # The sentence pattern was tried at each newline of a run, each time reading to the run's end: 20,000
    # newlines took 10 s, 40,000 took 50 s (when an old chat opened, on Copy and on Export); these 150,000
    # (under the 200,000 characters a call may have) some 12 minutes, past the suite's time limit.
    head = f"{OPEN}package main"
    assert guessed_round_starts(f"{head}\n" + "\n" * 150_000 + "func main() {}") == []
    assert guessed_round_starts(f"{head}\n" + "\n" * 150_000 + "The program prints nothing.") == [len(head)]


@pytest.mark.parametrize("before", [
    "var tick = '`'\n",  # a rune literal holding a backtick
    "var tick = '\\''\nvar other = '`'\n",  # and one holding a quote before it
    "// print a ` char\n",  # a line comment with one backtick
    'var s = "a ` in a string"\n',  # an interpreted string with one
    "var s = \"/* not a comment\"\n",  # a string holding what opens a block comment
])
def test_a_backtick_outside_code_opens_no_raw_string(before):
    assert guessed_round_starts(f"{OPEN}{before}{PROSE}") == []
    # and the round's end after the program is still found
    whole = f"{OPEN}{before}{PROSE}"
    assert guessed_round_starts(f"{whole}\n\nThe program prints its usage.") == [len(whole)]


def test_a_label_and_its_statement_on_one_line_are_the_program():
    labelled = f"{OPEN}package main\n\nfunc main() {{\n\nouter: for i := range 3 {{\n\tbreak outer\n}}\n}}"
    assert guessed_round_starts(labelled) == []
    # a sentence with a colon after its first word still ends the round
    assert guessed_round_starts(f"{labelled}\n\nNote: the loop runs three times.") == [len(labelled)]
