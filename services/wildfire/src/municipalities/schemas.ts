import { z } from 'zod';

/** The `municipio_id` query parameter of every data endpoint. */
export const ZMunicipioIdParamSchema = z
  .string()
  .regex(/^\d{5}$/, 'expected a 5-digit INE municipality code such as 28079')
  .openapi({
    description:
      'INE municipality code: exactly 5 digits, the 2-digit province code then the 3-digit municipality code (28079 Madrid, 41091 Sevilla). ' +
      'Anything else answers 400 INVALID_PARAM_FORMAT; a well-formed code no municipality has answers 404 MUNICIPALITY_NOT_FOUND.',
    example: '41091',
  });
