// The run's change set in the inspector: every file it created, edited or
// deleted, each expandable to its diff (docs/ARCHITECTURE.md §Events).
import { changeTotals } from "../../store/fold";
import type { FileTouch } from "../../store/model";
import { ChangeSummary, FileChange } from "./DiffView";

export function ChangesView({ files }: { files: FileTouch[] }) {
  if (files.length === 0) return <p className="quiet">No files changed yet.</p>;
  const totals = changeTotals(files);
  return (
    <div className="changes-view">
      {totals.files > 0 && <ChangeSummary totals={totals} />}
      <ul className="file-changes">
        {files.map((f) => <FileChange key={f.path} file={f} defaultOpen={files.length <= 3} />)}
      </ul>
    </div>
  );
}
