/** The languages a template may be written in, and what the service itself prints in each. */
export const TEMPLATE_LOCALES = ['es-ES', 'ca-ES', 'gl-ES', 'eu-ES', 'en-GB'] as const;
export type TemplateLocale = (typeof TEMPLATE_LOCALES)[number];

/** The footer of every page; `{page}` and `{total}` are replaced. */
export const PAGE_FOOTER: Record<TemplateLocale, string> = {
  'es-ES': 'Página {page} de {total}',
  'ca-ES': 'Pàgina {page} de {total}',
  'gl-ES': 'Páxina {page} de {total}',
  'eu-ES': '{page}. orrialdea ({total} orrialde)',
  'en-GB': 'Page {page} of {total}',
};
