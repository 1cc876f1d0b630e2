import { ValidationError } from '../errors';
import type { FieldValues, PlacedField } from '../signing-requests/field-schemas';
import { compilePattern } from '../signing-requests/safe-pattern';

const TICKED = new Set(['true', 'on']);

function refuse(name: string, msg: string, type = 'value_error'): never {
  throw new ValidationError([{ loc: ['body', 'campos', name], msg, type }]);
}

/**
 * The values the signee sent for the request's fields (`campos`), checked: a required text
 * field not empty, at most `max_length` characters, matching `pattern`; a required checkbox
 * ticked (`true` or `on`). Answers the values to store by field name; signature, initials,
 * date and name fields fill themselves and take no value. Names the request does not have
 * are ignored.
 */
export function checkFieldValues(fields: PlacedField[], sent: Record<string, string | boolean> | undefined): FieldValues {
  const values: FieldValues = {};
  for (const field of fields) {
    const raw = sent?.[field.name];
    if (field.type === 'checkbox') {
      const ticked = raw === true || (typeof raw === 'string' && TICKED.has(raw.trim().toLowerCase()));
      if (field.required && !ticked) refuse(field.name, `"${field.label}" must be ticked`, 'field_required');
      values[field.name] = ticked;
    } else if (field.type === 'text') {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') {
        if (field.required) refuse(field.name, `"${field.label}" is required`, 'field_required');
        values[field.name] = '';
        continue;
      }
      if (field.max_length !== null && [...text].length > field.max_length) refuse(field.name, `at most ${field.max_length} characters`, 'field_invalid');
      if (field.pattern !== null && !compilePattern(field.pattern).test(text)) refuse(field.name, `"${field.label}" does not have the expected form`, 'field_invalid');
      values[field.name] = text;
    }
  }
  return values;
}
