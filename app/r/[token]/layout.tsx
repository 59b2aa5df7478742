// The client report's segment: its own not-found.tsx (the same 404 page for every token that opens
// nothing) needs a layout of this segment to hang from.
export default function ReportLayout({ children }: { children: React.ReactNode }) {
  return children;
}
