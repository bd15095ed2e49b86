import { AppError, type FieldIssue, invalidInput, notFound } from '../../errors';
import { bytesToBase64 } from '../../domain/encoding';
import type { SchemaRecord, SchemaRepository } from '../../domain/ports';
import { SCHEMA_NAME_PATTERN, SCHEMA_NAME_RULE, buildSchemaBody, parseSchemaRequest } from '../../domain/schemas';
import type { Actor } from '../../domain/tenancy/actor';
import type { CreateSchemaInput as CreateSchemaRequest } from '../../contracts/family-a/schemas';

/** Schema record of interface reference 2.2. */
export interface SchemaView {
  readonly name: string;
  readonly body: Record<string, unknown>;
  readonly timestamp: string;
}

export interface SchemaCreated {
  readonly name: string;
  readonly message: { operation: 'create'; versionContol: string; schemaDocumentBase64: string; timestamp: string };
}

export const toSchemaView = (r: SchemaRecord): SchemaView => ({
  name: `${r.name}:${r.version}`,
  body: r.body,
  timestamp: r.createdAt.toISOString(),
});

/** `Name` or `Name:3`. */
export function parseSchemaRef(ref: string): { name: string; version: number | undefined } {
  const m = /^([^:]+)(?::([1-9][0-9]{0,8}))?$/.exec(ref);
  if (!m || !SCHEMA_NAME_PATTERN.test(m[1]!)) {
    const message = `schemaName must be <name> or <name>:<version>, the name being ${SCHEMA_NAME_RULE}`;
    throw invalidInput(message, [{ field: 'schemaName', message }]);
  }
  return { name: m[1]!, version: m[2] === undefined ? undefined : Number(m[2]) };
}

/**
 * The version a public schema request asks for: `:<n>` in the path or `?version=<n>`, not both.
 * The query value arrives checked against its declared parameter (contracts/service.ts).
 */
function mergeVersion(inPath: number | undefined, query: number | undefined): number | undefined {
  if (query === undefined) return inPath;
  if (inPath !== undefined) throw invalidInput('give the version either as :<n> or as ?version=<n>, not both', [{ field: 'version', message: 'given twice' }]);
  return query;
}

/** Versioned Family A schemas. */
export class SchemasService {
  constructor(
    private readonly schemas: SchemaRepository,
    private readonly publicUrl: string,
  ) {}

  /** `input` is typed by the contract (src/contracts); the rules are still checked here, for every transport. */
  async create(actor: Actor, input: CreateSchemaRequest): Promise<SchemaCreated> {
    const draft = parseSchemaRequest(input);
    await this.assertDependantsExist(actor, draft.schemaName, draft.dependantSchemas);
    const body = buildSchemaBody(draft);
    const record = await this.schemas.createNextVersion({ tenantId: actor.tenantId, name: draft.schemaName, body: () => ({ ...body }) });
    const view = toSchemaView(record);
    return {
      name: view.name,
      message: {
        operation: 'create',
        versionContol: view.name,
        schemaDocumentBase64: bytesToBase64(Buffer.from(JSON.stringify(record.body), 'utf8')),
        timestamp: view.timestamp,
      },
    };
  }

  /**
   * Every `dependantSchemas` entry must name an existing schema of the tenant (`Name`: any version,
   * `Name:n`: that version), and not the schema being created (a dependency on itself could never
   * be met at issuance).
   */
  private async assertDependantsExist(actor: Actor, schemaName: string, dependants: readonly string[]): Promise<void> {
    const issues: FieldIssue[] = [];
    for (const [i, ref] of dependants.entries()) {
      const { name, version } = parseSchemaRef(ref);
      const field = `dependantSchemas[${i}]`;
      if (name === schemaName) issues.push({ field, message: 'a schema cannot depend on itself' });
      else if (!(version === undefined ? await this.schemas.findLatest(actor.tenantId, name) : await this.schemas.findVersion(actor.tenantId, name, version))) {
        issues.push({ field, message: `schema ${ref} does not exist` });
      }
    }
    if (issues.length > 0) throw new AppError('UNKNOWN_SCHEMA', 'dependantSchemas names schemas that do not exist', issues);
  }

  async list(actor: Actor): Promise<SchemaView[]> {
    return (await this.schemas.listByTenant(actor.tenantId)).map(toSchemaView);
  }

  /** Latest version for `Name`, exact for `Name:n`. */
  async get(actor: Actor, ref: string): Promise<SchemaRecord> {
    const { name, version } = parseSchemaRef(ref);
    const r = version === undefined ? await this.schemas.findLatest(actor.tenantId, name) : await this.schemas.findVersion(actor.tenantId, name, version);
    if (!r) throw notFound('schema');
    return r;
  }

  /** Like `get`, but an unknown schema in an issuance request is the client's input error (400). */
  async forIssuance(actor: Actor, ref: string): Promise<SchemaRecord> {
    try {
      return await this.get(actor, ref);
    } catch (e) {
      if (e instanceof AppError && e.code === 'NOT_FOUND') throw new AppError('UNKNOWN_SCHEMA', `schema ${ref} does not exist`, [{ field: 'schemaName', message: 'unknown schema' }]);
      throw e;
    }
  }

  /**
   * The public schema document behind a credential's `credentialSchema.id`. Schema names are
   * per tenant, so the URL carries the tenant (`/t/<tenant>/schema/<name>`, reference 2.4: the URL
   * ends in `/schema/<schema_name>`); the bare `/schema/<name>` form answers only when exactly one
   * tenant publishes that name (and version), otherwise 409. The versioned forms are
   * `.../schema/<name>?version=<n>` and `.../schema/<name>:<n>`; a credential names its version in
   * its signed `version` field.
   */
  async publicBody(tenantSlug: string | undefined, ref: string, versionQuery?: number): Promise<Record<string, unknown>> {
    const parsed = parseSchemaRef(ref);
    const version = mergeVersion(parsed.version, versionQuery);
    const found = await this.schemas.findPublic(tenantSlug, parsed.name, version);
    if (found.length === 0) throw notFound('schema');
    if (found.length > 1) throw new AppError('CONFLICT', `several tenants publish schema ${parsed.name}: use /t/<tenant>/schema/${ref}`);
    return found[0]!.body;
  }

  /** `credentialSchema.id` of reference 2.4: ends in `/schema/<schema_name>`, without the version. */
  schemaUrl(tenantSlug: string, record: SchemaRecord): string {
    return `${this.publicUrl}/t/${tenantSlug}/schema/${record.name}`;
  }
}
