import { AppError } from '@firma-riesgo/errors';
import { WorkerTimeoutError } from '@firma-riesgo/pdf-core';
import { minimalPdf } from '../../../../packages/pdf-core/src/__tests__/minimal-pdf';
import { inspectPdf, UnacceptablePdfError } from './pdf-inspection';

/** The full parse of an upload happens on a worker thread; what it answers, and what its failures become. */
describe('inspectPdf', () => {
  const pool = (run: () => Promise<unknown>) => ({ run }) as never;

  it('refuses without a worker what cheap scans already tell: empty, not a PDF', async () => {
    const unused = pool(() => Promise.reject(new Error('the worker must not be asked')));
    await expect(inspectPdf(unused, Buffer.alloc(0), 'key:k1')).rejects.toMatchObject({ reason: 'empty' });
    await expect(inspectPdf(unused, Buffer.from('hello'), 'key:k1')).rejects.toMatchObject({ reason: 'not_pdf' });
  });

  it("takes the worker's verdict, asked for the uploader's key (its fair share of the workers)", async () => {
    const asked: unknown[] = [];
    const recording = ({ run: async (_op: string, _args: unknown, options: unknown) => (asked.push(options), { ok: true, pages: 3 }) }) as never;
    await expect(inspectPdf(recording, minimalPdf(), 'key:k1')).resolves.toEqual({ pages: 3 });
    expect(asked).toEqual([expect.objectContaining({ client: 'key:k1' })]);
    await expect(inspectPdf(pool(async () => ({ ok: false, reason: 'corrupt', message: 'The PDF has no pages' })), minimalPdf(), 'key:k1')).rejects.toMatchObject({
      reason: 'corrupt',
      message: 'The PDF has no pages',
    });
  });

  it('refuses a file whose parse ran past its budget or killed its worker, as a damaged PDF (422), not a 5xx', async () => {
    for (const failure of [new WorkerTimeoutError('accept-pdf', 20_000), new AppError(500, 'TOOL_WORKER_FAILED', 'The PDF worker stopped during the job')]) {
      const err = await inspectPdf(pool(() => Promise.reject(failure)), minimalPdf(), 'key:k1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnacceptablePdfError);
      expect(err).toMatchObject({ reason: 'corrupt', message: 'The PDF could not be read within the time and memory it may use' });
    }
  });
});
