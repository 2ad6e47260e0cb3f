import { AboutDialog, QuickSwitch, SettingsDialog, ShortcutSheet } from "../components/settings/Dialogs";
import { RemoveProjectDialog } from "../components/sidebar/ProjectActions";
import { DeleteSessionDialog } from "../components/sidebar/SessionActions";
import type { RunStore } from "../store/runStore";
import { agentLabel } from "../settings/addAgent";
import type { Transport } from "../transport/transport";
import type { Project, SearchHit, Session } from "../transport/types";
import type { ThemePref } from "./theme";
import type { Backend } from "./useBackend";
import type { Navigation } from "./useNavigation";

/** The shell's dialogs: at most one open (Settings, About, shortcuts, quick switch, a delete or remove). */
export function ShellDialogs(p: {
  t: Transport;
  runs: RunStore;
  b: Backend;
  nav: Navigation;
  theme: ThemePref;
  onTheme(theme: ThemePref): void;
  deleting?: Session;
  onDelete(s: Session): Promise<void>;
  onStop(s: Session): Promise<string | undefined>;
  onCloseDelete(): void;
  removing?: Project;
  onRemove(p: Project): Promise<void>;
  onCloseRemove(): void;
  search(q: string): Promise<SearchHit[]>;
}) {
  const { t, b, nav, deleting, removing } = p;
  const connected = b.conn === "connected";
  const close = () => nav.setDialog(null);
  return (
    <>
      {nav.dialog === "settings" && (
        <SettingsDialog
          theme={p.theme}
          onTheme={p.onTheme}
          desktop={t.desktop}
          api={connected ? t.api : undefined}
          onAbout={() => nav.setDialog("about")}
          onClose={close}
          activeRuns={() => p.runs.bus.localActive()}
          bus={p.runs.bus}
        />
      )}
      {deleting && (
        <DeleteSessionDialog
          key={deleting.id}
          session={deleting}
          onDelete={() => p.onDelete(deleting)}
          onStop={() => p.onStop(deleting)}
          onClose={p.onCloseDelete}
        />
      )}
      {removing && (
        <RemoveProjectDialog
          key={removing.id}
          project={removing}
          sessions={(b.sessions[removing.id] ?? []).length}
          onRemove={() => p.onRemove(removing)}
          onClose={p.onCloseRemove}
        />
      )}
      {nav.dialog === "about" && <AboutDialog desktop={t.desktop} onClose={close} />}
      {nav.dialog === "shortcuts" && <ShortcutSheet onClose={close} />}
      {nav.dialog === "quick" && <QuickSwitch projects={b.projects} sessions={b.sessions} agentName={(id) => agentLabel(b.agents, id)} onPick={nav.selectSession} onClose={close} search={connected ? p.search : undefined} />}
    </>
  );
}
