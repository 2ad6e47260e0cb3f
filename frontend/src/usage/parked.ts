// A parked run's wait in words (docs/ARCHITECTURE.md §Usage, parked runs):
// the run hit its vendor's rate limit and the core resumes it by itself.

/** "Waiting for quota — resumes at 15:00"; without a known time, just the wait. */
export function parkedText(resumesAt: string | undefined, locale?: string): string {
  const t = resumesAt ? new Date(resumesAt) : undefined;
  if (!t || Number.isNaN(t.getTime())) return "Waiting for quota";
  const hm = t.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  return `Waiting for quota — resumes at ${hm}`;
}
