import { z } from 'zod';
import { patternError } from './safe-pattern';

/**
 * The `fields` of `POST /firma/solicitudes`: where on the document this signee signs,
 * initials, and fills in. Boxes are fractions 0-1 of the page's visible box (CropBox),
 * origin top-left, the way a page is measured on screen. Where they land is checked
 * against the document by field-placement.ts.
 */

export const MAX_FIELDS = 100;
export const FIELD_TYPES = ['signature', 'initials', 'date', 'name', 'text', 'checkbox'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_NAME = /^[a-z0-9_]{1,40}$/;

const ZFraction = z.number().min(0).max(1);
const ZExtent = z.number().gt(0).max(1);

export const ZFieldBoxSchema = z
  .object({ x: ZFraction, y: ZFraction, w: ZExtent, h: ZExtent })
  .refine((b) => b.x + b.w <= 1 + 1e-9 && b.y + b.h <= 1 + 1e-9, 'the box lies outside the page (x + w and y + h must be at most 1)')
  .describe("A box in fractions 0-1 of the page's visible box (CropBox), origin top-left")
  .openapi('FieldBox', { example: { x: 0.6, y: 0.82, w: 0.3, h: 0.08 } });

const ZFieldPage = z
  .union([z.number().int().min(1).max(100_000), z.literal('last'), z.literal('all')])
  .describe('1-based page number, "last" or "all"; with `anchor` it limits the search to those pages (default: every page)');

const placement = {
  page: ZFieldPage.optional(),
  box: ZFieldBoxSchema.optional(),
  anchor: z.string().trim().min(1).max(200).optional().describe('Text found in the page text (mupdf structured text, exact: case counts); the field is placed over the first match'),
  anchor_all: z.boolean().optional().describe('With `anchor`: a field over every match instead of the first'),
  offset: z
    .object({ x: z.number().min(-1).max(1), y: z.number().min(-1).max(1) })
    .optional()
    .describe("With `anchor`: moves the field from the match's top-left corner, in fractions of the page"),
  size: z.object({ w: ZExtent, h: ZExtent }).optional().describe("With `anchor`: the field's size in fractions of the page (default: the match's box)"),
  name: z.string().regex(FIELD_NAME, 'must be 1-40 of a-z 0-9 _').optional().describe('Unique in the request; default `campo_N`, N counting from 1 in the array'),
};

export const ZSignatureFieldSchema = z
  .object({ type: z.literal('signature'), ...placement })
  .describe("The signee's signature image (drawn or typed) drawn in the box")
  .openapi('SignatureField', { example: { type: 'signature', page: 'last', box: { x: 0.55, y: 0.8, w: 0.35, h: 0.1 } } });

export const ZInitialsFieldSchema = z
  .object({ type: z.literal('initials'), ...placement })
  .describe("The signee's initials (typed on the page, or taken from the name) set in the box")
  .openapi('InitialsField', { example: { type: 'initials', page: 'all', box: { x: 0.86, y: 0.92, w: 0.1, h: 0.05 } } });

export const ZDateFieldSchema = z
  .object({ type: z.literal('date'), ...placement })
  .describe("The signing date in the signee's language")
  .openapi('DateField', { example: { type: 'date', anchor: 'Fecha:', offset: { x: 0.08, y: 0 }, size: { w: 0.25, h: 0.025 } } });

export const ZNameFieldSchema = z
  .object({ type: z.literal('name'), ...placement })
  .describe("The signee's name as given in the request (or the masked address without one)")
  .openapi('NameField', { example: { type: 'name', page: 1, box: { x: 0.1, y: 0.3, w: 0.4, h: 0.03 } } });

export const ZTextFieldSchema = z
  .object({
    type: z.literal('text'),
    ...placement,
    label: z.string().trim().min(1).max(100).describe('What the signee is asked for, shown beside the input'),
    required: z.boolean().default(true),
    max_length: z.number().int().min(1).max(1000).default(100),
    pattern: z
      .string()
      .min(1)
      .max(200)
      .superRefine((p, ctx) => {
        const error = patternError(p);
        if (error) ctx.addIssue({ code: 'custom', message: error });
      })
      .optional().describe('RE2 syntax (linear time: no backreferences or lookaround), matched against the whole value'),
  })
  .describe('A value the signee types in, set in the box')
  .openapi('TextField', { example: { type: 'text', name: 'dni', label: 'DNI', page: 1, box: { x: 0.3, y: 0.25, w: 0.2, h: 0.03 }, pattern: '[0-9]{8}[A-Z]', max_length: 9 } });

export const ZCheckboxFieldSchema = z
  .object({
    type: z.literal('checkbox'),
    ...placement,
    label: z.string().trim().min(1).max(200),
    required: z.boolean().default(false),
  })
  .describe('A box the signee ticks; a tick (X) is drawn in the box when ticked')
  .openapi('CheckboxField', { example: { type: 'checkbox', name: 'acepta_rgpd', label: 'Acepto el tratamiento de mis datos', required: true, anchor: '[ ]' } });

export const ZFieldSchema = z
  .discriminatedUnion('type', [ZSignatureFieldSchema, ZInitialsFieldSchema, ZDateFieldSchema, ZNameFieldSchema, ZTextFieldSchema, ZCheckboxFieldSchema])
  .superRefine((f, ctx) => {
    if ((f.box === undefined) === (f.anchor === undefined)) ctx.addIssue({ code: 'custom', path: ['box'], message: 'give either `box` or `anchor`' });
    if (f.box && f.page === undefined) ctx.addIssue({ code: 'custom', path: ['page'], message: 'a field placed by `box` needs `page`' });
    if (!f.anchor && (f.anchor_all !== undefined || f.offset || f.size)) ctx.addIssue({ code: 'custom', path: ['anchor'], message: '`anchor_all`, `offset` and `size` go with `anchor`' });
  })
  .openapi('Field');

export const ZFieldsSchema = z
  .array(ZFieldSchema)
  .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      const name = f.name ?? `campo_${i + 1}`;
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `the name "${name}" is used twice` });
      seen.add(name);
    });
  })
  .describe('Where this signee signs, initials and fills in (at most 100). Without it, the signee\'s block goes on the last page as before');

export type TFieldInput = z.output<typeof ZFieldSchema>;

/** A field as stored with its request and answered in its record: its name, its kind's settings and where it landed. */
export interface PlacedField {
  name: string;
  type: FieldType;
  label: string | null;
  required: boolean;
  max_length: number | null;
  pattern: string | null;
  /** Every box the field occupies (one per page for `"all"`, one per match for `anchor_all`). */
  resolved: { page: number; box: { x: number; y: number; w: number; h: number } }[];
}

/** What the signee filled in: text values and ticks by field name (date, name, signature and initials are not values). */
export type FieldValues = Record<string, string | boolean>;

/** Where typed initials are kept among the values: not a valid field name, so no field can take it. */
export const INITIALS_KEY = '@iniciales';

export const ZPlacedFieldSchema = z
  .object({
    name: z.string(),
    type: z.enum(FIELD_TYPES),
    label: z.string().nullable(),
    required: z.boolean(),
    max_length: z.number().int().nullable(),
    pattern: z.string().nullable(),
    resolved: z.array(z.object({ page: z.number().int(), box: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }) })).describe('Where it landed: page and box (fractions, origin top-left), one per page or match'),
  })
  .openapi('PlacedField', {
    example: { name: 'dni', type: 'text', label: 'DNI', required: true, max_length: 9, pattern: '[0-9]{8}[A-Z]', resolved: [{ page: 1, box: { x: 0.3, y: 0.25, w: 0.2, h: 0.03 } }] },
  });
