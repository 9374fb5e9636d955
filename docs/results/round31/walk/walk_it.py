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
    log.append({"said": text, "reply": reply, "waited": waited}); open(f"{OUT}/log_it.json", "w").write(json.dumps(log, ensure_ascii=False, indent=1)); print(json.dumps(log[-1], ensure_ascii=False), flush=True)
    return reply
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1500, "height": 1000}); page.set_default_timeout(600000)
    page.goto(URL); page.wait_for_selector("#message textarea")
    page.locator("#mode").get_by_text("LightMem", exact=True).click()
    # Italian, a language no module knows: a move said in words no English shape reads
    for t in ["Mi chiamo Giulia, abito a Torino e faccio la grafica.", "Mi sono trasferita a Roma la settimana scorsa!"]:
        say(page, t, wait_writer=False)
    say(page, "Dove abito adesso?", wait_writer=False)
    say(page, "Where do I live now?", wait_writer=False)
    print("FACTS-IT:", page.locator("#facts").inner_text()[:2500], flush=True)
    page.screenshot(path=f"{OUT}/5-italian.png", full_page=True)
    page.get_by_role("tab", name="Dream").click(); page.wait_for_timeout(500)
    page.locator("#dream-button").click(); page.wait_for_timeout(1000)
    page.wait_for_function("() => document.querySelector('#diff') && /Dream #\\d/.test(document.querySelector('#diff').innerText)", timeout=900000)
    print("DIFF-IT:", page.locator("#diff").inner_text()[:3000], flush=True)
    say(page, "Dove abito adesso?", wait_writer=False)
    print("FACTS-IT-AFTER-DREAM:", page.locator("#facts").inner_text()[:2500], flush=True)
    b.close()
