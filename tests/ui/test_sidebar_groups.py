"""The chat list grouped under day headings (Today, Yesterday, …) that the keyboard and the mouse pass by."""

from __future__ import annotations

import datetime
import sqlite3
import time

from PySide6.QtCore import Qt

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore, ChatStoreError
from tinyrag_desktop.ui.chat_list import day_group

from .conftest import ask_and_wait, tokens, wait_signal, wait_until


def _at(days_ago: int, hour: int = 12) -> float:
    day = datetime.date.today() - datetime.timedelta(days=days_ago)
    at = datetime.datetime(day.year, day.month, day.day, hour).timestamp()
    if days_ago == 0 and hour:
        # Today at noon is still to come in the morning: a chat "used" then sorted above one used now (the
        # suite failed from midnight to noon). Earlier today instead, never before midnight.
        return max(datetime.datetime(day.year, day.month, day.day).timestamp(), min(at, time.time() - 1))
    return at


def test_day_groups_follow_the_local_calendar():
    now = _at(0, 0) + 60  # a minute past midnight: an hour before was yesterday
    assert day_group(now - 30, now) == "Today"
    assert day_group(now - 3600, now) == "Yesterday"
    assert day_group(_at(3), now) == "Previous 7 days"
    assert day_group(_at(20), now) == "Previous 30 days"
    old = datetime.date(2025, 3, 14)
    assert day_group(datetime.datetime(2025, 3, 14, 9).timestamp(), now) == f"March {old.year}"
    assert day_group(time.time() + 3600) == "Today"  # a clock set back: not "the future"


def test_the_list_shows_headings_and_arrows_skip_them(make_window, server, qloop, qtbot, tmp_path):
    data, ids = _aged_chats(tmp_path, {"today": 0, "yesterday": 1, "last week": 4, "long ago": 400})
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    assert side.titles() == ["today", "yesterday", "last week", "long ago"]
    long_ago = datetime.date.fromtimestamp(_at(400))
    months = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December")
    assert side.headings() == ["Today", "Yesterday", "Previous 7 days",
                               f"{months[long_ago.month - 1]} {long_ago.year}"]
    assert side.list.count() == 8  # a heading above each chat here
    heading = side.list.item(0)
    assert not heading.flags() & (Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
    # headings are drawn muted, lighter than the chats' titles (the list's style sheet once overrode that)
    win.resize(900, 600)
    shot = side.grab().toImage()  # the sidebar paints the background the list lets show through
    shot.save(str(tmp_path / "headings.png"))

    def darkest(item) -> int:
        rect = side.list.visualItemRect(item)
        rect.moveTopLeft(side.list.viewport().mapTo(side, rect.topLeft()))
        return min(shot.pixelColor(x, y).lightness() for x in range(rect.left(), rect.right())
                   for y in range(rect.top(), rect.bottom()))

    assert darkest(heading) > darkest(side.item_for(ids["today"])) + 40

    # the arrows go from chat to chat; a heading never becomes the current row
    side.list.setCurrentItem(side.item_for(ids["today"]))
    qloop.run(wait_until(lambda: win.chat_id == ids["today"] and not win.loading))
    side.list.setFocus()
    qtbot.keyClick(side.list, Qt.Key.Key_Down)
    assert side.current_id() == ids["yesterday"]
    qloop.run(wait_until(lambda: win.chat_id == ids["yesterday"] and not win.loading))
    qtbot.keyClick(side.list, Qt.Key.Key_Up)
    assert side.current_id() == ids["today"]
    # a click on a heading opens nothing
    qtbot.mouseClick(side.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=side.list.visualItemRect(side.list.item(2)).center())
    assert side.current_id() == ids["today"]


def test_search_results_have_no_day_headings(make_window, server, qloop, tmp_path):
    data = tmp_path / "chats"
    store = ChatStore(data)
    for text in ("pumpkin soup", "pumpkin pie"):
        store.add_user_message(store.new_chat().id, text)
    store.close()
    win = make_window(server.base_url, data_dir=data)
    # its start-up check of the server done first: a connection still being made when the test ends is
    # cancelled outside the running loop (qasync), and leaves its socket open
    qloop.run(wait_until(lambda: win.status.state in ("ok", "warn", "down")))
    assert win.sidebar.headings() == ["Today"]
    win.sidebar.search.setText("pumpkin")
    qloop.run(wait_until(lambda: win.sidebar.titles() and win.sidebar.list.count() == 2))
    assert win.sidebar.headings() == []


def test_a_hit_by_its_title_alone_has_no_day_heading_either(make_window, server, qloop, qtbot, tmp_path):
    # Its row has no snippet (no message holds the word): it was put under a "Today" heading, which in a
    # list ranked by how well each chat matches says nothing.
    data = tmp_path / "chats"
    store = ChatStore(data)
    store.add_user_message(store.new_chat(title="Pumpkin soup").id, "hello")
    store.add_user_message(store.new_chat(title="Dessert").id, "pumpkin pie")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    qloop.run(wait_until(lambda: win.status.state in ("ok", "warn", "down")))
    with qtbot.waitSignal(win.chat_search.found, timeout=10000):
        win.sidebar.search.setText("pumpkin")
    assert win.sidebar.titles() == ["Pumpkin soup", "Dessert"]  # the title holds the word: first
    assert win.sidebar.headings() == []


def test_the_undo_bar_shows_a_long_title_cut_to_fit_with_undo_beside_it(make_window, qtbot):
    win = make_window("http://127.0.0.1:9/v1")
    title = "Renamed" + "L" * 300  # one word: it cannot wrap
    chat = win.store.new_chat(title=title)
    win._refresh_chats()
    win.delete_chat(chat.id)
    bar, label = win.sidebar.undo_bar, win.sidebar.undo_label
    qtbot.waitUntil(lambda: bar.isVisible() and label.width() > 0)
    assert label.text().startswith("Deleted “Renamed") and "…" in label.text() and label.toolTip() == title
    needed = label.heightForWidth(label.width())
    assert label.height() >= needed and label.sizeHint().width() <= bar.width()  # nothing cut off
    assert win.sidebar.undo_button.geometry().right() <= bar.contentsRect().right()


def test_delete_in_the_list_keeps_the_keyboard_in_the_list(make_window, qloop, qtbot):
    win = make_window("http://127.0.0.1:9/v1")
    for title in ("Oldest", "Middle", "Newest"):
        win.store.new_chat(title=title)
    win._refresh_chats()
    ids = dict(zip(win.sidebar.titles(), win.sidebar.ids()))
    win.open_chat(ids["Middle"])
    win.composer.setPlainText("a draft")
    win.activateWindow()
    win.sidebar.list.setFocus()
    qtbot.waitUntil(win.sidebar.list.hasFocus)
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)
    assert win.sidebar.titles() == ["Newest", "Oldest"]
    # The focus stays in the list, on the chat now in its place, which is opened: the conversation showed
    # "New chat" while the list's ring sat on "Oldest" (as a mail program opens the next message).
    assert win.sidebar.list.hasFocus() and win.sidebar.list.currentItem().text() == "Oldest"
    assert win.chat_id == ids["Oldest"] and win.title_label.text() == "Oldest"
    assert [item.text() for item in win.sidebar.list.selectedItems()] == ["Oldest"]  # highlighted: it is open
    win.composer.setPlainText("another draft")
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)  # it erased a letter of the draft instead
    assert win.sidebar.titles() == ["Newest"] and win.sidebar.list.hasFocus()
    assert win.store.get_chat(ids["Oldest"]) is None  # deleted, as the draft was left as it was
    assert win.chat_id == ids["Newest"] == win.sidebar.current_id()  # the nearest above, at the list's end
    assert [item.text() for item in win.sidebar.list.selectedItems()] == ["Newest"]
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)  # the last one: a new chat, and no row current
    assert win.sidebar.titles() == [] and win.chat_id is None and win.sidebar.current_id() is None
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo: it comes back
    qtbot.waitUntil(lambda: win.sidebar.titles() == ["Newest"])
    assert win.chat_id == ids["Newest"] == win.sidebar.current_id()


def test_delete_in_the_list_of_a_chat_not_open_opens_none(make_window, qloop, qtbot):
    win = make_window("http://127.0.0.1:9/v1")
    for title in ("Oldest", "Middle", "Newest"):
        win.store.new_chat(title=title)
    win._refresh_chats()
    ids = dict(zip(win.sidebar.titles(), win.sidebar.ids()))
    win.new_chat()
    win.activateWindow()
    win.sidebar.list.setFocus()  # Tab into the list: its first chat ringed, not opened
    qtbot.waitUntil(win.sidebar.list.hasFocus)
    assert win.sidebar.current_id() == ids["Newest"] and win.chat_id is None
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)
    assert win.sidebar.titles() == ["Middle", "Oldest"] and win.chat_id is None
    assert win.sidebar.current_id() == ids["Middle"] and win.sidebar.list.hasFocus()
    assert win.sidebar.list.selectedItems() == []  # ringed as before, not highlighted: not open


def test_delete_in_the_list_of_a_chat_still_streaming_keeps_the_keyboard_in_the_list(make_window, server, qloop,
                                                                                      qtbot):
    win = make_window(server.base_url)
    for title in ("Oldest", "Middle"):
        win.store.new_chat(title=title)
    win._refresh_chats()  # made behind the window's back: listed as if they had been there when it opened
    server.queue(Stream(tokens("word " * 3000), delay=0.003))

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=15)
        win.composer.setPlainText("Talk for a while")
        win.send()
        await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 100)
        win.composer.setPlainText("a draft")
        win.activateWindow()
        win.sidebar.list.setFocus()
        await wait_until(win.sidebar.list.hasFocus)
        streaming = win.chat_id
        assert win.sidebar.current_id() == streaming
        qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)  # stops the answer, stores it, then deletes
        assert await finished == "stopped"
        await wait_until(lambda: streaming not in win.sidebar.ids())

    qloop.run(scenario())
    assert win.sidebar.titles() == ["Middle", "Oldest"]
    # As a normal Delete: the keyboard stays in the list, on the chat now in its place, which is opened.
    assert win.sidebar.list.hasFocus() and win.sidebar.list.currentItem().text() == "Middle"
    assert win.chat_id == win.sidebar.current_id() and win.title_label.text() == "Middle"
    assert [item.text() for item in win.sidebar.list.selectedItems()] == ["Middle"]
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)  # the chat in the list, not a letter of a draft
    assert win.sidebar.titles() == ["Oldest"] and win.chat_id == win.sidebar.current_id()


def _aged_chats(tmp_path, ages: dict[str, int]):
    """Chats, each named by its one question, last used the given number of days ago."""
    data = tmp_path / "chats"
    store = ChatStore(data)
    ids = {}
    for title, days in ages.items():
        chat = store.new_chat()
        store.add_user_message(chat.id, title)
        ids[title] = chat.id
    store.close()
    with sqlite3.connect(data / "chats.sqlite3") as db:
        for title, days in ages.items():
            db.execute("UPDATE chats SET updated=? WHERE id=?", (_at(days), ids[title]))
    return data, ids


def _rows(side) -> list[str]:
    return [side.list.item(i).text() for i in range(side.list.count())]


def test_a_question_and_its_answer_move_their_chat_first_without_listing_every_chat(make_window, server, qloop,
                                                                                   tmp_path, monkeypatch):
    data, ids = _aged_chats(tmp_path, {"today": 0, "last week": 4, "also last week": 5, "alone": 400})
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    listed = []
    real_list = win.store.list_chats
    monkeypatch.setattr(win.store, "list_chats", lambda: listed.append(1) or real_list())
    long_ago = side.headings()[-1]
    assert _rows(side) == ["Today", "today", "Previous 7 days", "last week", "also last week", long_ago, "alone"]

    def ask(chat_id: str, question: str) -> None:
        server.queue(Stream(tokens("An answer.")))
        win.open_chat(chat_id)
        qloop.run(wait_until(lambda: win.chat_id == chat_id and not win.loading))
        win.composer.setPlainText(question)
        finished = wait_signal(win.answerFinished, timeout=15)
        assert win.send()
        assert qloop.run(finished) == "done"

    ask(ids["alone"], "once more")  # its heading goes with it; it joins Today's
    assert _rows(side) == ["Today", "alone", "today", "Previous 7 days", "last week", "also last week"]
    assert side.current_id() == ids["alone"] and [i.text() for i in side.list.selectedItems()] == ["alone"]
    ask(ids["last week"], "and again")  # its heading stays: another chat is under it
    assert _rows(side) == ["Today", "last week", "alone", "today", "Previous 7 days", "also last week"]
    assert listed == []  # neither the questions nor the answers read the whole list
    rows = _rows(side)
    win._refresh_chats()  # listing every chat again gives the same list
    assert _rows(side) == rows and side.current_id() == ids["last week"]

    win.delete_chat(ids["also last week"])  # the last chat under its heading: both go
    assert _rows(side) == ["Today", "last week", "alone", "today"] and len(listed) == 1
    for title in ("alone", "today"):
        win.delete_chat(ids[title])
    win.delete_chat(ids["last week"])  # the open one
    assert _rows(side) == [] and side.empty_hint.isVisibleTo(side) and len(listed) == 1


def test_the_whole_list_is_read_again_when_it_shows_search_hits_or_another_days_headings(make_window, server,
                                                                                        qloop, tmp_path):
    data, ids = _aged_chats(tmp_path, {"pumpkin soup": 0, "pumpkin pie": 1})
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    chat = win.store.get_chat(ids["pumpkin pie"])
    assert side.lists_all_chats()
    side.search.setText("pumpkin")
    qloop.run(wait_until(lambda: side.list.count() == 2 and not side.headings()))
    assert not side.lists_all_chats() and not side.touch(chat)  # hits are searched again instead
    assert side.list.count() == 2
    side.search.setText("")
    assert side.lists_all_chats()
    side._filled_on -= datetime.timedelta(days=1)  # filled yesterday: its "Today" is now Yesterday
    assert not side.lists_all_chats() and not side.touch(chat)
    win._chat_used(chat)  # so the window lists every chat again, under today's headings
    assert side.lists_all_chats() and _rows(side) == ["Today", "pumpkin soup", "Yesterday", "pumpkin pie"]


def test_an_answer_that_could_not_be_stored_leaves_its_chat_where_it_was(make_window, server, qloop, tmp_path,
                                                                          monkeypatch):
    data, ids = _aged_chats(tmp_path, {"today": 0, "last week": 4, "alone": 400})
    store = ChatStore(data)
    store.add_assistant_message(ids["alone"], "An old answer.")
    store.close()
    with sqlite3.connect(data / "chats.sqlite3") as db:
        db.execute("UPDATE chats SET updated=? WHERE id=?", (_at(400), ids["alone"]))
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    rows = _rows(side)
    win.open_chat(ids["alone"])
    qloop.run(wait_until(lambda: win.chat_id == ids["alone"] and not win.loading))

    def full_disk(*_args, **_kwargs):
        raise ChatStoreError("The chat history could not be saved: the disk is full.")

    monkeypatch.setattr(win.store, "add_assistant_message", full_disk)
    server.queue(Stream(tokens("A new answer.")))
    finished = wait_signal(win.answerFinished, timeout=15)
    assert win.regenerate()  # no question is stored first: nothing about the chat changes
    assert qloop.run(finished) == "done"
    assert _rows(side) == rows  # not moved first, above Today, under its old month
    assert "disk is full" in win.statusBar().currentMessage()


def test_a_snippet_that_only_says_the_title_again_is_not_shown():
    from tinyrag_desktop.ui.chat_list import snippet_repeats_title

    assert snippet_repeats_title("How do I bake bread?", "…do I bake bread?")  # a snippet starts a word or two before
    assert snippet_repeats_title("A very long question title that g…", "…question title that goes on and on…")
    assert not snippet_repeats_title("How do I bake bread?", "…flour, water and salt. Knead the bread for ten…")
    assert not snippet_repeats_title("Garden planning", "…the tomatoes need six hours of sun…")


def test_a_rows_tooltip_says_when_it_was_used_as_of_when_it_shows(qtbot, monkeypatch):
    # made once with the row, it said "just now" to a window left open all afternoon, and the old title
    # after a rename
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication

    from tinyrag_desktop.chats import ChatInfo
    from tinyrag_desktop.ui import chat_list
    from tinyrag_desktop.ui.sidebar import ChatsSidebar

    side = ChatsSidebar()
    qtbot.add_widget(side)
    side.resize(260, 400)
    side.show()
    now = time.time()
    side.set_chats([ChatInfo("a", "Tea", "Friendly", now - 5, now - 5)], "a")
    item = side.item_for("a")
    assert item.toolTip() == "Tea\njust now · Friendly"
    side.set_answering("a")
    item.setText("Green tea")  # renamed in place

    def hovered() -> str:
        spot = side.list.visualItemRect(item).center()
        QApplication.sendEvent(side.list.viewport(),
                               QHelpEvent(QEvent.Type.ToolTip, spot, side.list.viewport().mapToGlobal(spot)))
        return item.toolTip()

    monkeypatch.setattr(chat_list.time, "time", lambda: now + 7 * 60)
    assert hovered() == "Green tea\n7 min ago · Friendly\nStill answering"
    monkeypatch.undo()
    side.set_answering(None)
    assert hovered() == "Green tea\njust now · Friendly"


def test_chats_stored_with_times_beyond_the_calendar_are_listed_under_later(make_window, server, tmp_path,
                                                                          monkeypatch):
    # 253402300799 is the last second of 9999 in UTC, and in the year 10000 in the Chatham Islands (UTC+13:45):
    # the window failed at every start ("year 10000 is out of range"), as it did for 1e12 and 1e300.
    if hasattr(time, "tzset"):
        monkeypatch.setenv("TZ", "Pacific/Chatham")
        time.tzset()
    try:
        data, ids = _aged_chats(tmp_path, {"end of 9999": 0, "1e12": 0, "1e300": 0, "today": 0})
        with sqlite3.connect(data / "chats.sqlite3") as db:
            for title, at in {"end of 9999": 253402300799, "1e12": 1e12, "1e300": 1e300}.items():
                db.execute("UPDATE chats SET updated=? WHERE id=?", (at, ids[title]))
        win = make_window(server.base_url, data_dir=data)
        side = win.sidebar
        assert side.titles() == ["1e300", "1e12", "end of 9999", "today"]
        assert side.headings() == ["Later", "Today"]
        from tinyrag_desktop.ui.chat_list import TIP_ROLE, chat_tip

        tips = [chat_tip(side.list.item(row)) for row in range(side.list.count()) if side.list.item(row).data(TIP_ROLE)]
        assert [tip.splitlines()[1] for tip in tips][:2] == ["later", "later"], tips  # 1e300, 1e12 (each its tooltip)
    finally:
        monkeypatch.undo()
        if hasattr(time, "tzset"):
            time.tzset()


def test_a_new_chat_goes_under_today_below_a_chat_stored_with_a_clock_years_ahead(make_window, server, qloop,
                                                                                 tmp_path):
    # It was put first, above Later's: "Today / Later / Today / December 2001".
    data, ids = _aged_chats(tmp_path, {"clock ahead": 0, "old one": 0})
    with sqlite3.connect(data / "chats.sqlite3") as db:
        db.execute("UPDATE chats SET updated=? WHERE id=?", (time.time() + 5 * 365 * 86400, ids["clock ahead"]))
        db.execute("UPDATE chats SET updated=? WHERE id=?",
                   (datetime.datetime(2001, 12, 14, 12).timestamp(), ids["old one"]))
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    assert _rows(side) == ["Later", "clock ahead", "December 2001", "old one"]
    server.queue(Stream(tokens("An answer.")))
    assert qloop.run(ask_and_wait(win, "a question")) == "done"
    assert _rows(side) == ["Later", "clock ahead", "Today", "a question", "December 2001", "old one"]
    win.new_chat()
    server.queue(Stream(tokens("Another answer.")))
    assert qloop.run(ask_and_wait(win, "another question")) == "done"
    rows = ["Later", "clock ahead", "Today", "another question", "a question", "December 2001", "old one"]
    assert _rows(side) == rows
    win.open_chat(ids["old one"])  # asked again, it leaves its month, whose heading goes with it
    qloop.run(wait_until(lambda: win.chat_id == ids["old one"] and not win.loading))
    server.queue(Stream(tokens("A third answer.")))
    assert qloop.run(ask_and_wait(win, "once more")) == "done"
    rows = ["Later", "clock ahead", "Today", "old one", "another question", "a question"]
    assert _rows(side) == rows
    win._refresh_chats()  # as listing every chat again has it
    assert _rows(side) == rows


def test_the_row_of_the_chat_being_answered_keeps_its_height(make_window, server):
    # Its running badge (an icon) made the row about 3 px taller, and the rows under it moved down and back
    from tinyrag_desktop.chats import ChatInfo

    win = make_window(server.base_url)
    side = win.sidebar
    now = time.time()
    side.set_chats([ChatInfo("a", "Tea", "", now - 5, now - 5), ChatInfo("b", "Coffee", "", now - 9, now - 9)], "a")
    heights = lambda: [side.list.sizeHintForRow(side.list.row(side.item_for(chat))) for chat in ("a", "b")]  # noqa: E731
    before = heights()
    assert before[0] == before[1]
    side.set_answering("a")
    assert heights() == before


def test_a_chat_moved_first_from_far_down_shows_its_day_heading_above_it(qtbot):
    # Asked in chat #6 with the list scrolled to its bottom: the chat went first, and the list stopped one row
    # down, with its "Today" just above the top of the list.
    from PySide6.QtCore import QItemSelectionModel

    from tinyrag_desktop.chats import ChatInfo
    from tinyrag_desktop.ui.sidebar import ChatsSidebar

    side = ChatsSidebar()
    qtbot.add_widget(side)
    side.resize(260, 400)
    side.show()
    chats = [ChatInfo(f"c{n}", f"Chat {n}", "", _at(n // 3 + 1), _at(n // 3 + 1)) for n in range(60)]
    side.set_chats(chats, "c6")
    bar = side.list.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 20)  # laid out
    bar.setValue(bar.maximum())
    assert side.touch(ChatInfo("c6", "Chat 6", "", _at(0), time.time()))
    assert _rows(side)[:3] == ["Today", "Chat 6", "Yesterday"] and side.current_id() == "c6"
    heading = side.list.visualItemRect(side.list.item(0))
    assert heading.top() >= 0 and side.list.viewport().rect().contains(side.list.visualItemRect(side.list.item(1)))
    side.list.setFocus()
    bar.setValue(bar.maximum())  # and Up onto a day's first chat, from below its heading, shows that heading
    side.list.setCurrentRow(_rows(side).index("Chat 19"), QItemSelectionModel.SelectionFlag.NoUpdate)
    assert side.list.visualItemRect(side.list.item(_rows(side).index("Chat 18"))).bottom() < 0  # above, unseen
    qtbot.keyClick(side.list, Qt.Key.Key_Up)
    assert side.list.currentItem().text() == "Chat 18"
    heading = side.list.item(side.list.currentRow() - 1)
    assert heading.text() == "Previous 30 days" and side.list.visualItemRect(heading).top() >= 0


def test_a_question_and_its_answer_in_the_first_chat_change_its_row_where_it_is(make_window, server, qloop,
                                                                                tmp_path):
    # Each question and each answer took the chat's row out of the list and put it back first, where it was
    # already: the whole list laid out again each time (at 1,000 chats and more, a cost every answer paid).
    from tinyrag_desktop.ui.chat_list import TIP_ROLE

    data, ids = _aged_chats(tmp_path, {"today": 0, "last week": 4})
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    moved, laid_out, real_layout = [], [], side.list.doItemsLayout
    side.list.model().rowsInserted.connect(lambda *_: moved.append("in"))
    side.list.model().rowsRemoved.connect(lambda *_: moved.append("out"))
    side.list.doItemsLayout = lambda: laid_out.append(1) or real_layout()  # Qt's own calls come here too

    def ask(chat_id: str) -> None:
        server.queue(Stream(tokens("An answer.")))
        win.open_chat(chat_id)
        qloop.run(wait_until(lambda: win.chat_id == chat_id and not win.loading))
        win.composer.setPlainText("once more")
        finished = wait_signal(win.answerFinished, timeout=15)
        assert win.send()
        assert qloop.run(finished) == "done"

    used = side.item_for(ids["today"]).data(TIP_ROLE)[1]
    ask(ids["today"])
    assert moved == [] and _rows(side) == ["Today", "today", "Previous 7 days", "last week"]
    assert laid_out == []  # its row, badge and tooltip changed: the list is not laid out again
    row = side.item_for(ids["today"])
    assert row.data(TIP_ROLE)[1] > used and row.toolTip().startswith("today\njust now")
    ask(ids["last week"])  # from further down: its row moves first, once, and its heading goes
    assert moved and _rows(side) == ["Today", "last week", "today"]
    moved.clear()
    laid_out.clear()
    ask(ids["last week"])
    assert moved == [] and laid_out == [] and _rows(side) == ["Today", "last week", "today"]
    assert side.current_id() == ids["last week"] and side.list.currentItem().isSelected()
