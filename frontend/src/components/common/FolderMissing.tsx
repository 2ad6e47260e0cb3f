// A project whose folder is gone (moved or deleted): the session says so
// before anything is sent, and offers the two ways on — point the project
// at where the folder went, or remove the project (issue 23.12). The
// backend refuses a run there anyway (code folder_missing).
import { FolderX } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { Project } from "../../transport/types";

/** What the banner asks of the app. */
export interface FolderActions {
  /**
   * Points the project at another folder: path typed in the page, or
   * undefined to ask the native folder chooser. Resolves an error message
   * when refused, "" when the person cancelled.
   */
  locate(project: Project, path?: string): Promise<string | undefined>;
  remove(project: Project): void;
  /** A native folder chooser is there (the desktop window). */
  canPick: boolean;
}

export function FolderMissing({ project, actions }: { project: Project; actions: FolderActions }) {
  const [typing, setTyping] = useState(false);
  const [path, setPath] = useState("");
  const [err, setErr] = useState<string>();
  const locate = async (p?: string) => {
    setErr(undefined);
    const e = await actions.locate(project, p);
    if (e) setErr(e);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) void locate(path.trim());
  };
  return (
    <div className="banner folder-missing-banner" role="alert">
      <FolderX size={16} aria-hidden />
      <div className="folder-missing-text">
        <p>
          The folder of <strong>{project.name}</strong> is missing — it was moved or deleted, so nothing can run here
          until you locate it.
        </p>
        <p className="quiet mono ellipsis" title={project.workspace}>{project.workspace}</p>
        {typing && (
          <form className="path-form" onSubmit={submit}>
            <label htmlFor="locate-path" className="sr-only">Where the folder is now</label>
            <input id="locate-path" className="input mono" placeholder="/home/you/code/project" value={path} onChange={(e) => setPath(e.target.value)} autoFocus />
            <button type="submit" className="btn btn-primary" disabled={!path.trim()}>Use this folder</button>
          </form>
        )}
        {err && <p className="control-note">{err}</p>}
      </div>
      <div className="folder-missing-actions">
        {!typing && (
          <button type="button" className="btn btn-primary" onClick={() => (actions.canPick ? void locate() : setTyping(true))}>
            Locate…
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={() => actions.remove(project)}>Remove project</button>
      </div>
    </div>
  );
}
