"""The web table in a real browser: Debian's chromium driven by Playwright (never a browser
downloaded at run time; the tests skip, saying why, where chromium is not installed). A Formula 5
game for two people at one screen played by clicking, a Heat race against a bot played by
clicking and typing keys, two people at their own screens deciding Heat's secret steps at once and
in either order, a finished game stepped through with the replay's slider, and a season created in
the lobby whose first game's end shows its result and the standings."""
from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (Debian's package `chromium`; .ci/run installs it)",
                allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
# a loaded machine (the suite on two cores, a browser beside it) can take seconds to answer: an
# expectation waits up to 15 s (it returns as soon as it holds)
expect.set_options(timeout=15_000)
pytest.importorskip("uvicorn")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from conftest import serve_in_thread

    base, stop = serve_in_thread(tmp_path_factory.mktemp("web") / "tables.db")
    yield base
    stop()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_page(browser, errors: list[str], console: bool = True):
    """A page in a browser context of its own (a person's own browser), its script errors (and,
    with `console`, the errors its console says) noted in `errors`."""
    pg = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pg.set_default_timeout(5000)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    if console:
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return pg


@pytest.fixture
def page(browser):
    errors: list[str] = []
    pg = new_page(browser, errors)
    yield pg
    pg.context.close()
    assert not errors, errors


# what a player waits for: an option to take, a screen to pass, the result
OPTION = ".option:not([disabled])"
# (`aria-busy`: the page is sending a decision or asking for the table)
NEXT = "#turn[aria-busy=false] .option:not([disabled]), #pass:not([hidden]), #result h2"


def wait_next(page) -> None:
    try:
        page.wait_for_selector(NEXT, timeout=15000)
    except playwright_api.TimeoutError:
        raise AssertionError(f"the page is stuck: {page.text_content('#status')!r}, "
                             f"error {page.text_content('#error')!r}, "
                             f"busy {page.get_attribute('#turn', 'aria-busy')}") from None


def act(do):
    """Do something with an option, which may be gone meanwhile (a bot moved, the game ended):
    what it gave, or False."""
    try:
        return do(timeout=1000)
    except playwright_api.TimeoutError:
        return False


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def finish_through_the_api(server: str, table: str, token: str) -> None:
    """The person's decisions taken through the API, their first option, until the game ends."""
    end = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{table}?token={token}", timeout=10) as r:
            told = json.loads(r.read())
        if told["finished"]:
            return
        if 1 in told["to_move"]:
            answer = {"token": token, "option": told["options"][0]["key"], "decision": told["decision"]}
            try:
                post(server, f"/api/tables/{table}/decide", answer)
            except urllib.error.HTTPError as e:   # the page's own last decision took it first: asked again
                assert e.code == 409, e
        else:
            time.sleep(0.01)
        assert time.monotonic() < end, "the game did not end"


def test_a_formula5_game_for_two_people_at_one_screen_played_by_clicking(server, page):
    page.goto(server + "/")
    page.select_option("#game", "formula5")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("#seats select[data-seat='1']", "human")
    page.select_option("#seats select[data-seat='2']", "human")
    page.check("#variants input[value='short-race']")
    page.fill("#seed", "12")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator(".seat-link").count() == 2
    # the table's other links: the spectator's and the creator's (no open seat: no join link)
    assert page.locator(".watch-link").get_attribute("href").startswith(server + "/table/")
    assert page.locator(".manage-link").get_attribute("href").startswith(server + "/?manage=")
    assert page.locator(".join-link").count() == 0
    page.click("#here")
    passes = clicks = 0
    for _ in range(400):
        wait_next(page)
        if page.locator("#result h2").count():
            break
        if page.locator("#pass").is_visible():
            text = page.text_content("#pass-text")
            assert text.startswith("Pass to seat")
            # the last seat's cards are covered meanwhile
            assert page.evaluate("getComputedStyle(document.querySelector('main')).visibility") == "hidden"
            if act(lambda **t: page.click("#pass-ready", **t)) is not False:
                passes += 1
            continue
        if act(lambda **t: page.locator(".option:not([disabled])").first.click(**t)) is not False:
            clicks += 1
        expect(page.locator(".option[disabled]")).to_have_count(0)
    assert page.locator("#result h2").text_content() == "Result"
    assert clicks > 5 and passes > 2
    assert page.locator("#log .log-heading").count() > 3
    assert page.locator(".placings li.winner").count() >= 1


def test_a_heat_race_against_a_bot_played_by_clicking_and_keys(server, page):
    table = post(server, "/api/tables", {"game": "heat", "seats": ["human", "greedy"], "seed": 3,
                                         "variants": ["sprint"]})
    page.goto(server + table["url"])
    page.wait_for_selector(".option")
    assert page.locator("#picture").get_attribute("src").startswith(f"/api/tables/{table['id']}/picture.svg")
    expect(page.locator("#picture")).to_have_js_property("complete", True)
    assert page.locator("#picture").evaluate("img => img.naturalWidth") > 100
    # the hand as cards, the seats with their cars
    assert page.locator(".mine .card").count() >= 3
    assert "black" in page.locator(".seat.you").text_content()
    typed = 0
    for i in range(13):   # (the rest of the race is played through the API: the page follows it)
        wait_next(page)
        if page.locator("#result h2").count():
            break
        if i % 3 == 0:
            key = act(lambda **t: page.locator(OPTION).first.get_attribute("data-key", **t))
            if not key:
                continue
            page.keyboard.type(key)
            if len(key) > 1 or page.locator(f".option[data-key^='{key}']").count() > 1:
                page.keyboard.press("Enter")
            typed += 1
        else:
            act(lambda **t: page.locator(OPTION).last.click(**t))
        expect(page.locator(".option[disabled]")).to_have_count(0)
    # the rest with the page away (it would draw each decision), then the page again: the result
    page.goto("about:blank")
    finish_through_the_api(server, table["id"], table["seats"][0]["token"])
    page.goto(server + table["url"])
    page.wait_for_selector("#result h2")
    assert page.locator("#result h2").text_content() == "Result"
    assert typed > 3
    assert "The game is over" in page.text_content("#status")
    assert page.locator(".placings li").count() == 2


def test_two_people_decide_a_secret_step_at_once_in_either_order(server, browser):
    """Heat's steps 1 and 2 are one `simultaneously` block: both people are offered their gear and
    cards at the same moment, each on their own screen. Seat 2 commits all of it first while seat 1
    still decides (seat 2 then waits and sees nothing of seat 1); seat 1 commits; both blocks are
    revealed and the race goes on."""
    table = post(server, "/api/tables", {"game": "heat", "seats": ["human", "human"], "seed": 8})
    errors: list[str] = []
    pages = []
    for seat in table["seats"]:
        pg = new_page(browser, errors)
        pg.goto(server + seat["url"])
        pages.append(pg)
    one, two = pages
    for pg in pages:   # both asked at once, in secret
        pg.wait_for_selector(OPTION)
        expect(pg.locator("#status")).to_contain_text("in secret")
    first_of_one = one.locator(".option .label").all_text_contents()
    # seat 2 first, to the end of its commitment; seat 1's screen does not change meanwhile
    for _ in range(40):
        expect(two.locator("#turn")).to_have_attribute("aria-busy", "false")
        if "Waiting for seat 1" in two.text_content("#status"):
            break
        act(lambda **t: two.locator(OPTION).first.click(**t))
        expect(two.locator(".option[disabled]")).to_have_count(0)
    expect(two.locator("#status")).to_contain_text("Waiting for seat 1 (deciding in secret)")
    assert one.locator(".option .label").all_text_contents() == first_of_one
    log_before = two.text_content("#log")
    # then seat 1: the blocks are revealed, what each did is told to both
    for _ in range(40):
        expect(one.locator("#turn")).to_have_attribute("aria-busy", "false")
        if "in secret" not in one.text_content("#status"):
            break
        act(lambda **t: one.locator(OPTION).first.click(**t))
        expect(one.locator(".option[disabled]")).to_have_count(0)
    for pg in pages:
        expect(pg.locator("#log")).to_contain_text("(seat 1)")
        expect(pg.locator("#log")).to_contain_text("(seat 2)")
    assert "(seat 1)" not in log_before
    for pg in pages:
        pg.context.close()
    assert not errors, errors


def test_a_finished_game_replayed_with_the_slider_and_arrow_keys(server, page):
    table = post(server, "/api/tables", {"game": "formula5", "seats": ["random", "random", "greedy"],
                                         "seed": 6})
    tid = table["id"]
    end = time.monotonic() + 20
    while True:
        listed = json.loads(urllib.request.urlopen(server + "/api/tables", timeout=10).read())["tables"]
        if next(t for t in listed if t["id"] == tid)["state"] == "finished":
            break
        assert time.monotonic() < end
        time.sleep(0.05)
    page.goto(f"{server}/replay/{tid}")
    expect(page.locator("#where")).to_have_text(re.compile("^0 of"))
    total = int(page.get_attribute("#slider", "max"))
    assert total > 10
    assert page.text_content("#decision").startswith("Decision 1: seat")
    page.locator("#slider").fill(str(total // 2))
    expect(page.locator("#where")).to_have_text(re.compile(f"^{total // 2} of"))
    picture = page.get_attribute("#picture", "src")
    assert f"at={total // 2}" in picture
    page.locator("body").press("ArrowRight")
    expect(page.locator("#where")).to_have_text(re.compile(f"^{total // 2 + 1} of"))
    page.locator("body").press("ArrowLeft")
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#where")).to_have_text(re.compile(f"^{total // 2 - 1} of"))
    page.locator("body").press("End")
    expect(page.locator("#where")).to_have_text(re.compile(f"^{total} of"))
    assert page.locator("#result h2").text_content() == "Result"
    # as another seat
    page.select_option("#seat", "2")
    expect(page.locator("#facts")).to_contain_text("as seat 2")
    assert page.locator(".seat.you .seat-name").text_content().startswith("seat 2")


def test_a_season_from_the_lobby_shows_each_games_end_and_the_standings(server, page):
    page.goto(server + "/")
    page.select_option("#game", "downforce")
    page.select_option("#season", "world-tour")
    assert page.locator("#track-box").is_hidden()
    assert "added to every game" in page.text_content("#season-description")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.select_option("#seats select[data-seat='1']", "human")
    page.select_option("#seats select[data-seat='2']", "random")
    page.select_option("#seats select[data-seat='3']", "random")
    page.fill("#seed", "4")
    page.click("#create")
    link = page.locator(".seat-link").get_attribute("href")
    page.goto(link)
    expect(page.locator("#facts")).to_contain_text("game 1 of 2")
    expect(page.locator("#title")).to_have_text("Downforce · World tour")
    # the person's decisions of the first game taken through the API meanwhile: the page follows
    # (away from it for the first 100 of them, about 130: a page drawing each costs seconds)
    table, token = link.split("/table/")[1].split("#")
    page.goto("about:blank")
    end, taken = time.monotonic() + 30, 0
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{table}?token={token}", timeout=10) as r:
            told = json.loads(r.read())
        if told["season"]["race"] == 2:
            break
        if 1 in told["to_move"]:
            post(server, f"/api/tables/{table}/decide", {"token": token, "option": told["options"][0]["key"],
                                                         "decision": told["decision"]})
            taken += 1
            if taken == 100:
                page.goto(link)
                expect(page.locator("#facts")).to_contain_text("game 1 of 2")
        else:
            time.sleep(0.01)
        assert time.monotonic() < end, "the first game did not end"
    assert taken > 100, "the page was back for the first game's last decisions"
    page.wait_for_selector("#between:not([hidden])")
    assert page.text_content("#between-text h2").startswith("game 1 over: 1. seat ")
    assert page.locator("#between .standings tr").count() == 4   # its head, and a row per seat
    assert page.text_content("#between-on") == "On to game 2 of 2: Lakeshore Bay (Enter)"
    page.keyboard.press("Enter")
    expect(page.locator("#between")).to_be_hidden()
    expect(page.locator("#facts")).to_contain_text("game 2 of 2: Lakeshore Bay")
    assert page.locator("#season .results li").count() == 1
    assert page.locator("#season .standings th").nth(2).text_content() == "g1"


def test_two_named_people_and_a_spectator_each_in_their_own_browser(server, browser):
    table = post(server, "/api/tables", {"game": "formula5", "seats": ["human", "human"], "seed": 2,
                                         "seed_public": True})
    errors: list[str] = []
    pages = []
    for seat in table["seats"]:
        pg = new_page(browser, errors, console=False)
        pg.goto(server + seat["url"])
        pages.append(pg)
    for pg, name in zip(pages, ("Ana", "Bo")):
        expect(pg.locator("#name-form")).to_be_visible()
        pg.click("#name")
        pg.keyboard.type(name)   # (letters typed into the name pick no option: the keys are letters)
        pg.keyboard.press("Enter")
        expect(pg.locator("#name-form")).to_be_hidden()
        expect(pg.locator("#facts")).to_contain_text(f"you are {name} (seat")
    one, two = pages
    # a third browser, on the spectator link: the names, whose turn it is, no hand, no option
    watcher = new_page(browser, errors, console=False)
    watcher.goto(server + table["watch_url"])
    expect(watcher.locator("#facts")).to_contain_text("watching")
    expect(watcher.locator("#sight")).to_contain_text("Ana (seat 1)")
    expect(watcher.locator("#sight")).to_contain_text("Bo (seat 2)")
    expect(watcher.locator("#status")).to_contain_text("Waiting for")
    assert watcher.locator("#name-form").is_hidden() and watcher.locator(OPTION).count() == 0
    assert "Your cards" not in watcher.text_content("#sight")
    expect(one.locator("#sight")).to_contain_text("Bo (seat 2)")
    expect(two.locator("#sight")).to_contain_text("Ana (seat 1)")
    token = table["seats"][0]["token"]
    with urllib.request.urlopen(f"{server}/api/tables/{table['id']}?token={token}", timeout=10) as r:
        to_move = json.loads(r.read())["to_move"]
    assert to_move in ([1], [2]), to_move
    mover, waiting = (one, two) if to_move == [1] else (two, one)
    expect(mover.locator("#status")).to_contain_text("(seat")   # "Ana (seat 1): your decision"
    expect(waiting.locator("#status")).to_contain_text("Waiting for")
    assert "(seat" in waiting.text_content("#status") and not errors, errors
    assert mover.locator(OPTION).count() > 0   # nothing was chosen while a name was typed
    # the lobby of each browser lists the seats it opened
    one.goto(server + "/")
    expect(one.locator("#mine")).to_contain_text("Ana (seat 1)")
    assert "Bo" not in one.text_content("#mine")
    # and its list of tables says the game's name and the names the people gave
    row = one.locator("#tables tbody tr", has_text="Ana, Bo")
    expect(row).to_have_count(1)
    assert row.locator("td").first.text_content() == "Formula 5"


def test_the_lobby_offers_what_each_choice_allows_in_words(server, page):
    page.goto(server + "/")
    page.select_option("#game", "heat")
    names = [n.strip() for n in page.locator("#variants label").all_text_contents()]
    events = [n for n in names if n.startswith("Event ")]
    assert events[1].startswith("Event 2") and events[-1].startswith("Event 10")   # read as numbers
    assert any("(with championship)" in n for n in events)
    page.fill("#players", "1")
    page.dispatch_event("#players", "change")
    assert page.input_value("#players") == "2"          # Heat alone takes 2 to 6 players
    page.check("#modules input[value='legends']")       # Legends: a player alone against legends
    page.fill("#players", "1")
    page.dispatch_event("#players", "change")
    assert page.input_value("#players") == "1" and page.locator("#seats select").count() == 1
    page.check("#variants input[value='event-2']")      # chosen with what it requires
    assert page.is_checked("#modules input[value='championship']")


def test_a_server_out_of_reach_is_said_in_words(server, browser):
    table = post(server, "/api/tables", {"game": "formula5", "seats": ["human", "random"], "seed": 4})
    errors: list[str] = []
    page = new_page(browser, errors, console=False)   # (its console says the request failed: no page error)
    page.goto(server + table["url"])
    page.wait_for_selector(OPTION)
    page.route("**/decide", lambda route: route.abort())   # the server gone when a decision is sent
    page.locator(OPTION).first.click()
    expect(page.locator("#error")).to_contain_text("the server cannot be reached")
    assert "Failed to fetch" not in page.text_content("#error")
    page.unroute("**/decide")
    page.locator(OPTION).first.click()                       # back: the decision is taken
    expect(page.locator("#error")).to_be_hidden()
    assert not errors, errors


def test_a_turn_that_comes_back_is_noticed_when_the_person_asked(server, page):
    """Ticked, the notice sounds when a turn comes back to the seat after another person's (not
    when the page opens on one), and stays ticked in this browser."""
    table = post(server, "/api/tables", {"game": "formula5", "seats": ["human", "human"], "seed": 4})
    mine, other = table["seats"][0]["token"], table["seats"][1]["token"]
    page.goto(server + table["seats"][0]["url"])
    page.wait_for_selector("#notice-label:not([hidden])")
    page.check("#notice")
    end = time.monotonic() + 60
    while page.get_attribute("body", "data-notices") is None:
        with urllib.request.urlopen(f"{server}/api/tables/{table['id']}?token={other}", timeout=10) as r:
            told = json.loads(r.read())
        if 2 in told["to_move"]:
            expect(page.locator(OPTION)).to_have_count(0)   # the page shows seat 1 waiting
            post(server, f"/api/tables/{table['id']}/decide",
                 {"token": other, "option": told["options"][0]["key"], "decision": told["decision"]})
        elif page.locator(OPTION).count():
            page.locator(OPTION).first.click()
        else:
            time.sleep(0.02)
        assert time.monotonic() < end, "no notice"
    assert page.get_attribute("body", "data-notices") == "1"
    assert mine != other
    page.reload()
    page.wait_for_selector("#notice-label:not([hidden])")
    assert page.is_checked("#notice")


def test_an_open_seat_is_joined_from_the_lobby_and_a_lost_link_given_anew(server, page):
    table = post(server, "/api/tables", {"game": "formula5", "seats": ["human", "open", "random"], "seed": 5})
    page.goto(server + "/")
    page.click(f"button.join[data-table='{table['id']}']")        # the lobby lists the open seat
    expect(page.locator("#facts")).to_contain_text("you are seat 2")
    page.goto(server + table["manage_url"])                         # the creator's link
    page.click("button.new-link[data-seat='1']")
    link = page.locator("#manage-seats .seat-link").get_attribute("href")
    assert link != server + table["seats"][0]["url"]
    page.goto(link)
    expect(page.locator("#facts")).to_contain_text("you are seat 1")
    # the join link sent to someone: they give their name and take the seat
    other = post(server, "/api/tables", {"game": "formula5", "seats": ["human", "open"], "seed": 6})
    page.goto(server + other["join_url"])
    page.fill("#join-name", "Ana")
    page.click("#join-go")
    expect(page.locator("#facts")).to_contain_text("you are Ana (seat 2)")


def test_an_option_made_for_a_place_is_clicked_on_the_board(server, page):
    """The tile race's start (`option ... for sq in starts ... at table, sq`) names a square of the
    board: each free start square gets a ring in the picture, and clicking one takes its option."""
    table = post(server, "/api/tables", {"game": "tilerace", "seats": ["human", "random"], "seed": 4})
    tid, token = table["id"], table["seats"][0]["token"]
    told = first_option_with(server, tid, token, "place")
    placed = [o for o in told["options"] if o["place"]]
    assert all(o["place"]["board"] == "table" for o in placed)
    last = placed[-1]
    page.goto(server + table["url"])
    ring = page.locator(f".pick[data-place='table:{last['place']['place']}']")
    expect(ring).to_have_attribute("data-key", last["key"])
    assert page.locator(".pick").count() == len(placed)
    before = len(own_decisions(server, tid, token))
    ring.click()
    # (the seat's next question may ring the start squares left: the record says what was taken)
    end = time.monotonic() + 15
    while len(chosen := own_decisions(server, tid, token)) == before:
        assert time.monotonic() < end, "the ring's option was not taken"
        time.sleep(0.05)
    assert chosen[before]["label"] == last["label"], chosen[before]


def first_option_with(server, tid, token, key: str) -> dict:
    """What seat 1 is told when first offered an option with a `key` (a piece, a place), its
    earlier questions answered with their first option through the API."""
    end = time.monotonic() + 30
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{tid}?token={token}", timeout=10) as r:
            told = json.loads(r.read())
        if any(o[key] for o in told["options"]):
            return told
        if told["options"]:
            post(server, f"/api/tables/{tid}/decide", {"token": token, "option": told["options"][0]["key"],
                                                        "decision": told["decision"]})
        else:
            time.sleep(0.01)
        assert time.monotonic() < end, f"no option with a {key}"


def own_decisions(server, tid, token) -> list[dict]:
    """The decisions seat 1 took, from its table's record."""
    with urllib.request.urlopen(f"{server}/api/tables/{tid}/record?token={token}", timeout=10) as r:
        lines = [json.loads(line) for line in r.read().decode().splitlines() if line.strip()]
    return [x for x in lines if x.get("type") == "decision" and x.get("seat") == 0]


def test_an_option_made_for_a_piece_is_clicked_on_the_board(server, page):
    """Downforce's bet names a car: each car in the picture gets a ring, and clicking the ring takes
    that car's option, as its line in the list would."""
    table = post(server, "/api/tables", {"game": "downforce", "seats": ["human", "random", "random"],
                                         "seed": 2})
    tid, token_1 = table["id"], table["seats"][0]["token"]
    told = first_option_with(server, tid, token_1, "piece")   # to the first bet, through the API
    bet = next(o for o in told["options"] if o["piece"] == "green")
    page.goto(server + table["url"])
    ring = page.locator(".pick[data-piece='green']")
    # (while an option is made for a piece, the picture is fetched once and its pieces' places read)
    expect(page.locator("#picture")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    expect(ring).to_have_attribute("data-key", bet["key"])
    assert page.locator(".pick").count() == sum(1 for o in told["options"] if o["piece"])
    ring.click()
    expect(page.locator(".pick")).to_have_count(0)
    with urllib.request.urlopen(f"{server}/api/tables/{tid}/record?token={token_1}", timeout=10) as r:
        lines = [json.loads(line) for line in r.read().decode().splitlines() if line.strip()]
    chosen = [x for x in lines if x.get("type") == "decision" and x.get("seat") == 0]
    assert chosen[-1]["label"] == "bet on green", chosen[-1]
