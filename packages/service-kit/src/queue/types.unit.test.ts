import path from 'node:path';
import ts from 'typescript';

/**
 * jest runs ts-jest in isolated-modules mode, which strips types without checking
 * them; so the compile-time guarantees of the registry are checked here with the
 * compiler itself, on a snippet whose lines are tagged with what they exercise.
 */
const SNIPPET = `
import { z } from 'zod';
import pino from 'pino';
import { createBullMqQueue, createInProcessQueue, createJobRegistry, defineJob, type JobHandlers } from './index';

const email = defineJob({
  name: 'email.send',
  schema: z.object({ to: z.email(), priority: z.number().default(0) }),
  dedupeId: (payload) => 'email-' + payload.to.toUpperCase() + payload.priority.toFixed(0),
});
const pdf = defineJob({ name: 'pdf.render', schema: z.object({ documentId: z.string() }) });
const registry = createJobRegistry([email, pdf]);
const handlers: JobHandlers<typeof registry> = {
  'email.send': async (payload, ctx) => payload.priority + ctx.attempt + ctx.jobId.length,
  'pdf.render': async (payload) => payload.documentId.length,
};
const queue = createInProcessQueue({ registry, handlers, logger: pino({ enabled: false }) });
const remote = createBullMqQueue({ connection: 'redis://127.0.0.1:6379', queueName: 'q', registry });

void queue.enqueue('email.send', { to: 'a@example.org' }); // @case valid-with-default
void queue.enqueue('pdf.render', { documentId: 'd1' }, { delayMs: 10, jobId: 'doc-d1' }); // @case valid
void remote.enqueueAndWait('pdf.render', { documentId: 'd1' }, { timeoutMs: 100 }); // @case valid
void queue.enqueue('email.send', { documentId: 'd1' }); // @case payload-of-another-job
void remote.enqueue('pdf.render', { documentId: 42 }); // @case wrongly-typed-field
void queue.enqueue('email.send', {}); // @case missing-field
void queue.enqueue('sms.send', { to: 'a@example.org' }); // @case unknown-name
void remote.enqueueAndWait('pdf.render', { documentId: 'd1' }, {}); // @case wait-without-timeout
const missing: JobHandlers<typeof registry> = { 'email.send': async () => 1 }; // @case missing-handler
const extra: JobHandlers<typeof registry> = { ...handlers, 'sms.send': async () => 1 }; // @case extra-handler
const wrongPayload: JobHandlers<typeof registry> = { ...handlers, 'pdf.render': async (p: { to: string }) => p.to }; // @case handler-of-another-payload
void missing; void extra; void wrongPayload;
`;

const snippetPath = path.join(__dirname, '__type-check-snippet__.ts');
const errorsByCase = new Map<string, string[]>();

beforeAll(() => {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  // The snippet exists only in memory, next to the sources it imports.
  host.fileExists = (file) => file === snippetPath || fileExists(file);
  host.readFile = (file) => (file === snippetPath ? SNIPPET : readFile(file));
  host.getSourceFile = (file, language, ...rest) =>
    file === snippetPath ? ts.createSourceFile(file, SNIPPET, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([snippetPath], options, host);
  const lines = SNIPPET.split('\n');
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file;
    if (!file || file.fileName !== snippetPath || diagnostic.start === undefined) {
      throw new Error(`Unexpected diagnostic outside the snippet: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
    const tag = /\/\/ @case ([\w-]+)/.exec(lines[line] ?? '')?.[1] ?? `untagged line ${line + 1}: ${lines[line]}`;
    errorsByCase.set(tag, [...(errorsByCase.get(tag) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')]);
  }
}, 60_000);

describe('compile-time checks of the job registry', () => {
  const EXPECTED_ERRORS = [
    'payload-of-another-job',
    'wrongly-typed-field',
    'missing-field',
    'unknown-name',
    'wait-without-timeout',
    'missing-handler',
    'extra-handler',
    'handler-of-another-payload',
  ];

  it('accepts payloads matching the named job, fields with defaults left out, and a typed dedupeId and handlers', () => {
    expect([...errorsByCase.keys()].filter((tag) => !EXPECTED_ERRORS.includes(tag))).toEqual([]);
  });

  it.each(EXPECTED_ERRORS)('rejects %s', (tag) => {
    expect(errorsByCase.get(tag)).toEqual(expect.arrayContaining([expect.any(String)]));
  });
});
