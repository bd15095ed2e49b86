import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { AppError, type FieldIssue, invalidInput, notFound, summarizeIssues } from '../../errors';
import { canonicalBytes } from '../../domain/canonical';
import { CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL } from '../../domain/contexts';
import { parseServiceDid } from '../../domain/dids/service-did';
import type { Clock, DidRecord, DidRepository, TemplateProofSuite, TemplateRecord } from '../../domain/ports';
import { addExpiration, parseTemplateAttributes, parseTemplateExpiration } from '../../domain/templates';
import type { Actor } from '../../domain/tenancy/actor';
import type { PrismaTemplateRepository, TemplateData } from '../../db/repositories/template.repository';
import { isUuid } from './ids';
import type { TemplateInput as TemplateRequest } from '../../contracts/family-b/templates';

/** The template document of interface reference 2.9. */
export interface TemplateDocument {
  readonly _id: string;
  readonly templateId: string;
  readonly name: string;
  readonly description: string;
  readonly context: string[];
  readonly type: string[];
  readonly issuer: string;
  readonly issuanceDate: string;
  readonly expirationDate: string;
  readonly credentialSubject: { attributeName: string; type: string; description: string }[];
  /**
   * Present only when the template names a suite other than Family B's default (issue 18, additive):
   * a reference template's document, and so its anchored hash, is unchanged.
   */
  readonly proofSuite?: TemplateProofSuite;
  readonly __v: number;
}

export interface TemplatePage {
  readonly items: TemplateDocument[];
  readonly hasMore: boolean;
  /** The cursor to pass as `after` for the next page; null on the last page. */
  readonly next: string | null;
  readonly total: number;
}

/** Largest page of GET /vc-templates (and of the bare, array-shaped compatibility form). */
export const MAX_TEMPLATE_PAGE = 500;

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,127}$/;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The body of POST/PUT /vc-templates, checked once for both transports. */
interface TemplateInput {
  templateName: string;
  description: string;
  issuer: string;
  attributes: ReturnType<typeof parseTemplateAttributes>;
  expiration: ReturnType<typeof parseTemplateExpiration>;
  proofSuite: TemplateProofSuite | null;
}

/** What `proofSuite` may say: Family B's default suite by name (same as leaving it out) or bbs-2023. */
const PROOF_SUITES: Readonly<Record<string, TemplateProofSuite | null>> = { EcdsaSecp256k1Signature2019: null, 'bbs-2023': 'bbs-2023' };

function parseProofSuite(value: unknown, issues: FieldIssue[]): TemplateProofSuite | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && Object.hasOwn(PROOF_SUITES, value)) return PROOF_SUITES[value] ?? null;
  issues.push({ field: 'proofSuite', message: `one of ${Object.keys(PROOF_SUITES).join(', ')}` });
  return null;
}

function parseTemplateInput(body: unknown): TemplateInput {
  if (!isObject(body)) throw invalidInput('request body must be a JSON object');
  const { templateName, description, issuer } = body;
  const issues: FieldIssue[] = [];
  if (typeof templateName !== 'string' || !NAME_RE.test(templateName)) issues.push({ field: 'templateName', message: 'letters, digits, space . _ - (1-128), starting with a letter or digit' });
  if (typeof description !== 'string' || description.length > 1000) issues.push({ field: 'description', message: 'required string (max 1000)' });
  if (typeof issuer !== 'string' || issuer.length > 512) issues.push({ field: 'issuer', message: 'required DID string' });
  let attributes: TemplateInput['attributes'] = [];
  let expiration: TemplateInput['expiration'] | undefined;
  try {
    attributes = parseTemplateAttributes(body['attributes']);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    issues.push(...(e.details ?? [{ field: 'attributes', message: e.message }]));
  }
  try {
    expiration = parseTemplateExpiration(body['expiration']);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    issues.push(...(e.details ?? [{ field: 'expiration', message: e.message }]));
  }
  const proofSuite = parseProofSuite(body['proofSuite'], issues);
  if (issues.length > 0 || !expiration) throw invalidInput(summarizeIssues('invalid template', issues), issues);
  return { templateName: templateName as string, description: description as string, issuer: issuer as string, attributes, expiration, proofSuite };
}

export function templateDocument(t: TemplateRecord, issuerDid: string): TemplateDocument {
  return {
    _id: t.id,
    templateId: t.templateId,
    name: t.name,
    description: t.description,
    context: [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL],
    type: ['VerifiableCredential', t.name],
    issuer: issuerDid,
    issuanceDate: t.issuanceDate.toISOString(),
    expirationDate: t.expirationDate.toISOString(),
    credentialSubject: t.attributes.map((a) => ({ attributeName: a.attributeName, type: a.type, description: a.description })),
    // Inside the document, so the template hash anchored in the issuer's log covers the suite.
    ...(t.proofSuite ? { proofSuite: t.proofSuite } : {}),
    __v: t.version,
  };
}

/** Family B credential templates; each version is anchored in the issuer's template log. */
export class TemplatesService {
  constructor(
    private readonly templates: PrismaTemplateRepository,
    private readonly dids: DidRepository,
    private readonly clock: Clock,
  ) {}

  /** `body` is typed by the contract (src/contracts); the rules are still checked here, for every transport. */
  async create(actor: Actor, body: TemplateRequest): Promise<TemplateDocument> {
    const input = parseTemplateInput(body);
    const issuer = await this.issuerOf(actor, input.issuer);
    this.checkSuiteKey(input, issuer);
    const now = this.clock.now();
    const data: TemplateData = { id: randomUUID(), templateId: randomUUID(), tenantId: actor.tenantId, ...this.content(input, issuer, now) };
    const doc = templateDocument({ ...data, version: 0, deletedAt: null }, issuer.did);
    const record = await this.templates.create(data, this.anchor(issuer, doc));
    return templateDocument(record, issuer.did);
  }

  async update(actor: Actor, templateId: string, body: TemplateRequest): Promise<TemplateDocument> {
    const input = parseTemplateInput(body);
    if (!isUuid(templateId)) throw notFound('template');
    const issuer = await this.issuerOf(actor, input.issuer);
    this.checkSuiteKey(input, issuer);
    const now = this.clock.now();
    const record = await this.templates.update(
      actor.tenantId,
      templateId,
      (current) => ({ id: current.id, templateId: current.templateId, tenantId: current.tenantId, ...this.content(input, issuer, now) }),
      (next) => this.anchor(issuer, templateDocument(next, issuer.did)),
    );
    if (!record) throw notFound('template');
    return templateDocument(record, issuer.did);
  }

  async delete(actor: Actor, templateId: string): Promise<void> {
    if (!isUuid(templateId)) throw notFound('template');
    if (!(await this.templates.delete(actor.tenantId, templateId, this.clock.now()))) throw notFound('template');
  }

  async getByName(actor: Actor, name: string): Promise<TemplateDocument> {
    const t = await this.templates.findByName(actor.tenantId, name);
    if (!t) throw notFound('template');
    return this.render(t);
  }

  /** A live template for issuing; unknown or deleted is the caller's input error. */
  async forIssuance(actor: Actor, templateId: string): Promise<TemplateRecord> {
    const t = isUuid(templateId) ? await this.templates.findByTemplateId(actor.tenantId, templateId) : null;
    if (!t) throw new AppError('INVALID_INPUT', 'templateId names no live template of this tenant', [{ field: 'templateId', message: 'unknown template' }]);
    return t;
  }

  async list(actor: Actor, page: { first?: number; after?: string } = {}): Promise<TemplatePage> {
    const first = page.first ?? 100;
    if (!Number.isInteger(first) || first < 1 || first > MAX_TEMPLATE_PAGE) throw invalidInput(`first must be an integer from 1 to ${MAX_TEMPLATE_PAGE}`, [{ field: 'first', message: 'out of range' }]);
    if (page.after !== undefined && !isUuid(page.after)) throw invalidInput('after must be the templateId of a listed template', [{ field: 'after', message: 'not a templateId' }]);
    const res = await this.templates.list(actor.tenantId, { first, ...(page.after ? { after: page.after } : {}) });
    const items = await Promise.all(res.items.map((t) => this.render(t)));
    return { items, hasMore: res.hasMore, next: res.hasMore ? (items.at(-1)?.templateId ?? null) : null, total: res.total };
  }

  private async render(t: TemplateRecord): Promise<TemplateDocument> {
    const issuer = await this.dids.findById(t.issuerDidId);
    return templateDocument(t, issuer?.did ?? '');
  }

  private content(input: TemplateInput, issuer: DidRecord, now: Date) {
    return {
      name: input.templateName,
      description: input.description,
      issuerDidId: issuer.id,
      attributes: input.attributes,
      expiration: input.expiration,
      issuanceDate: now,
      expirationDate: addExpiration(now, input.expiration),
      proofSuite: input.proofSuite,
    };
  }

  private anchor(issuer: DidRecord, doc: TemplateDocument) {
    return { logId: issuer.templateTopicId, entryHash: sha256(canonicalBytes(doc)), kind: 'template', ref: doc.templateId };
  }

  /** The template's issuer must be one of the caller's own (live) service DIDs. */
  private async issuerOf(actor: Actor, didText: string): Promise<DidRecord> {
    let ref;
    try {
      ref = parseServiceDid(didText);
    } catch {
      ref = undefined;
    }
    const record = ref ? await this.dids.findForTenant(actor.tenantId, ref.did) : null;
    if (!record || record.deletedAt !== null) {
      throw new AppError('INVALID_DID', 'issuer must be one of this tenant\u2019s DIDs (POST /dids)', [{ field: 'issuer', message: 'unknown DID' }]);
    }
    return record;
  }

  /** A bbs-2023 template's BBS key is derived from the issuer DID's sealed key: refused now, not at the first issuance. */
  private checkSuiteKey(input: TemplateInput, issuer: DidRecord): void {
    if (input.proofSuite === 'bbs-2023' && (issuer.keyAlgorithm !== 'secp256k1' || !issuer.managedKeyId)) {
      throw invalidInput('a bbs-2023 template needs an issuer DID whose secp256k1 private key this tenant holds (its BBS key is derived from it)', [{ field: 'issuer', message: 'issuer key not held' }]);
    }
  }
}
