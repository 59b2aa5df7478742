import { handleAuthRequest } from "@/lib/auth/auth-endpoint";

// /api/auth/* — Better Auth (email + password, magic link, sessions, organizations), behind the origin
// rule and the sign-in limits, with every failure in the public Error body.
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
export const PUT = handleAuthRequest;
export const PATCH = handleAuthRequest;
export const DELETE = handleAuthRequest;
