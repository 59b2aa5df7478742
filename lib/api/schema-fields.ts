import { z } from "zod";

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

interface JsonSchemaNode {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
}

function typeName(node: JsonSchemaNode): string {
  if (node.anyOf) return node.anyOf.map(typeName).join(" or ");
  if (node.const !== undefined) return `constant ${JSON.stringify(node.const)}`;
  if (node.enum) return `one of ${node.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if (node.$ref) return node.$ref.split("/").pop() ?? "object";
  const type = Array.isArray(node.type) ? node.type.join(" or ") : (node.type ?? "any");
  if (type === "array" && node.items) return `array of ${typeName(node.items)}`;
  return node.format ? `${type} (${node.format})` : type;
}

/** The top-level fields of an object schema, for the docs tables (derived, so they never drift). */
export function describeFields(schema: z.ZodType): FieldRow[] {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode;
  // A schema named with .meta({ id }) comes back as a $ref into $defs.
  const json = root.$ref ? (root.$defs?.[root.$ref.split("/").pop() ?? ""] ?? root) : root;
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, node]) => ({
    name,
    type: typeName(node),
    required: required.has(name),
    description: node.description ?? "",
  }));
}
