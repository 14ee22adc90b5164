// Small DOM helpers: build elements without innerHTML and find them by selector.

/**
 * h creates an element. props may hold: class, text, dataset (object), style (object,
 * applied through the CSSOM so the strict CSP allows it), on (object of event listeners)
 * and any other attribute (false/null/undefined leave it out, true sets it empty).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style') Object.assign(el.style, value);
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** $ returns the first element matching selector, or throws: a missing id is a bug. */
export function $(selector, root = document) {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`page element ${selector} not found`);
  return el;
}
