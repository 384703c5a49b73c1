/**
 * Tabs of a page (the ARIA tabs pattern): a labelled tab list whose current tab is the one tab
 * stop, arrow keys, Home and End move between tabs and select them, and each panel is named by
 * its tab.
 */
import type { ComponentChildren } from 'preact';

/** One tab: its id (also its panel's) and its label. */
export interface TabEntry {
  id: string;
  label: ComponentChildren;
}

/** The tab list; `onSelect` is called with the id of the tab picked. */
export function Tabs(props: {
  label: string;
  tabs: readonly TabEntry[];
  current: string;
  onSelect: (id: string) => void;
}) {
  const { tabs, current, onSelect } = props;
  const move = (e: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === current);
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const id = tabs[next]!.id;
    onSelect(id);
    document.getElementById(tabId(id))?.focus();
  };
  return (
    <div class="review-tabs" role="tablist" aria-label={props.label} onKeyDown={move}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={tabId(t.id)}
          class="review-tab"
          aria-selected={t.id === current}
          aria-controls={panelId(t.id)}
          tabIndex={t.id === current ? 0 : -1}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of the tab `id`. */
export function TabPanel(props: { id: string; children: ComponentChildren }) {
  return (
    <div
      role="tabpanel"
      id={panelId(props.id)}
      aria-labelledby={tabId(props.id)}
      class="review-tab-panel"
    >
      {props.children}
    </div>
  );
}

function tabId(id: string): string {
  return `tab-${id}`;
}

function panelId(id: string): string {
  return `panel-${id}`;
}
