// The gtms console's one script (docs/console.md). Every page works without it; it only makes
// them smoother: a chosen CSV file fills the import box, and a deal or an approval changed
// anywhere (the /ws events) refreshes the board, the inbox and the navigation's count in place,
// unless a form is being filled in.
"use strict";

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

const live = [
  "#pipeline-summary", "#board", "#deal-list", "#history", "#deal-stage", "#approvals", "#pending-count",
  "#workers", "#worker-status", "#worker-workflows",
];
// The /ws events that change what those show.
const changes = [
  "deal.updated", "approval.requested", "approval.decided",
  "workflow.started", "workflow.step", "workflow.waiting", "workflow.completed", "workflow.failed",
];

function busy() {
  const active = document.activeElement;
  return active && active.closest("form") && !active.closest("form.toolbar");
}

async function refresh() {
  if (busy()) return;
  const response = await fetch(location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const next = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const selector of live) {
    const now = document.querySelector(selector);
    const fresh = next.querySelector(selector);
    if (now && fresh) now.replaceWith(fresh);
  }
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
}

function listen() {
  if (!live.some((selector) => document.querySelector(selector))) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.addEventListener("open", () => { document.body.dataset.live = "connected"; });
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
