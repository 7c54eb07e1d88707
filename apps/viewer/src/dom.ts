/** An element with a class and text or children: the page builds its DOM with this, never with HTML strings. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  ...children: readonly (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== '') node.className = className;
  node.append(...children);
  return node;
}

/** The element with id `id`, which the page's HTML must have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node as T;
}
