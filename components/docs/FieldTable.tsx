import type { FieldRow } from "@/lib/api/schema-fields";

/** A table of a schema's fields, generated from the zod schema itself. */
export function FieldTable({ title, rows }: { title: string; rows: FieldRow[] }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <h4 className="font-semibold">{title}</h4>
      <table className="mt-2 w-full border-collapse text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            <th className="py-1 pr-4">Field</th>
            <th className="py-1 pr-4">Type</th>
            <th className="py-1 pr-4">Required</th>
            <th className="py-1">Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-b border-slate-200 align-top dark:border-slate-800">
              <td className="py-1 pr-4 font-mono">{row.name}</td>
              <td className="py-1 pr-4">{row.type}</td>
              <td className="py-1 pr-4">{row.required ? "yes" : "no"}</td>
              <td className="py-1">{row.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
