import { z } from "zod";
import { CONTROL_CHARACTERS, isoTime } from "./common";

/** Domain groups (docs/spec/account-api.md "Domain groups"): requests and answers. */

export const MAX_GROUP_DOMAINS = 500;
/** 500 hostnames of up to 253 characters, quoted, plus the name: more than the default 16 KiB body. */
export const GROUP_BODY_MAX_BYTES = 256 * 1024;

const nameField = z
  .string()
  .trim()
  .min(1, "must be 1–100 characters")
  .max(100, "must be 1–100 characters")
  // A name is shown as a badge and written to CSV cells; control characters have no place there.
  .refine((name) => !CONTROL_CHARACTERS.test(name), "must not contain control characters");
const domainsField = z
  .array(z.string().max(300, "is longer than a hostname can be"))
  .min(1, "list at least one hostname")
  .max(MAX_GROUP_DOMAINS, `at most ${MAX_GROUP_DOMAINS} hostnames`);

export const createGroupSchema = z.strictObject({ name: nameField, domains: domainsField });
export const updateGroupSchema = z
  .strictObject({ name: nameField.optional(), domains: domainsField.optional() })
  .refine((input) => input.name !== undefined || input.domains !== undefined, {
    message: "send name, domains or both",
  });

export const DomainGroupSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Hostnames, lowercased and in punycode, duplicates removed, in the order given. */
  domains: z.array(z.string()),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export type DomainGroup = z.infer<typeof DomainGroupSchema>;
export type CreateGroupInput = z.infer<typeof createGroupSchema>;
export type UpdateGroupInput = z.infer<typeof updateGroupSchema>;
