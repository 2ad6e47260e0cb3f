import type { RunStore } from "../../store/runStore";
import type { Transport } from "../../transport/transport";
import type { Session, SessionDetail } from "../../transport/types";
import { latestModels, pickerModels, useAgentModels } from "./ModelPicker";
import { defaultModels, headerSettings, latestConfig, useAgentConfig } from "./SessionSettings";
import type { RunStatusView } from "./useRunStatus";

/**
 * The models and settings the header offers: what the runs reported, what
 * the agent lists, and before the first run the agent's settings for a new
 * session as last reported on this machine (§Session config options).
 */
export function useAgentChoices(t: Transport, runs: RunStore, run: RunStatusView, ids: string[], detail: SessionDetail | null, session: Session) {
  const served = useAgentModels(t.api, run.agent, runs.bus);
  const reportedModels = latestModels(runs, ids);
  const agentDefaults = useAgentConfig(t.api, run.agent, runs.bus);
  // A queued run has no agent to ask yet: it starts with the session's
  // kept choices, so they are set on the session as between runs.
  const agentUp = run.active && run.status !== "queued";
  const shown = headerSettings(latestConfig(runs, ids), detail?.config ?? session.config, agentDefaults.options, agentUp);
  const defaultModel = defaultModels(agentDefaults);
  return {
    served,
    reportedModels,
    agentUp,
    settings: shown.options,
    agentDefault: shown.agentDefault,
    defaultModel,
    models: pickerModels(reportedModels, served.listed, defaultModel.models),
  };
}

export type AgentChoices = ReturnType<typeof useAgentChoices>;
