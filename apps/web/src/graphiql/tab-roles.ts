// GraphiQL draws its editor tabs as <ul role="tablist"> of <li role="tab">, each holding its button
// and, once there are several, a close button: a tab with controls inside, which assistive
// technology cannot operate (axe: nested-interactive), and a tab list holding buttons that are not
// tabs (axe: aria-required-children). GraphiQL takes no option for this markup, so once it is
// drawn the tabs are made what they work as: a list of buttons, the chosen one marked current
// (docs/behaviour.md §9.55).

/** Turns GraphiQL's tab lists under `root` into lists of buttons, the chosen one current. */
export function tabsAsList(root: ParentNode): void {
  for (const list of root.querySelectorAll<HTMLElement>("ul.graphiql-tabs[role]"))
    list.removeAttribute("role");
  for (const item of root.querySelectorAll<HTMLElement>("li.graphiql-tab")) {
    // React writes aria-selected on the <li> again when another tab is chosen: read it each time.
    const selected = item.getAttribute("aria-selected");
    if (item.hasAttribute("role")) item.removeAttribute("role");
    if (selected === null) continue;
    item.removeAttribute("aria-selected");
    const button = item.querySelector<HTMLElement>(":scope > .graphiql-tab-button");
    if (selected === "true") button?.setAttribute("aria-current", "true");
    else button?.removeAttribute("aria-current");
  }
}

/** Keeps GraphiQL's tabs under `root` a list of buttons as GraphiQL draws, adds and switches them. */
export function keepTabsAsList(root: HTMLElement): MutationObserver {
  tabsAsList(root);
  const observer = new MutationObserver(() => tabsAsList(root));
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["role", "aria-selected"],
  });
  return observer;
}
