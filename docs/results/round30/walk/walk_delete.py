import sys, json
exec(open("/work/results/walk30/walk.py").read().split("with sync_playwright() as p:")[0].replace('OUT = "/work/results/walk30"','OUT = "/work/results/walk30/delete"'))
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1500, "height": 1000}); page.set_default_timeout(600000)
    page.goto(URL); page.wait_for_selector("#message textarea")
    say(page, "Mi chiamo Giulia, abito a Torino e faccio l'infermiera.", wait_writer=False)
    say(page, "Mi sono trasferita a Roma la settimana scorsa.", wait_writer=False)
    say(page, "Dove abito adesso?", wait_writer=False)
    say(page, "Il mio PIN è 4471.")
    print("MID:", page.locator("#mid-term").inner_text()[:1500], flush=True)
    page.get_by_text("Add, edit or delete an entry").click(); page.wait_for_timeout(800)
    page.locator("#memory-id input").fill("1"); page.locator("#delete-memory").click(); page.wait_for_timeout(4000)
    print("NOTICE:", page.locator("#memory-notice").inner_text()[:300])
    print("MID AFTER DELETE:", page.locator("#mid-term").inner_text()[:1500], flush=True)
    page.get_by_role("tab", name="History").click(); page.wait_for_timeout(800)
    pin_id = [l for l in page.locator("#history").inner_text().splitlines() if "4471" in l and "user" in l]
    print("PIN LINE:", pin_id, flush=True)
    import re
    ident = re.search(r"#(\d+?)(?=20\d\d-)", pin_id[0]).group(1)
    page.locator("#message-id input").fill(ident); page.locator("#delete-message").click(); page.wait_for_timeout(4000)
    print("HISTORY NOTICE:", page.locator("#history-notice").inner_text()[:300])
    print("HISTORY AFTER:", page.locator("#history").inner_text()[:1500], flush=True)
    b.close()
