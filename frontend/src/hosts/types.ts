// The remote hosts' wire shapes come from the generated contract (backend/contract,
// `make contract`; docs/ARCHITECTURE.md §Hosts): this name stays for the code that imports it here.
export type { Host } from "../contract/wire.gen";
