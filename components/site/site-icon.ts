/**
 * The site's icon, inline, so browsers do not ask for a /favicon.ico that does not exist. Its own module,
 * free of server-only imports, so client components (the branding preview) can draw it too.
 */
export const SITE_ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><circle cx="14" cy="14" r="7" fill="none" stroke="#fff" stroke-width="3"/><path d="M19 19l7 7" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>')}`;
