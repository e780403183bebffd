// Building the page: every text goes in with textContent (never innerHTML), so a name or a chat message is
// shown as text, whatever it contains.
const SVG = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.setAttribute("class", v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h("button", {class: "x", onclick: f}, "text", child…) */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

/** `1 move`, `2 moves`: a count with its noun (the same as the node's texts). */
export function counted(n, noun, plural = `${noun}s`) {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replaces an element's children. */
export function put(el, ...children) {
  clear(el);
  return fill(el, {}, children);
}

/** Asks before something that cannot be undone; resolves true when the user confirms. */
export function confirmDialog(text, ok = "Quit") {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = ok;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

/** A short message at the top of the page (errors, invitations). Returns a function that removes it. */
export function banner(content, kind = "info", timeoutMs = 6000) {
  const box = h("div", { class: `banner ${kind}`, role: kind === "error" ? "alert" : "status" }, content);
  const close = () => box.remove();
  box.append(h("button", { class: "small ghost", type: "button", onclick: close, "aria-label": "dismiss" }, "×"));
  document.getElementById("banner").append(box);
  if (timeoutMs) setTimeout(close, timeoutMs);
  return close;
}
