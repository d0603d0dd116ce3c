// The few DOM helpers every part of the scoring page uses.

export const $ = (selector, scope = document) => scope.querySelector(selector);
export const $$ = (selector, scope = document) => [...scope.querySelectorAll(selector)];

/** The JSON the server wrote into a <script type="application/json" id=...>, or null. */
export function readJSON(id) {
  const found = document.getElementById(id);
  return found ? JSON.parse(found.textContent) : null;
}

/** A new element with its properties and children. */
export function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of [].concat(children)) if (child != null) node.append(child);
  return node;
}
