# Round 30's walk (../../round30/walk/walk.py) as run this round: its own output folder, the profile and the German panel printed.
import sys, time, json
from playwright.sync_api import sync_playwright
URL = sys.argv[1]; OUT = "/work/results/walk31"
log = []
def settle(page):
    seen, still = None, 0
    while still < 6:
        page.wait_for_timeout(500)
        now = page.locator("#chat").inner_text()
        busy = page.locator("#chat .generating, .progress-text").count()
        still = still + 1 if now == seen and not busy else 0
        seen = now
def say(page, text, wait_writer=True):
    n = page.locator("#chat .message-row").count()
    page.locator("#message textarea").fill(text); page.locator("#message textarea").press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#chat .message-row').length >= {n + 2}", timeout=600000)
    settle(page)
    if wait_writer:
        for _ in range(240):
            w = page.locator("#writer").inner_text()
            if "learning…" not in w and "waiting" not in w: break
            page.wait_for_timeout(1000)
    reply = "\n".join(page.locator("#chat .message-row").all_inner_texts()[n + 1:])
    turn = page.locator("#turn").inner_text()
    waited = [l for l in turn.splitlines() if "Writer" in l or "waited" in l][:3]
    log.append({"said": text, "reply": reply, "waited": waited}); open(f"{OUT}/log.json", "w").write(json.dumps(log, ensure_ascii=False, indent=1)); print(json.dumps(log[-1], ensure_ascii=False), flush=True)
    return reply
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1500, "height": 1000}); page.set_default_timeout(600000)
    page.goto(URL); page.wait_for_selector("#message textarea")
    page.locator("#mode").get_by_text("LightMem", exact=True).click()
    t0 = time.time()
    for t in ["Hi! I'm Dana, I live in Leeds and I work as a pharmacist.",
              "I have a dog called Pepper.",
              "Big news: I moved to Bristol last week and started a new job as a teacher."]:
        say(page, t, wait_writer=False)  # asked right after: the question itself waits for the Writer
    say(page, "Where do I live now?", wait_writer=False)
    print("TURN:", page.locator("#turn").inner_text()[:3000], flush=True)
    say(page, "What's my job?", wait_writer=False)
    say(page, "What's my dog called?", wait_writer=False)
    print("ELAPSED", round(time.time() - t0), flush=True)
    say(page, "My bank PIN is 4471, don't tell anyone.")
    print("PROFILE+FACTS:", page.locator("#facts").inner_text()[:1500]); print("MID:", page.locator("#mid-term").inner_text()[:2500], flush=True)
    page.screenshot(path=f"{OUT}/1-chat.png", full_page=True)
    page.get_by_role("tab", name="History").click(); page.wait_for_timeout(800)
    print("HISTORY:", page.locator("#history").inner_text()[:2500], flush=True)
    page.screenshot(path=f"{OUT}/2-history.png", full_page=True)
    page.get_by_role("tab", name="Dream").click(); page.wait_for_timeout(500)
    page.locator("#dream-button").click(); page.wait_for_timeout(1000)
    page.wait_for_function("() => document.querySelector('#diff') && /Dream #\\d/.test(document.querySelector('#diff').innerText)", timeout=900000)
    print("DIFF:", page.locator("#diff").inner_text()[:3000], flush=True)
    page.screenshot(path=f"{OUT}/3-dream.png", full_page=True)
    say(page, "Where do I live now?", wait_writer=False)
    page.locator("#undo-button").click(); page.wait_for_timeout(5000)
    print("AFTER UNDO:", page.locator("#diff").inner_text()[:600], flush=True)
    say(page, "Where do I live now?", wait_writer=False)
    # German, a language no module knows
    for t in ["Ich heiße Jonas, wohne in Hamburg und arbeite als Koch.", "Ich bin letzte Woche nach München umgezogen."]:
        say(page, t, wait_writer=False)
    say(page, "Wo wohne ich jetzt?", wait_writer=False); say(page, "Was ist mein Beruf?", wait_writer=False)
    say(page, "Meine PIN ist 5512.")
    print("FACTS-DE:", page.locator("#facts").inner_text()[:2000], flush=True)
    json.dump(log, open(f"{OUT}/log.json", "w"), ensure_ascii=False, indent=1)
    b.close()
