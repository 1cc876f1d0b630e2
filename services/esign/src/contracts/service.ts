import { createHash } from 'node:crypto';
import { InternalError, NotFoundError, ValidationError } from '../errors';
import type { LayoutDocument, PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { DocumentRow } from '../documents/repository';
import type { DocumentsService } from '../documents/service';
import type { EsignPrincipal } from '../keys/authenticate';
import type { Logger } from '@firma-riesgo/service-kit';
import { evaluateTemplate, TemplateEvaluationError } from './evaluate-template';
import { PAGE_FOOTER } from './locales';
import { BODY_FILE, TemplateLoadError, type ContractTemplate } from './template-catalogue';

/** A rendering's time limit on the worker pool; past it the worker is terminated. */
const RENDER_TIMEOUT_MS = 20_000;
const AUTHOR = 'firma-riesgo esign';

export interface ContractsDeps {
  templates: Map<string, ContractTemplate>;
  /** Worker threads: layout is CPU work and never runs on the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  /** The one-step document is an ordinary upload of the rendered PDF. */
  documents: Pick<DocumentsService, 'upload'>;
  clock: () => Date;
  logger: Logger;
}

export interface RenderedContract {
  pdf: Buffer;
  sha256: string;
  template: ContractTemplate;
  /** SHA-256 of the variables (canonical JSON, defaults applied): recorded instead of their values. */
  variablesSha256: string;
}

/** JSON with object keys sorted, so that the same variables always hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function templateMetadata(t: ContractTemplate) {
  return {
    template_id: t.id,
    name: t.name,
    description: t.description,
    locale: t.locale,
    version: t.version,
    variables: t.variablesSchema,
    example: t.example,
  };
}

export function createContractsService(deps: ContractsDeps) {
  const { templates } = deps;

  function find(templateId: string): ContractTemplate {
    const template = templates.get(templateId);
    if (!template) throw new NotFoundError(`No contract template "${templateId}"`, 'TEMPLATE_NOT_FOUND');
    return template;
  }

  async function layout(template: ContractTemplate, variables: Record<string, unknown>, at: Date): Promise<LayoutDocument> {
    return {
      metadata: {
        title: template.title,
        author: AUTHOR,
        subject: template.description || template.name,
        keywords: [...template.keywords, template.id, `v${template.version}`],
        creationDate: at.toISOString(),
        language: template.locale,
        producer: 'firma-riesgo esign (pdfmake)',
      },
      footer: PAGE_FOOTER[template.locale],
      blocks: await evaluateTemplate(template.body, variables, template.locale),
    };
  }

  async function renderValid(template: ContractTemplate, variables: Record<string, unknown>, client: string | undefined): Promise<Buffer> {
    let doc: LayoutDocument;
    try {
      doc = await layout(template, variables, deps.clock());
    } catch (err) {
      if (!(err instanceof TemplateEvaluationError)) throw err;
      // Valid variables the template cannot handle: the template's fault, logged with its source.
      deps.logger.error({ err, templateId: template.id, version: template.version }, 'contract template failed on valid variables');
      throw new InternalError(`Template "${template.id}" could not be filled with these variables`, 'TEMPLATE_ERROR');
    }
    const pdf = await deps.pool.run('render-layout', doc, { timeoutMs: RENDER_TIMEOUT_MS, client });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  async function render(templateId: string, body: unknown, client?: string): Promise<RenderedContract> {
    const template = find(templateId);
    const checked = template.validator.validate(body ?? {});
    if (!checked.ok) throw new ValidationError(checked.issues);
    const pdf = await renderValid(template, checked.value, client);
    return {
      pdf,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      template,
      variablesSha256: createHash('sha256').update(canonicalJson(checked.value)).digest('hex'),
    };
  }

  return {
    list() {
      return [...templates.values()].sort((a, b) => a.id.localeCompare(b.id)).map(templateMetadata);
    },

    render,

    /** Renders the contract and stores it as the tenant's document, with its origin in the audit trail. */
    async createDocument(principal: EsignPrincipal, templateId: string, body: unknown, client?: string): Promise<DocumentRow> {
      const rendered = await render(templateId, body, client);
      return deps.documents.upload(principal, { buffer: rendered.pdf, originalname: `${rendered.template.id}.pdf` }, rendered.template.name, {
        kind: 'document_generated',
        details: { template_id: rendered.template.id, template_version: rendered.template.version, variables_sha256: rendered.variablesSha256 },
      });
    },

    /** Start-up check: every template's example renders. A failure names the template's body file. */
    async checkExamples(): Promise<void> {
      for (const template of templates.values()) {
        try {
          const checked = template.validator.validate(template.example);
          if (!checked.ok) throw new Error(`the example does not match the variables: ${checked.issues[0]?.msg}`);
          await deps.pool.run('render-layout', await layout(template, checked.value, deps.clock()), { timeoutMs: RENDER_TIMEOUT_MS, internal: true });
        } catch (err) {
          throw new TemplateLoadError(`${template.dir}/${BODY_FILE}`, `the example does not render: ${(err as Error).message}`);
        }
      }
    },
  };
}

export type ContractsService = ReturnType<typeof createContractsService>;
