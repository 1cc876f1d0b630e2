import { ValidationError } from '../errors';
import type { PlacedField } from '../signing-requests/field-schemas';
import { checkFieldValues } from './field-values';

const at = [{ page: 1, box: { x: 0.1, y: 0.1, w: 0.2, h: 0.03 } }];
const text = (over: Partial<PlacedField> = {}): PlacedField => ({ name: 'dni', type: 'text', label: 'DNI', required: true, max_length: 9, pattern: '[0-9]{8}[A-Z]', resolved: at, ...over });
const box = (over: Partial<PlacedField> = {}): PlacedField => ({ name: 'acepta', type: 'checkbox', label: 'Acepto', required: false, max_length: null, pattern: null, resolved: at, ...over });
const sig: PlacedField = { name: 'campo_1', type: 'signature', label: null, required: true, max_length: null, pattern: null, resolved: at };

function refusal(fn: () => unknown): { loc: (string | number)[]; type: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { loc: err.issues[0]!.loc, type: err.issues[0]!.type };
  }
}

describe('checkFieldValues', () => {
  it('keeps the trimmed text and a tick from true or on; signature fields take no value; unknown names are ignored', () => {
    expect(checkFieldValues([text(), box(), sig], { dni: ' 12345678Z ', acepta: 'on', otro: 'x' })).toEqual({ dni: '12345678Z', acepta: true });
    expect(checkFieldValues([box()], { acepta: true })).toEqual({ acepta: true });
    expect(checkFieldValues([box()], { acepta: 'TRUE' })).toEqual({ acepta: true });
    expect(checkFieldValues([box()], {})).toEqual({ acepta: false });
    expect(checkFieldValues([text({ required: false })], undefined)).toEqual({ dni: '' });
  });

  it('refuses by name: a required field empty, a required box not ticked, too long, the pattern broken (matched whole)', () => {
    expect(refusal(() => checkFieldValues([text()], { dni: '  ' }))).toEqual({ loc: ['body', 'campos', 'dni'], type: 'field_required' });
    expect(refusal(() => checkFieldValues([box({ required: true })], { acepta: 'false' }))).toEqual({ loc: ['body', 'campos', 'acepta'], type: 'field_required' });
    expect(refusal(() => checkFieldValues([text({ pattern: null })], { dni: '1234567890' }))).toEqual({ loc: ['body', 'campos', 'dni'], type: 'field_invalid' });
    expect(refusal(() => checkFieldValues([text({ max_length: 20 })], { dni: 'x12345678Z' }))).toEqual({ loc: ['body', 'campos', 'dni'], type: 'field_invalid' });
  });

  it('counts characters, not UTF-16 units, against max_length', () => {
    expect(checkFieldValues([text({ pattern: null, max_length: 3 })], { dni: '😀😀😀' })).toEqual({ dni: '😀😀😀' });
  });

  it('runs a pattern that would backtrack catastrophically on RE2, which answers', () => {
    const evil = text({ pattern: '(a+)+b', max_length: 1000 });
    expect(refusal(() => checkFieldValues([evil], { dni: 'a'.repeat(1000) }))).toEqual({ loc: ['body', 'campos', 'dni'], type: 'field_invalid' });
  });
});
