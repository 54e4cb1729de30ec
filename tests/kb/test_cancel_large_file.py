"""Cancel during a large file named by itself stops at once. The readers of text, HTML, CSV, JSON and XML do
not stop midway: Cancel waited for them to finish, 3 s into a 60 MB CSV file and 7 s into an XML file of that
size (a 50 MB JSON file: 1.8 s), before anything could be stopped. Such a file is now read in a reader
process, which Cancel ends."""

from __future__ import annotations

import threading
import time

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb import readers


def test_cancel_while_a_large_csv_file_is_read_stops_at_once(data_dir, tmp_path, monkeypatch):
    table = tmp_path / "orders.csv"
    table.write_text("order,item\n" + "".join(f"{n},heron feeder number {n}\n" for n in range(250_000)))
    assert table.stat().st_size > 6 * 2**20

    def never_done(data, name):  # a reader busy as with a file of gigabytes (read in this process only)
        time.sleep(30)
        raise AssertionError("read in the importing process, which Cancel cannot stop")

    monkeypatch.setitem(readers._READERS, "csv", never_done)
    cancel = threading.Event()
    asked: list[float] = []

    def progress(p):
        if p.current == str(table) and not asked:  # the file is about to be read: cancel while it is
            asked.append(time.monotonic())
            threading.Timer(0.3, cancel.set).start()

    with open_store(data_dir) as kb:
        report = Importer(kb, cancel=cancel, on_progress=progress).run([str(table)])
        stored = kb.sources()
    assert report.cancelled and not report.added and not report.failed and stored == []
    assert time.monotonic() - asked[0] < 5
