/** Saves text as a file through a Blob URL (nothing leaves the browser). */
export function downloadText(content: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = "noopener";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoke after the click has been handled; revoking synchronously can cancel the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** linklens-example.com-20261122-0214 */
export function exportBaseName(domain: string, date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}`;
  const safeDomain = domain.replace(/[^a-z0-9.-]/gi, "_") || "page";
  return `linklens-${safeDomain}-${stamp}`;
}
