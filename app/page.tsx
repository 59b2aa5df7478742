import Link from "next/link";

// The landing page. The analyzer UI mounts here.
export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-4xl font-bold tracking-tight">LinkLens</h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
        Render a public web page and see every link on it: internal or external, nofollow, sponsored or ugc, its anchor text and whether it is broken.
      </p>
      <nav className="mt-8 flex gap-6 text-blue-700 underline dark:text-blue-300">
        <Link href="/docs">API docs</Link>
        <a href="/llms.txt">llms.txt</a>
        <a href="/openapi.json">OpenAPI</a>
      </nav>
    </main>
  );
}
