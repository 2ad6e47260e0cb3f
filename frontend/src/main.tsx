import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { applyTheme, readTheme } from "./app/theme";
import { createTransport } from "./transport";
import "./styles/tokens.css";
import "./styles/app.css";
import "./styles/manage.css";
import "./styles/workbench.css";
import "./styles/attachments.css";

applyTheme(readTheme());
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App transport={createTransport()} />
  </StrictMode>,
);
