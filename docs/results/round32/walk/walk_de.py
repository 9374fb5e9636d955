"""German, a language no module knows, then deleting entry #1: `python walk_de.py URL` against `make run`.
Round 30's walk.py gives the helpers (say, settle)."""
from pathlib import Path
_HELPERS = (Path(__file__).resolve().parents[2] / "round30" / "walk" / "walk.py").read_text()
exec(_HELPERS.split("with sync_playwright() as p:")[0].replace('OUT = "/work/results/walk30"', 'OUT = "/work/results/walk32/de"'))
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
    page = b.new_page(viewport={"width": 1500, "height": 1000}); page.set_default_timeout(300000)
    page.goto(URL); page.wait_for_selector("#message textarea")
    page.locator("#mode").get_by_text("LightMem", exact=True).click()
    for t in ["Ich heiße Jonas, wohne in Hamburg und arbeite als Koch.", "Meine Schwester heißt Lena.",
              "Ich bin letzte Woche nach München umgezogen."]:
        say(page, t, wait_writer=False)
    say(page, "Wo wohne ich jetzt?", wait_writer=False); say(page, "Wie heißt meine Schwester?", wait_writer=False)
    say(page, "Welche Blutgruppe habe ich?")
    print("MID:", page.locator("#mid-term").inner_text()[:1500], flush=True)
    page.get_by_text("Add, edit or delete an entry").click(); page.wait_for_timeout(800)
    page.locator("#memory-id input").fill("1"); page.locator("#delete-memory").click(); page.wait_for_timeout(4000)
    print("NOTICE:", page.locator("#memory-notice").inner_text()[:300]); print("MID AFTER DELETE:", page.locator("#mid-term").inner_text()[:1500], flush=True)
    b.close()
