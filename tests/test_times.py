"""Stored times no calendar holds (after 9999, before year 1, no number) give no date rather than an error,
wherever one is turned into a date: the chats list's headings and times, kb list's times, an import's mark."""

from __future__ import annotations

import datetime
import json
import re
import time

import pytest
from hypothesis import given, settings as hsettings
from hypothesis import strategies as st

from tinyrag_desktop.kb.store import local_time
from tinyrag_desktop.times import local_clock, local_date

# the last second of 9999 in UTC, in the year 10000 in New Zealand's Chatham Islands (UTC+13:45)
LAST_SECOND = 253402300799
FAR = [LAST_SECOND, 1e12, 1e300, -1e300, 10**400, float("inf"), float("-inf"), float("nan"), "soon", None, b"x"]


@pytest.fixture(params=["UTC", "Pacific/Chatham", "Pacific/Pago_Pago"])
def zone(request, monkeypatch):
    if not hasattr(time, "tzset"):
        pytest.skip("time zones are set by TZ on POSIX only")
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


_ANY_TIME = st.one_of(st.floats(), st.integers(), st.integers(min_value=-10**20, max_value=10**20),
                      st.sampled_from(FAR))
_HEADING = re.compile(r"Later|Long ago|Today|Yesterday|Previous 7 days|Previous 30 days|[A-Z][a-z]+ \d{1,4}")


@hsettings(max_examples=300, deadline=None)
@given(_ANY_TIME)
def test_any_stored_time_gives_a_day_or_none_and_a_heading(value) -> None:
    from tinyrag_desktop.ui.chat_list import _when, day_group

    day = local_date(value)
    assert day is None or isinstance(day, datetime.date)
    assert (local_clock(value) is None) == (day is None)
    assert _HEADING.fullmatch(day_group(value)), day_group(value)
    assert isinstance(_when(value), str) and _when(value)


@pytest.mark.parametrize("value, heading", [
    (LAST_SECOND, "Later"), (1e12, "Later"), (1e300, "Later"), (10**400, "Later"), (float("inf"), "Later"),
    (-1e300, "Long ago"), (float("-inf"), "Long ago"), (float("nan"), "Long ago"), ("soon", "Long ago"),
    (None, "Long ago"), (b"x", "Long ago")])
def test_times_beyond_the_calendar_are_headed_later_or_long_ago(zone, value, heading) -> None:
    from tinyrag_desktop.ui.chat_list import day_group

    assert day_group(value) == heading


def test_kb_times_beyond_the_calendar_are_shown_as_stored(zone) -> None:
    for stamp in ("9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"):
        shown = local_time(stamp)
        assert shown == stamp or re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", shown), shown


def test_an_import_mark_from_beyond_the_calendar_is_still_said(tmp_path, zone) -> None:
    from tinyrag_desktop.kb.unfinished import SUFFIX, cut_short

    mark = {"pid": 2**22 + 12345, "started": 1e300, "total": 10, "done": 4, "asked": ["notes"]}
    (tmp_path / f"import-1{SUFFIX}").write_text(json.dumps(mark))
    [said] = cut_short(tmp_path)
    assert "started earlier" in said, said
