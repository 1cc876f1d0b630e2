import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';

/**
 * The fonts contracts are set in, from npm packages so that they are there in every
 * install, embedded mode included: DejaVu Serif (Latin with every accent Spanish,
 * Catalan, Galician and Basque use, plus the euro sign) and Noto Sans SC as the
 * fallback for CJK text, which DejaVu does not cover.
 */
const DEJAVU = 'dejavu-fonts-ttf/ttf';
const NOTO_SC = '@expo-google-fonts/noto-sans-sc';

export const FONT_FILES = {
  main: {
    normal: require.resolve(`${DEJAVU}/DejaVuSerif.ttf`),
    bold: require.resolve(`${DEJAVU}/DejaVuSerif-Bold.ttf`),
    italics: require.resolve(`${DEJAVU}/DejaVuSerif-Italic.ttf`),
    bolditalics: require.resolve(`${DEJAVU}/DejaVuSerif-BoldItalic.ttf`),
  },
  fallback: {
    normal: require.resolve(`${NOTO_SC}/400Regular/NotoSansSC_400Regular.ttf`),
    bold: require.resolve(`${NOTO_SC}/700Bold/NotoSansSC_700Bold.ttf`),
    italics: require.resolve(`${NOTO_SC}/400Regular/NotoSansSC_400Regular.ttf`),
    bolditalics: require.resolve(`${NOTO_SC}/700Bold/NotoSansSC_700Bold.ttf`),
  },
} as const;

/**
 * DejaVu Sans, the face values are drawn in where a PDF is written over (the fields a
 * signee fills): embedded as a subset, it carries Latin with every accent, Greek,
 * Cyrillic and the euro sign, which the standard PDF fonts do not.
 */
export const SANS_FONT_FILES = {
  regular: require.resolve(`${DEJAVU}/DejaVuSans.ttf`),
  oblique: require.resolve(`${DEJAVU}/DejaVuSans-Oblique.ttf`),
} as const;

export type FontRole = keyof typeof FONT_FILES;

export interface FontRun {
  text: string;
  font: FontRole;
}

export interface FontCoverage {
  /** Cuts text where it moves between characters the main font has and ones only the fallback has. */
  runs(text: string): FontRun[];
}

/** Reads the two regular faces once; the styles of one family share its coverage. */
export function loadFontCoverage(): FontCoverage {
  const main = fontkit.create(readFileSync(FONT_FILES.main.normal)) as fontkit.Font;
  const fallback = fontkit.create(readFileSync(FONT_FILES.fallback.normal)) as fontkit.Font;
  const roleOf = (codePoint: number): FontRole =>
    main.hasGlyphForCodePoint(codePoint) || !fallback.hasGlyphForCodePoint(codePoint) ? 'main' : 'fallback';
  return {
    runs(text) {
      const out: FontRun[] = [];
      for (const char of text) {
        const font = roleOf(char.codePointAt(0) as number);
        const last = out[out.length - 1];
        if (last && last.font === font) last.text += char;
        else out.push({ text: char, font });
      }
      return out;
    },
  };
}
