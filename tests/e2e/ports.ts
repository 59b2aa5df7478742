/**
 * Loopback ports of the e2e servers (playwright.config.ts starts them). `E2E_PORT_OFFSET` shifts them
 * all, so two checkouts on one machine can run their e2e suites at the same time.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) || 0;
export const APP_PORT = 3107 + offset;
export const LIMITED_PORT = 3108 + offset;
export const FIXTURE_PORT = 4517 + offset;
export const APP_ORIGIN = `http://127.0.0.1:${APP_PORT}`;
export const LIMITED_ORIGIN = `http://127.0.0.1:${LIMITED_PORT}`;
export const FIXTURE_ORIGIN = `http://127.0.0.1:${FIXTURE_PORT}`;
/** The SMTP server the accounts e2e test starts; the app (APP_PORT) delivers its outbox there. */
export const SMTP_PORT = 4519 + offset;
