"""The screens of docs/web.md, taken again: `racecraft serve` in a thread, Debian's chromium driven
by Playwright, a PNG of each screen written beside this file.

    python docs/web/screenshots.py            (every screen)
    python docs/web/screenshots.py season     (those of a season only)
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=20).read())


def play(page, decisions: int) -> None:
    """Take the last option `decisions` times (the bots move between)."""
    for i in range(decisions):
        page.wait_for_selector("#turn[aria-busy=false] .option:not([disabled]), #pass:not([hidden])")
        if page.locator("#pass").is_visible():
            page.click("#pass-ready")
            continue
        page.locator(".option:not([disabled])").nth(i % 2).click()
        time.sleep(0.1)


def season(base: str, page) -> None:
    """Heat's season 1961 against two bots: the first race's end, then the table with the standings."""
    table = post(base, "/api/tables", {"game": "heat", "season": "1961", "seed": 2,
                                       "seats": ["human", "greedy", "greedy"]})
    page.goto(base + table["url"])
    tid, token = table["id"], table["seats"][0]["token"]
    while True:   # the person's decisions of the first race through the API; the page follows
        told = json.loads(urllib.request.urlopen(f"{base}/api/tables/{tid}?token={token}", timeout=20).read())
        if told["season"]["race"] == 2:
            break
        if 1 in told["to_move"]:
            options = told["options"]
            post(base, f"/api/tables/{tid}/decide", {"token": token, "option": options[-1]["key"]})
        else:
            time.sleep(0.02)
    page.wait_for_selector("#between:not([hidden])")
    page.wait_for_timeout(500)
    page.screenshot(path=str(HERE / "season-between.png"))
    page.keyboard.press("Enter")
    page.wait_for_selector("#turn[aria-busy=false] .option:not([disabled])")
    page.wait_for_timeout(500)
    page.locator(".side").screenshot(path=str(HERE / "season.png"))


def main(only: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from conftest import serve_in_thread

    with tempfile.TemporaryDirectory() as folder:
        base, stop = serve_in_thread(Path(folder) / "tables.db")
        if only == ["season"]:
            try:
                with sync_playwright() as p:
                    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                    season(base, browser.new_page(viewport={"width": 1280, "height": 860}))
                    browser.close()
            finally:
                stop()
            return
        try:
            heat = post(base, "/api/tables", {"game": "heat", "seats": ["human", "greedy", "greedy"],
                                              "seed": 8, "track": "italy"})
            f5 = post(base, "/api/tables", {"game": "formula5", "seats": ["human", "human", "random"],
                                            "seed": 3})
            done = post(base, "/api/tables", {"game": "heat", "seats": ["greedy", "greedy"], "seed": 5,
                                              "variants": ["sprint"]})
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                page.goto(base + "/")
                page.select_option("#game", "heat")
                page.wait_for_timeout(300)
                page.screenshot(path=str(HERE / "lobby.png"))
                page.goto(base + heat["url"])
                play(page, 14)
                page.wait_for_selector("#turn[aria-busy=false] .option:not([disabled])")
                page.wait_for_timeout(500)
                page.screenshot(path=str(HERE / "table.png"))
                page.set_viewport_size({"width": 390, "height": 844})
                page.wait_for_timeout(300)
                page.screenshot(path=str(HERE / "phone.png"))
                page.set_viewport_size({"width": 1280, "height": 860})
                page.goto(base + f5["url"])
                play(page, 3)
                page.wait_for_selector("#pass:not([hidden])")
                page.screenshot(path=str(HERE / "pass.png"))
                time.sleep(2)
                page.goto(f"{base}/replay/{done['id']}?at=40")
                page.wait_for_selector("#decision:not(:empty)")
                page.wait_for_timeout(500)
                page.screenshot(path=str(HERE / "replay.png"))
                season(base, page)
                browser.close()
        finally:
            stop()


if __name__ == "__main__":
    main(sys.argv[1:])
