import { AppError } from '@firma-riesgo/errors';
import { resolveDateRange } from './date-range';

const TODAY = '2025-07-20';

function failure(query: { date_from?: string; date_to?: string }) {
  try {
    resolveDateRange(query, TODAY);
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, param: err.param };
    throw err;
  }
  throw new Error('expected the range to be refused');
}

describe('resolveDateRange', () => {
  it('runs from date_from to today when only date_from is given', () => {
    expect(resolveDateRange({ date_from: '2025-07-01' }, TODAY)).toEqual({ from: '2025-07-01', to: TODAY });
  });

  it('covers the 366 days ending on date_to when only date_to is given', () => {
    expect(resolveDateRange({ date_to: '2024-12-31' }, TODAY)).toEqual({ from: '2024-01-01', to: '2024-12-31' });
  });

  it('never starts an implied range before 2015-01-01', () => {
    expect(resolveDateRange({ date_to: '2015-03-01' }, TODAY)).toEqual({ from: '2015-01-01', to: '2015-03-01' });
  });

  it('accepts 2015-01-01, today, and a single day', () => {
    expect(resolveDateRange({ date_from: '2015-01-01', date_to: '2015-01-01' }, TODAY)).toEqual({ from: '2015-01-01', to: '2015-01-01' });
    expect(resolveDateRange({ date_from: TODAY, date_to: TODAY }, TODAY)).toEqual({ from: TODAY, to: TODAY });
  });

  it('accepts exactly 366 days and refuses 367 with DATE_RANGE_TOO_LARGE', () => {
    expect(resolveDateRange({ date_from: '2024-01-01', date_to: '2024-12-31' }, TODAY)).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(failure({ date_from: '2024-01-01', date_to: '2025-01-01' })).toEqual({ status: 422, code: 'DATE_RANGE_TOO_LARGE', param: 'date_to' });
  });

  it('blames date_from when a lone date_from reaches more than 366 days back to today', () => {
    expect(failure({ date_from: '2024-07-19' })).toEqual({ status: 422, code: 'DATE_RANGE_TOO_LARGE', param: 'date_from' });
    expect(resolveDateRange({ date_from: '2024-07-20' }, TODAY)).toEqual({ from: '2024-07-20', to: TODAY });
  });

  it.each([
    [{ date_from: '2014-12-31' }, 'date_from'],
    [{ date_to: '2014-12-31' }, 'date_to'],
    [{ date_from: '2025-07-21' }, 'date_from'],
    [{ date_from: '2025-07-01', date_to: '2025-07-21' }, 'date_to'],
  ])('refuses %j with DATE_OUT_OF_RANGE naming %s', (query, param) => {
    expect(failure(query)).toEqual({ status: 422, code: 'DATE_OUT_OF_RANGE', param });
  });

  it('refuses date_from after date_to with INVALID_DATE_RANGE before judging the span', () => {
    expect(failure({ date_from: '2025-07-02', date_to: '2025-07-01' })).toEqual({ status: 422, code: 'INVALID_DATE_RANGE', param: 'date_from' });
  });
});
