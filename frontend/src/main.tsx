import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { installGuards } from "./app/guard";
import { applyTheme, readTheme } from "./app/theme";
import { createTransport } from "./transport";
// Global tokens and layout first, then styles kept beside their feature;
// imported here, in this order, so the cascade is the same in every chunk
// (docs/ARCHITECTURE.md §Window).
import "./styles/tokens.css";
import "./styles/app.css";
import "./components/common/folderMissing.css";
import "./styles/manage.css";
import "./styles/workbench.css";
import "./components/composer/attachments.css";
import "./components/hosts/hosts.css";
import "./usage/usage.css";

applyTheme(readTheme());
// From the first script on, nothing dropped or clicked replaces the page;
// the app adds its own handling on top once it renders (app/guard.ts).
installGuards(window);
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App transport={createTransport()} />
  </StrictMode>,
);
