import { catalogueMismatches, catalogueErrors, type ErrorCatalogue } from './index';

const CATALOGUE = {
  THING_NOT_FOUND: { status: 404, description: 'no such thing' },
  THING_ERASED: { status: [404, 410], description: 'the thing was erased' },
  INTERNAL_ERROR: { status: 500, description: 'unexpected', scope: 'any' },
  CLI_ONLY: { status: 409, description: 'operators only', scope: 'internal' },
} as const satisfies ErrorCatalogue;

const doc = (responses: Record<string, string>) => ({
  paths: { '/things/{id}': { get: { responses: Object.fromEntries(Object.entries(responses).map(([s, d]) => [s, { description: d }])) } } },
});

describe('catalogueMismatches', () => {
  it('accepts a document whose error responses name catalogue codes under their statuses', () => {
    expect(catalogueMismatches(doc({ 200: 'OK (NOT_A_CODE_HERE)', 404: 'No such thing (THING_NOT_FOUND) or erased (THING_ERASED)', 410: 'Erased (THING_ERASED)' }), CATALOGUE)).toEqual([]);
  });

  it('names a code the catalogue lacks, a code under a status the catalogue does not give, and a code no route declares', () => {
    expect(catalogueMismatches(doc({ 404: 'Missing (THING_MISSING)', 409: 'Erased (THING_ERASED)' }), CATALOGUE)).toEqual([
      'THING_MISSING (404) is declared in the OpenAPI document but is not in the catalogue',
      'THING_ERASED is declared under 409; the catalogue gives 404, 410',
      "THING_NOT_FOUND is in the catalogue but no route's error responses declare it",
    ]);
  });

  it('ignores words the caller says are not codes, such as variable names', () => {
    expect(catalogueMismatches(doc({ 404: 'THING_NOT_FOUND or THING_ERASED', 413: 'Over SVC_MAX_MB' }), CATALOGUE, (w) => w.startsWith('SVC_'))).toEqual([]);
  });
});

describe('catalogueErrors', () => {
  it('gives the package classes, so instanceof and the status hold', () => {
    const { NotFoundError, GoneError } = catalogueErrors<typeof CATALOGUE>();
    const err = new GoneError('erased', 'THING_ERASED');
    expect(err).toBeInstanceOf(GoneError);
    expect({ status: err.status, code: err.code }).toEqual({ status: 410, code: 'THING_ERASED' });
    expect(new NotFoundError('gone', 'THING_ERASED').status).toBe(404);
    // @ts-expect-error THING_NOT_FOUND answers 404, not GoneError's 410
    void (() => new GoneError('x', 'THING_NOT_FOUND'));
  });
});
