"""The page's few lines of JavaScript: confirmations, the warning before a reload, the download click."""

# js_on_load of the panels that list entries or messages: a trash button asks, then the panel triggers 'click'.
DELETE_BUTTONS = """
element.addEventListener('click', (event) => {
  const button = event.target.closest('button.da-del');
  if (!button) return;
  const what = button.dataset.kind === 'message' ? 'message' : 'entry';
  const reply = button.dataset.role === 'user' ? ', the reply to it' : '';
  const also = what === 'message' ? reply + ' and everything learned only from ' + (reply ? 'them' : 'it') : '';
  if (!confirm('Delete ' + what + ' #' + button.dataset.id + also + '? This cannot be undone.')) return;
  trigger('click', {kind: button.dataset.kind, id: Number(button.dataset.id)});
});
"""

# js_on_load of the hidden memory-state panel: this tab's memory lives in a temporary database that a reload or
# a close deletes, so the browser asks first whenever there is something to lose.
WARN_BEFORE_UNLOAD = """
window.addEventListener('beforeunload', (event) => {
  const state = document.querySelector('#memory-state [data-kept]');
  if (state && Number(state.dataset.kept) > 0) {
    event.preventDefault();
    event.returnValue = '';
  }
});
"""

# The chat's trash icon: its value (True or False) is what the clear event sends.
CONFIRM_CLEAR = """
(confirmed) => confirm('Delete the whole conversation, and everything learned only from it? '
  + 'Entries you typed yourself stay. This cannot be undone.')
"""

# After the memory file is written, click its link so that one press of the button downloads it.
CLICK_DOWNLOAD = """
() => {
  let tries = 0;
  const click = () => {
    const link = document.querySelector('#memory-file a[download]');
    if (link) link.click();
    else if (++tries < 40) setTimeout(click, 50);
  };
  click();
}
"""

# Runs in the browser as a message is sent, before it goes to the server: the message (already read) goes on, the
# box empties at once so the next one can be typed while this one is answered. The input event tells the page's
# own copy of the box's value, so Enter on the emptied box never sends the old message again.
SEND_AND_CLEAR = """
(text, mode) => {
  const box = document.querySelector('#message textarea');
  if (box) {
    box.value = '';
    box.dispatchEvent(new Event('input', {bubbles: true}));
  }
  return [text, mode];
}
"""

# After an answer: a message that failed comes back to the box, unless something new has been typed there.
OFFER_UNSENT = "(draft, unsent) => draft || unsent"

# js_on_load of the page's heading: a notice ("✓ Deleted #11.") answers one action; the next click on a button, or a
# message sent, clears every notice shown, before that action's own notice (if any) comes back.
CLEAR_NOTICES = """
const clear = () => document.querySelectorAll('.da-notice').forEach((notice) => notice.remove());
document.addEventListener('click', (event) => {
  if (event.target.closest('button, [role="radio"], label')) clear();
}, true);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && event.target.closest('#message')) clear();
}, true);
"""
