/** The theme a person picked: follow the system, or always light or dark. */
export type ThemePref = "system" | "light" | "dark";
