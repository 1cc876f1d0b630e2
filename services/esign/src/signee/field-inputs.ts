import { escapeHtml } from '../html/page-shell';
import type { SigneeLocale } from '../signing-requests/email-strings';
import type { PlacedField } from '../signing-requests/field-schemas';
import { FIELD_TEXT, type FieldText } from './field-strings';

/**
 * The request's fields on the signing page: outlined on the page images (positions in the
 * page's nonce'd style sheet: the CSP allows no style attributes), and the text fields and
 * checkboxes as form inputs below the pages in page order, so the form works without
 * JavaScript and with a screen reader.
 */

const pct = (v: number) => `${(v * 100).toFixed(3)}%`;

/** What an outline is called: "Firma aquí", "Iniciales, página 3 de 5", the text field's label. */
function outlineName(field: PlacedField, page: number, total: number, t: FieldText): string {
  const what = field.label ?? { signature: t.signature, initials: t.initials, date: t.date, name: t.name, text: field.name, checkbox: field.name }[field.type];
  return t.onPage(what, page, total);
}

/** The style rules that place each outline, and frame each page image so they can be placed over it. */
export function fieldStyles(fields: PlacedField[]): string {
  const rules = fields.flatMap((f, i) => f.resolved.map((r, j) => `.fo-${i}-${j}{left:${pct(r.box.x)};top:${pct(r.box.y)};width:${pct(r.box.w)};height:${pct(r.box.h)}}`));
  return (
    '.page-frame{position:relative;margin:0 0 .75rem}.page-frame img{margin:0}' +
    '.field-outline{position:absolute;box-sizing:border-box;border:2px dashed #0b57d0;background:rgba(11,87,208,.08)}' +
    '.field-outline.field-signature,.field-outline.field-initials{border-style:solid;border-color:#8a4b00;background:rgba(255,196,0,.18)}' +
    '#pad-iniciales{max-width:250px;aspect-ratio:250/100;margin:.25rem 0}' +
    rules.join('')
  );
}

/** The outlines on page `page`, each an image with its accessible name. */
export function fieldOutlines(fields: PlacedField[], page: number, total: number, locale: SigneeLocale): string {
  const t = FIELD_TEXT[locale];
  return fields
    .flatMap((f, i) =>
      f.resolved.flatMap((r, j) =>
        r.page === page ? [`<span class="field-outline field-${f.type} fo-${i}-${j}" role="img" aria-label="${escapeHtml(outlineName(f, page, total, t))}"></span>`] : [],
      ),
    )
    .join('');
}

/**
 * The inputs: text fields and checkboxes in page order (then top to bottom, left to right),
 * each named `campos[<name>]` with its page; when there are initials fields, a pad to draw
 * them once and one input to type them (the no-JavaScript way). Empty when the signee has nothing to fill in.
 */
export function fieldInputs(fields: PlacedField[], total: number, locale: SigneeLocale, error: { id: string; text: string } | null): string {
  const t = FIELD_TEXT[locale];
  const inputs = fields
    .filter((f) => f.type === 'text' || f.type === 'checkbox')
    .sort((a, b) => {
      const [ra, rb] = [a.resolved[0]!, b.resolved[0]!];
      return ra.page - rb.page || ra.box.y - rb.box.y || ra.box.x - rb.box.x;
    })
    .map((f) => {
      const id = `campo-${f.name}`;
      const label = `${escapeHtml(outlineName(f, f.resolved[0]!.page, total, t))}${f.required ? ` ${escapeHtml(t.required)}` : ''}`;
      const required = f.required ? ' required' : '';
      if (f.type === 'checkbox') {
        return `<div class="check"><input type="checkbox" id="${id}" name="campos[${f.name}]" value="on"${required}><label for="${id}">${label}</label></div>`;
      }
      return `<div class="row"><label for="${id}">${label}</label><input type="text" id="${id}" name="campos[${f.name}]" maxlength="${f.max_length ?? 100}" autocomplete="off"${required}></div>`;
    });
  if (fields.some((f) => f.type === 'initials')) {
    // The pad works with JavaScript only, which shows it (signature-pad-script.ts); the typed input below is the fallback.
    inputs.push(
      `<div class="row" id="pad-iniciales-row" hidden><p class="hint" id="pad-iniciales-help">${escapeHtml(t.initialsPadHelp)}</p><canvas id="pad-iniciales" width="250" height="100" role="img" aria-label="${escapeHtml(t.initialsPad)}" aria-describedby="pad-iniciales-help"></canvas><button type="button" class="secondary" id="pad-iniciales-clear">${escapeHtml(t.initialsClear)}</button><input type="hidden" name="iniciales_imagen_b64" id="iniciales_imagen_b64" value=""></div>`,
      `<div class="row"><label for="iniciales">${escapeHtml(t.initialsLabel)}</label><input type="text" id="iniciales" name="iniciales" maxlength="10" autocomplete="off" aria-describedby="iniciales-help"><p class="hint" id="iniciales-help">${escapeHtml(t.initialsHelp)}</p></div>`,
    );
  }
  if (inputs.length === 0) return '';
  const alert = error ? `<p class="field-error" id="${error.id}-error">${escapeHtml(error.text)}</p>` : '';
  return `<section aria-labelledby="campos-h"><h2 id="campos-h" tabindex="-1">${escapeHtml(t.title)}</h2><p class="hint">${escapeHtml(t.help)}</p>${alert}${inputs.join('')}</section>`;
}
