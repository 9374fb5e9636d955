"""Round 37's new-user walk: `python walk.py URL OUT` against `make run` (the default model), in Chromium.

English: a home, a job, a dog and a car; a move, a new job and a new car, asked at once; the profile of "Memory about
you"; a PIN; a Dream; asked again; Undo; the move's entry deleted from the profile. Then Italian, a language no module
knows, in a new tab: a diet changed, asked at once. Round 38's walk calls `walk` with its own questions and language."""
import json
import sys
import time

from playwright.sync_api import sync_playwright

log = []
OUT = "."
ASKED = ["Where do I live now?", "What's my job?", "What car do I drive?", "What is my dog's name?"]
ITALIAN = ["Mi chiamo Giulia, vivo a Torino e sono vegetariana da due anni.",
           "Novità: da questo mese sono diventata vegana!", "Che dieta seguo adesso?", "Dove vivo?"]


def settle(page):
    seen, still = None, 0
    while still < 6:
        page.wait_for_timeout(500)
        now = page.locator("#chat").inner_text()
        busy = page.locator("#chat .generating, .progress-text").count()
        still = still + 1 if now == seen and not busy else 0
        seen = now


def idle(page):
    for _ in range(300):
        texts = [page.locator(s).inner_text() for s in ("#writer", "#mid-term", "#facts")]
        if not any("learning…" in t for t in texts):
            return
        page.wait_for_timeout(1000)


def say(page, text):
    n = page.locator("#chat .message-row").count()
    page.locator("#message textarea").fill(text)
    page.locator("#message textarea").press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#chat .message-row').length >= {n + 2}", timeout=600000)
    settle(page)
    reply = "\n".join(page.locator("#chat .message-row").all_inner_texts()[n + 1:])
    log.append({"said": text, "reply": reply})
    print(json.dumps(log[-1], ensure_ascii=False), flush=True)
    return reply


def memory(page, label):
    idle(page)
    page.get_by_role("tab", name="Memory").click()
    page.wait_for_timeout(500)
    for summary in page.locator("#facts details.da-timeline summary").all():
        summary.click()
    profile = page.locator("#facts .da-profile").all_inner_texts()
    events = page.locator("#facts .da-event").all_inner_texts()
    log.append({"memory": label, "profile": profile, "timeline": events,
                "entries": page.locator("#mid-term").inner_text()[:3000]})
    print(json.dumps(log[-1], ensure_ascii=False)[:2500], flush=True)


def walk(url, out, asked=ASKED, language="Italian", other=ITALIAN):
    """The walk against `url`, its log and screenshots in `out`: English, then `other` in `language` in a new tab."""
    global OUT
    OUT, URL = out, url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(600000)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(URL)
        page.wait_for_selector("#message textarea")
        page.locator("#mode").get_by_text("LightMem", exact=True).click()
        t0 = time.time()
        for text in ["Hi! I'm Dana, I live in Leeds and I work as a pharmacist.",
                     "I have a dog called Pepper, and I drive an old Ford Fiesta.",
                     "Big news: I moved to Bristol last week and started a new job as a teacher.",
                     "Also, I traded the Fiesta in for a Toyota Yaris yesterday!"]:
            say(page, text)
        for text in asked:
            say(page, text)
        say(page, "My bank PIN is 4471, don't tell anyone.")
        memory(page, "after the statements")
        page.screenshot(path=f"{OUT}/1-profile.png", full_page=True)
        page.get_by_role("tab", name="Dream").click()
        page.locator("#dream-button").click()
        page.wait_for_function("() => /Dream #\\d/.test(document.querySelector('#diff')?.innerText || '')", timeout=900000)
        log.append({"dream": page.locator("#diff").inner_text()[:3000]})
        print(json.dumps(log[-1], ensure_ascii=False), flush=True)
        page.screenshot(path=f"{OUT}/2-dream.png", full_page=True)
        say(page, "What car do I drive?")
        memory(page, "after the Dream")
        page.locator("#undo-button").click()
        page.wait_for_timeout(5000)
        say(page, "Where do I live now?")
        memory(page, "after Undo")
        page.locator("#facts li.da-profile-row[data-attribute=home] button.da-del").click()
        page.wait_for_timeout(4000)
        memory(page, "after deleting the move's entry")
        say(page, "Where do I live now?")
        page.screenshot(path=f"{OUT}/3-deleted.png", full_page=True)
        log.append({"english_s": round(time.time() - t0)})
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(600000)
        page.goto(URL)
        page.wait_for_selector("#message textarea")
        page.locator("#mode").get_by_text("LightMem", exact=True).click()
        for text in other:
            say(page, text)
        memory(page, language)
        page.screenshot(path=f"{OUT}/4-{language.lower()}.png", full_page=True)
        json.dump(log, open(f"{OUT}/log.json", "w"), ensure_ascii=False, indent=1)
        browser.close()


if __name__ == "__main__":
    walk(sys.argv[1], sys.argv[2])
