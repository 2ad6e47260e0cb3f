// The Usage view: the last 30 days' tokens by agent as a chart, the table
// behind it (by day, agent, model or project), and Export CSV
// (docs/ARCHITECTURE.md §Usage).
import { BarChart3, Download, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { saveFile } from "../components/session/ExportMenu";
import type { ApiClient } from "../transport/api";
import { chartData } from "./chart";
import { costSentence, money, n } from "./summary";
import type { QuotaLine, UsageGroup, UsageReport } from "./types";
import { UsageChart } from "./UsageChart";

const groups: [UsageGroup, string][] = [
  ["day", "Day"],
  ["agent", "Agent"],
  ["model", "Model"],
  ["project", "Project"],
];


export default function UsageView({ api }: { api: ApiClient }) {
  const [group, setGroup] = useState<UsageGroup>("agent");
  const [days, setDays] = useState<UsageReport>();
  const [table, setTable] = useState<UsageReport>();
  const [err, setErr] = useState<string>();
  const [quota, setQuota] = useState<QuotaLine[]>();

  const load = useCallback(async () => {
    setErr(undefined);
    try {
      const [d, t, q] = await Promise.all([api.usage("day"), group === "day" ? undefined : api.usage(group), api.quota().catch(() => [])]);
      setDays(d);
      setTable(t ?? d);
      setQuota(q);
    } catch (e) {
      setErr(e instanceof Error ? e.message : "The usage could not be read.");
    }
  }, [api, group]);
  useEffect(() => void load(), [load]);

  const chart = useMemo(() => (days ? chartData(days, new Date()) : undefined), [days]);
  const exportCsv = async () => {
    try {
      saveFile(await api.usageCsv(group));
    } catch (e) {
      setErr(e instanceof Error ? e.message : "The export failed.");
    }
  };
  const shown = table?.group === "day" ? [...table.rows].reverse() : table?.rows;

  return (
    <section className="usage" aria-labelledby="usage-head">
      <header className="usage-head">
        <BarChart3 size={18} aria-hidden />
        <h1 id="usage-head">Usage</h1>
        <span className="spacer" />
        <button type="button" className="icon-btn" onClick={() => void load()} title="Refresh" aria-label="Refresh usage">
          <RefreshCw size={16} />
        </button>
        <button type="button" className="btn" onClick={() => void exportCsv()} disabled={!table}>
          <Download size={16} aria-hidden /> Export CSV
        </button>
      </header>
      {err && <p className="control-note" role="alert">Cannot show usage: {err}</p>}
      {!days && !err && <p className="quiet" role="status">Loading usage…</p>}
      {quota && (
        <section className="usage-quota" aria-label="Limits">
          <h2>Limits</h2>
          {quota.length === 0 ? (
            <p className="quiet">No agent has reported a limit yet (Codex and Claude Code report theirs as they work).</p>
          ) : (
            <ul>
              {quota.map((q) => (
                <li key={`${q.vendor}/${q.window}`} className={q.limited ? "tone-fail" : undefined}>{q.line}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      {days && (
        <>
          <p className="quiet usage-intro">
            Tokens per day by agent, the last 30 days. {costSentence(days)}
          </p>
          {chart && <UsageChart data={chart} />}
        </>
      )}
      {table && (
        <>
          <div className="usage-groups" role="group" aria-label="Group the table by">
            {groups.map(([g, label]) => (
              <button key={g} type="button" className={`chip-btn${g === group ? " selected" : ""}`} aria-pressed={g === group} onClick={() => setGroup(g)}>
                {label}
              </button>
            ))}
          </div>
          <div className="usage-table-wrap">
            <table className="usage-table">
              <thead>
                <tr>
                  <th scope="col">{groups.find(([g]) => g === table.group)?.[1]}</th>
                  <th scope="col" className="num">Runs</th>
                  <th scope="col" className="num">In</th>
                  <th scope="col" className="num">Out</th>
                  <th scope="col" className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {shown?.length === 0 && (
                  <tr>
                    <td colSpan={5} className="quiet">No runs ended in these 30 days.</td>
                  </tr>
                )}
                {shown?.map((r) => (
                  <tr key={r.key}>
                    <th scope="row">{r.label}</th>
                    <td className="num">{n(r.runs)}</td>
                    <td className="num" title={r.cached_tokens ? `${n(r.cached_tokens)} cached` : undefined}>{n(r.input_tokens)}</td>
                    <td className="num">{n(r.output_tokens)}</td>
                    <td className="num" title={r.unpriced_runs ? `${n(r.unpriced_runs)} runs had no price` : undefined}>
                      {r.cost_usd ? money(r.cost_usd) : r.unpriced_runs ? "no price" : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td className="num">{n(table.total.runs)}</td>
                  <td className="num">{n(table.total.input_tokens)}</td>
                  <td className="num">{n(table.total.output_tokens)}</td>
                  <td className="num">{money(table.total.cost_usd)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
