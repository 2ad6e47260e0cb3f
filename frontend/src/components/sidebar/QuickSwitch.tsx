import { Search } from "lucide-react";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { hitKey } from "../../store/jump";
import { snippetSegments } from "../../text/snippet";
import type { Project, SearchHit, Session } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { revealInvisible } from "../../text/invisible";
import { SourceBadge } from "../history/SourceBadge";

/** Full-text hits are asked for once typing pauses, from this many characters. */
const SEARCH_MIN = 3;
const SEARCH_DELAY_MS = 200;
/** Text rows: enough to tell hits apart, not a results page. */
const TEXT_ROWS = 30;
const TEXT_ROWS_PER_SESSION = 6;

const KIND_LABEL: Record<string, string> = {
  user: "You",
  assistant: "Answer",
  reasoning: "Thinking",
  tool: "Tool output",
};

/** A snippet with its matched terms emphasised and its inline **strong** and `code` shown as such (text/snippet.ts); React escapes the text. */
export function Snippet({ text }: { text: string }) {
  return (
    <>
      {snippetSegments(text).map((s, i) => {
        let el = s.mark ? <mark>{s.text}</mark> : <>{s.text}</>;
        if (s.code) el = <code className="inline-code">{el}</code>;
        if (s.strong) el = <strong>{el}</strong>;
        return <span key={i}>{el}</span>;
      })}
    </>
  );
}

interface Row {
  key: string;
  s: Session;
  p: Project;
  hit?: SearchHit;
}

/** Title matches first, then one row per distinct message or event that matched. */
export function quickRows(q: string, all: { s: Session; p: Project }[], found: SearchHit[]): Row[] {
  const n = q.trim().toLowerCase();
  const live = all.filter((x) => !x.s.archived);
  const byTitle = (n ? live.filter(({ s, p }) => `${s.title} ${p.name} ${s.agent}`.toLowerCase().includes(n)) : live).slice(0, 50);
  const byId = new Map(all.map((x) => [x.s.id, x]));
  const seen = new Set<string>();
  const perSession = new Map<string, number>();
  const byText: Row[] = [];
  for (const h of found) {
    const x = h.session_id ? byId.get(h.session_id) : undefined;
    const k = hitKey(h);
    if (!x || seen.has(k)) continue;
    const c = perSession.get(x.s.id) ?? 0;
    if (c >= TEXT_ROWS_PER_SESSION) continue;
    seen.add(k);
    perSession.set(x.s.id, c + 1);
    byText.push({ key: `hit:${k}`, ...x, hit: h });
    if (byText.length >= TEXT_ROWS) break;
  }
  return [...byTitle.map((x) => ({ key: `s:${x.s.id}`, ...x })), ...byText];
}

export function QuickSwitch({
  projects,
  sessions,
  onPick,
  onClose,
  search,
  agentName = (id) => id,
}: {
  projects: Project[];
  sessions: Record<string, Session[]>;
  /** With a hit: open the session at that match. */
  onPick(s: Session, hit?: SearchHit): void;
  onClose(): void;
  /** GET /api/search: hits across messages and tool output. */
  search?: (q: string) => Promise<SearchHit[]>;
  /** The name people see for an agent id (settings/addAgent agentLabel). */
  agentName?(id: string): string;
}) {
  const [q, setQ] = useState("");
  const [sel, setSel] = useState(0);
  const [found, setFound] = useState<SearchHit[]>([]);
  // Archived sessions are searchable by their text, not listed by title.
  const all = useMemo(() => projects.flatMap((p) => (sessions[p.id] ?? []).map((s) => ({ s, p }))), [projects, sessions]);

  useEffect(() => {
    const n = q.trim();
    if (!search || n.length < SEARCH_MIN) {
      setFound([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      search(n).then(
        (h) => live && setFound(h),
        () => live && setFound([]),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, search]);

  const rows = useMemo(() => quickRows(q, all, found), [all, found, q]);
  const pick = (r: Row) => (r.hit ? onPick(r.s, r.hit) : onPick(r.s));
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setSel((i) => Math.min(i + 1, rows.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setSel((i) => Math.max(i - 1, 0));
    } else if (e.key === "Enter" && rows[sel]) {
      e.preventDefault();
      pick(rows[sel]!);
    }
  };
  return (
    <Dialog title="Switch to a session" onClose={onClose} wide>
      <div className="quick-input">
        <Search size={16} aria-hidden />
        <input
          className="input"
          autoFocus
          placeholder="Search sessions and what was said…"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setSel(0);
          }}
          onKeyDown={onKey}
          aria-label="Search sessions"
          role="combobox"
          aria-expanded="true"
          aria-controls="quick-list"
        />
      </div>
      <ul className="quick-list" id="quick-list" role="listbox">
        {rows.length === 0 && <li className="quiet">No session matches.</li>}
        {rows.map((r, i) => (
          <li key={r.key} role="option" aria-selected={i === sel}>
            <button
              type="button"
              className={[r.hit?.snippet ? "quick-hit" : "", i === sel ? "on" : ""].join(" ").trim()}
              onClick={() => pick(r)}
              onMouseEnter={() => setSel(i)}
            >
              <span className="quick-title">
                <span className="ellipsis">{revealInvisible(r.s.title || "Untitled session")}</span>
                {r.s.imported_from && <SourceBadge from={r.s.imported_from} />}
              </span>
              {r.hit?.snippet ? (
                <span className="quiet quick-snippet">
                  {r.hit.kind && KIND_LABEL[r.hit.kind] && <span className="quick-kind">{KIND_LABEL[r.hit.kind]} · </span>}
                  <Snippet text={r.hit.snippet} />
                </span>
              ) : (
                <span className="quiet">{r.p.name} · {agentName(r.s.agent)}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
