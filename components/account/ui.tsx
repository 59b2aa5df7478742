/** Small form parts of the account pages, in the landing page's look. */

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 dark:border-slate-700 dark:bg-slate-900";
export const buttonClass =
  "inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60";
export const secondaryButtonClass =
  "inline-flex items-center justify-center rounded-md px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-800";

export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
      {label}
      {children}
    </label>
  );
}

export function Notice({ kind, children }: { kind: "error" | "info"; children: React.ReactNode }) {
  const tone =
    kind === "error"
      ? "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/40 dark:text-red-200 dark:ring-red-900"
      : "bg-blue-50 text-blue-900 ring-blue-200 dark:bg-blue-950/40 dark:text-blue-100 dark:ring-blue-900";
  return (
    <p role={kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ring-1 ${tone}`}>
      {children}
    </p>
  );
}

export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto w-full max-w-md flex-1 px-4 py-10">
      <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900/60 dark:ring-slate-800">
        <h1 className="mb-4 text-xl font-bold tracking-tight">{title}</h1>
        {children}
      </div>
    </main>
  );
}
