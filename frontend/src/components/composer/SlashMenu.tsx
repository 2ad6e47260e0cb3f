// The slash menu: "/" at the start of the composer lists the agent's own
// commands (from commands.updated), then Hermes Desk's; typing filters,
// arrows move, Enter or Tab picks, Escape closes. A product command never
// silently shadows an agent command of the same name: both are listed, the
// app's first — so "/stop" Enter during a run stops it rather than queueing
// the agent's /stop as a message (issue 21.12) — and the product one says
// it is Hermes Desk's. Names and descriptions come from the agent: bidi and
// zero-width characters in them show as badges (text/Visible.tsx).
import { useMemo, useState, type KeyboardEvent } from "react";
import { Visible } from "../../text/Visible";

export interface SlashCommand {
  name: string;
  description?: string;
}

/** A Hermes Desk command: runs in the window instead of going to the agent. */
export interface ProductCommand extends SlashCommand {
  /** Runs the command; `args` is what follows its name. */
  run?(args: string): void;
  /** Inserted into the composer instead of running (e.g. "/scenario "). */
  insert?: string;
}

export interface SlashItem {
  key: string;
  name: string;
  description?: string;
  source: "agent" | "product";
  /** The agent has a command of the same name (product items only). */
  alsoAgent?: boolean;
  product?: ProductCommand;
}

/** The query when the text is a slash command being typed, else undefined. */
export function slashQuery(text: string): string | undefined {
  const m = /^\/(\S*)$/.exec(text);
  return m ? m[1]!.toLowerCase() : undefined;
}

/**
 * Agent commands, then product ones, filtered by the typed prefix; a
 * product command the agent also has comes right before the agent's. A
 * product command that only types the agent's own command (the demo's
 * "/scenario ") is that command, listed once (with the product's words).
 */
export function slashItems(agent: SlashCommand[], product: ProductCommand[], query: string): SlashItem[] {
  const bare = (n: string) => n.replace(/^\//, "");
  const agentNames = new Set(agent.map((c) => bare(c.name).toLowerCase()));
  const productOf = new Map(product.map((c) => [c.name.toLowerCase(), c]));
  const match = (name: string) => name.toLowerCase().startsWith(query) || (query.length > 1 && name.toLowerCase().includes(query));
  const productItem = (c: ProductCommand): SlashItem => ({
    key: `p:${c.name}`, name: c.name, description: c.description, source: "product",
    alsoAgent: agentNames.has(c.name.toLowerCase()) && !typesAgentCommand(c), product: c,
  });
  const items: SlashItem[] = [];
  const placed = new Set<string>();
  for (const c of agent) {
    const name = bare(c.name);
    if (!match(name)) continue;
    const p = productOf.get(name.toLowerCase());
    if (p && !placed.has(p.name)) {
      items.push(productItem(p));
      placed.add(p.name);
    }
    if (p && typesAgentCommand(p)) continue;
    items.push({ key: `a:${name}`, name, description: c.description, source: "agent" });
  }
  for (const c of product) {
    if (!placed.has(c.name) && match(c.name)) items.push(productItem(c));
  }
  return items;
}

/** The product command only types "/name " — the agent's command of that name. */
function typesAgentCommand(c: ProductCommand): boolean {
  return !c.run && c.insert === `/${c.name} `;
}

/**
 * The menu's state for a composer: call onKeyDown first in the textarea's
 * key handler (it returns true when it used the key).
 */
export function useSlashMenu(opts: {
  text: string;
  setText(t: string): void;
  agent: SlashCommand[];
  product: ProductCommand[];
}) {
  const { text, setText, agent, product } = opts;
  const query = slashQuery(text);
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [index, setIndex] = useState(0);
  const items = useMemo(() => (query === undefined ? [] : slashItems(agent, product, query)), [agent, product, query]);
  const open = query !== undefined && dismissed !== text && items.length > 0;
  const sel = Math.min(index, Math.max(items.length - 1, 0));

  const pick = (it: SlashItem) => {
    setIndex(0);
    if (it.source === "agent") {
      setText(`/${it.name} `);
      return;
    }
    const p = it.product!;
    if (p.insert !== undefined) {
      setText(p.insert);
      return;
    }
    setText("");
    p.run?.("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    switch (e.key) {
      case "ArrowDown":
        setIndex((sel + 1) % items.length);
        break;
      case "ArrowUp":
        setIndex((sel - 1 + items.length) % items.length);
        break;
      case "Enter":
      case "Tab":
        if (e.shiftKey || e.nativeEvent.isComposing) return false;
        pick(items[sel]!);
        break;
      case "Escape":
        setDismissed(text);
        break;
      default:
        return false;
    }
    e.preventDefault();
    e.stopPropagation();
    return true;
  };

  const menu = open ? (
    <SlashMenu items={items} selected={sel} onPick={pick} onHover={setIndex} />
  ) : null;
  return { open, onKeyDown, menu, activeId: open ? `slash-${items[sel]!.key}` : undefined };
}

export function SlashMenu({ items, selected, onPick, onHover }: {
  items: SlashItem[];
  selected: number;
  onPick(it: SlashItem): void;
  onHover(i: number): void;
}) {
  return (
    <ul className="slash-menu" role="listbox" id="slash-menu" aria-label="Commands">
      {items.map((it, i) => (
        <li
          key={it.key}
          id={`slash-${it.key}`}
          role="option"
          aria-selected={i === selected}
          className={`slash-item${i === selected ? " on" : ""}`}
          onMouseDown={(e) => { e.preventDefault(); onPick(it); }}
          onMouseEnter={() => onHover(i)}
        >
          <span className="slash-name mono">/<Visible text={it.name} /></span>
          {it.description && <span className="slash-desc"><Visible text={it.description} /></span>}
          <span className="spacer" />
          <span className="slash-source quiet">
            {it.source === "agent" ? "agent" : it.alsoAgent ? "Hermes Desk — the agent has one too" : "Hermes Desk"}
          </span>
        </li>
      ))}
    </ul>
  );
}
