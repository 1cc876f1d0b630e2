export * from './layout-document';
export { FONT_FILES, SANS_FONT_FILES } from './fonts';
