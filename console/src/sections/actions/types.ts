/** Actions and custom types as the metadata holds them (the well-known engine's export form). */
import type { ConfiguredHeader } from '../../api/metadata';

export interface ActionArgument {
  name: string;
  type: string;
  description?: string;
}

export interface ActionDefinition {
  kind?: 'synchronous' | 'asynchronous';
  type?: 'query' | 'mutation';
  arguments?: ActionArgument[];
  output_type: string;
  handler: string;
  timeout?: number;
  headers?: ConfiguredHeader[];
  forward_client_headers?: boolean;
  request_transform?: RequestTransform;
  response_transform?: ResponseTransform;
}

export interface ActionEntry {
  name: string;
  definition: ActionDefinition;
  comment?: string;
  permissions?: { role: string; comment?: string }[];
}

export interface BodyTransform {
  action: 'transform' | 'remove' | 'x_www_form_urlencoded';
  template?: string;
}

export interface RequestTransform {
  version?: 1 | 2;
  template_engine?: string;
  method?: string;
  url?: string;
  body?: BodyTransform | string;
  query_params?: Record<string, string | null> | string;
  request_headers?: { add_headers?: Record<string, string>; remove_headers?: string[] };
}

export interface ResponseTransform {
  version?: 1 | 2;
  template_engine?: string;
  body?: BodyTransform | string;
}

export interface CustomField {
  name: string;
  type: string;
  description?: string;
}

export interface CustomTypes {
  input_objects?: { name: string; description?: string; fields: CustomField[] }[];
  objects?: { name: string; description?: string; fields: CustomField[]; relationships?: CustomRelationship[] }[];
  scalars?: { name: string; description?: string }[];
  enums?: { name: string; description?: string; values: { value: string; description?: string; is_deprecated?: boolean }[] }[];
}

/** A custom object type's relationship to a tracked table: its fields mapped to the table's columns. */
export interface CustomRelationship {
  name: string;
  type: 'object' | 'array';
  remote_table: { schema: string; name: string };
  source?: string;
  field_mapping: Record<string, string>;
}
