export function CodeBlock({ children }: { children: string }) {
  return (
    <pre className="mt-2 overflow-x-auto rounded bg-slate-100 p-3 text-sm dark:bg-slate-900">
      <code>{children}</code>
    </pre>
  );
}
