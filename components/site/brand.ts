/** Session cookie names of Better Auth (the __Secure- one when served over https). */
export const SESSION_COOKIES = ["better-auth.session_token", "__Secure-better-auth.session_token"];
