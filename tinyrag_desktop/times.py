"""Stored times turned into the user's calendar: any value a file or a database holds gives a date, or None
when it is no time a calendar holds (no number, or before year 1 or after 9999 in the local time zone), never
an error. A chat last used at 253402300799 (the last second of 9999 in UTC, in 10000 in New Zealand), 1e12 or
1e300 made the window fail at every start."""

from __future__ import annotations

import datetime
import math
import time
from typing import Any


def seconds(value: Any) -> float | None:
    """``value`` as a Unix time in seconds; None when it is no finite number."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int too large for a float
        return None
    return number if math.isfinite(number) else None


def local_date(value: Any) -> datetime.date | None:
    """The local calendar day of the Unix time ``value``; None when the calendar has none (see above)."""
    number = seconds(value)
    if number is None:
        return None
    try:
        return datetime.date.fromtimestamp(number)
    except (ValueError, OverflowError, OSError):  # year 0 or 10000; beyond time_t; Windows' negative times
        return None


def local_clock(value: Any) -> time.struct_time | None:
    """The local date and time of the Unix time ``value``, as time.localtime gives it; None when it has none."""
    number = seconds(value)
    if number is None or local_date(number) is None:
        return None
    try:
        return time.localtime(number)
    except (ValueError, OverflowError, OSError):
        return None
