// The gtms console's one script (docs/console.md). Every page works without it; it only makes
// them smoother: a form marked data-swap is sent with fetch and the parts of the page it names
// are replaced from the answer (the chat's answer appears without a reload), a chosen CSV file
// fills the import box, and a deal, an approval or a workflow changed anywhere (the /ws events)
// refreshes the board, the inbox, the workers and the navigation's count in place, unless a
// form is being filled in.
"use strict";

function parse(html) {
  return new DOMParser().parseFromString(html, "text/html");
}

// Replaces each element of `ids` (space-separated) with its namesake in `next`.
function swap(ids, next) {
  for (const id of ids.split(" ")) {
    const now = document.getElementById(id);
    const fresh = next.getElementById(id);
    if (now && fresh) now.replaceWith(fresh);
  }
}

document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.swap) return;
  event.preventDefault();
  const body = new URLSearchParams(new FormData(form, event.submitter));
  const status = form.querySelector("[role=status]");
  form.setAttribute("aria-busy", "true");
  for (const button of form.querySelectorAll("button")) button.disabled = true;
  if (status) status.textContent = form.dataset.busy || "Sending…";
  try {
    const response = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
    const next = parse(await response.text());
    swap(form.dataset.swap, next);
    const title = next.querySelector("title");
    if (title) document.title = title.textContent;
    const latest = document.getElementById("latest");
    if (latest) latest.scrollIntoView({ block: "nearest" });
    const again = document.getElementById(form.id);
    const field = again && (again.querySelector("[aria-invalid=true]") || again.querySelector("textarea, input:not([type=hidden])"));
    if (field) field.focus();
  } catch {
    form.removeAttribute("aria-busy");
    for (const button of form.querySelectorAll("button")) button.disabled = false;
    if (status) status.textContent = "The appliance could not be reached; your message is kept. Try again.";
  }
});

document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "file" || !input.dataset.fills) return;
  const target = document.getElementById(input.dataset.fills);
  const file = input.files && input.files[0];
  if (!target || !file) return;
  file.text().then((text) => { target.value = text; });
});

// Enter in an approval's own note decides that approval (approve), not the selection: the form's
// first button would otherwise be "Approve selected".
document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (event.key !== "Enter" || !(input instanceof HTMLInputElement)) return;
  const item = input.closest("li.approval");
  const approve = item && item.querySelector("button[value^='approve:']");
  if (!approve) return;
  event.preventDefault();
  approve.click();
});

// Keyboard first (DESIGN, "Console budgets"): ? lists the shortcuts; in the approvals inbox j/k
// select the next or previous item and a/r approve or reject it with its own note. Keys typed
// into a field, or with a modifier, are left alone.
function selectApproval(step) {
  const items = [...document.querySelectorAll("li.approval")];
  if (!items.length) return;
  const now = items.findIndex((item) => item.classList.contains("selected"));
  const next = now < 0 ? (step > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, now + step));
  for (const item of items) item.classList.toggle("selected", item === items[next]);
  items[next].setAttribute("tabindex", "-1");
  items[next].focus();
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  const typing = target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]");
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  const help = document.getElementById("shortcuts");
  if (event.key === "?" && help) {
    if (help.open) help.close(); else help.showModal();
  } else if (event.key === "j" || event.key === "k") {
    selectApproval(event.key === "j" ? 1 : -1);
  } else if (event.key === "a" || event.key === "r") {
    const selected = document.querySelector("li.approval.selected");
    const verb = event.key === "a" ? "approve" : "reject";
    const button = selected && selected.querySelector(`button[value^='${verb}:']`);
    if (!button) return;
    button.click();
  } else {
    return;
  }
  event.preventDefault();
});

const live = [
  "#pipeline-summary", "#board", "#deal-list", "#history", "#deal-stage", "#approvals", "#pending-count",
  "#workers", "#worker-status", "#worker-workflows",
];
// The /ws events that change what those show.
const changes = [
  "deal.updated", "approval.requested", "approval.expiring", "approval.decided",
  "workflow.started", "workflow.step", "workflow.waiting", "workflow.completed", "workflow.failed",
];

// A form is being filled in, or a disclosure is open in a live region (a workflow's "Cancel…"):
// replacing the region would close it under the person.
function busy() {
  if (document.querySelector(live.map((selector) => `${selector} details[open]`).join(", "))) return true;
  const active = document.activeElement;
  return active && active.closest("form") && !active.closest("form.toolbar");
}

async function refresh() {
  if (busy()) return;
  const response = await fetch(location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const next = parse(await response.text());
  // The person may have started filling a form while the page was being fetched.
  if (busy()) return;
  for (const selector of live) {
    const now = document.querySelector(selector);
    const fresh = next.querySelector(selector);
    if (now && fresh) now.replaceWith(fresh);
  }
}

function listen() {
  if (!live.some((selector) => document.querySelector(selector))) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  // Connected (or connected again): catch up on whatever changed since the page was rendered,
  // then say so (a page marked connected shows what the server had when the socket opened).
  socket.addEventListener("open", async () => {
    try { await refresh(); } catch { /* the next event refreshes */ }
    document.body.dataset.live = "connected";
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (changes.includes(message.type)) refresh();
  });
  socket.addEventListener("close", () => {
    document.body.dataset.live = "closed";
    setTimeout(listen, 3000);
  });
}

listen();
